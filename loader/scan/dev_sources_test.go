package scan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// loadScannerBench reads agent-skill-scanner-bench's samples
// (samples/ID/…, the output of its factory/sample_factory.py), a
// development source added by issue 43's fourth session. Its malicious
// samples carry one payload, a harvest (SSH keys and AWS credentials read
// and posted), written plain (X0) and hidden from scanners: homoglyphs
// (S1), base64 piped to a shell (S3), after 300 KB of padding (S4), in a
// hook beside a compiled module (S5), behind a SKILL.md that shows other
// source (S6), under pressure not to read the script (S7). They are
// harvesters; S2 hides only an order to run a clean script in invisible
// characters and a comment, an attack of another kind. Its benign samples
// are written for the benchmark and are counted with the generated clean
// skills, not as real ones.
func loadScannerBench(tb testing.TB, dir string) []sample {
	index, err := os.ReadFile(filepath.Join(dir, "samples/index.csv"))
	if err != nil {
		return nil
	}
	var out []sample
	for _, row := range strings.Split(strings.TrimSpace(string(index)), "\n")[1:] {
		cols := strings.Split(row, ",")
		if len(cols) < 2 {
			continue
		}
		id, kind := cols[0], cols[1]
		for _, s := range loadSkillDirs(tb, "", filepath.Join(dir, "samples", id), nil) {
			s.id = id
			s.attack = kind == "malicious"
			s.harvest = s.attack && id != "S2-zerowidth"
			out = append(out, s)
		}
	}
	return out
}
