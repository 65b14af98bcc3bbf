//go:build unix

package runner

import (
	"log/slog"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkRun compares running a script that does nothing through the
// runner with running it through os/exec directly: the difference is the
// runner's overhead (path checks, #! parsing, environment filtering, own
// pipes, process group bookkeeping).
func BenchmarkRun(b *testing.B) {
	const script = "scripts/true.sh" // #!/bin/sh, exit 0
	b.Run("exec", func(b *testing.B) {
		for b.Loop() {
			if _, err := exec.Command("/bin/sh", filepath.Join(skillDir, script)).Output(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("runner", func(b *testing.B) {
		r := New(Options{Logger: slog.New(slog.DiscardHandler)})
		for b.Loop() {
			res, err := r.Run(b.Context(), Request{SkillDir: skillDir, Script: script})
			if err != nil || res.Failed() {
				b.Fatal(err, res)
			}
		}
	})
}
