//go:build interop

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestInteropReadmeFigures runs .ci/figures for the table in docs/savings.md of the
// shipped skills and the example servers (server-everything among them,
// through npx: hence the interop tag) and fails when that page shows other
// figures than it prints.
func TestInteropReadmeFigures(t *testing.T) {
	if _, err := exec.LookPath("npx"); err != nil {
		t.Fatal("npx is not installed: the example servers include server-everything, started with npx")
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	cmd := exec.Command("bash", filepath.Join(root, ".ci", "figures"), "examples")
	cmd.Stderr = &testLog{t: t}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf(".ci/figures examples: %v\n%s", err, out)
	}
	printed := strings.TrimPrefix(string(out), "== examples\n")
	readme, err := os.ReadFile(filepath.Join(root, "docs", "savings.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)<!-- figures:examples -->\n(.*?)<!-- /figures:examples -->`).FindSubmatch(readme)
	if m == nil {
		t.Fatal("docs/savings.md has no <!-- figures:examples --> block")
	}
	if got := string(m[1]); got != printed {
		t.Errorf("docs/savings.md's figures of the shipped skills and example servers differ from what .ci/figures prints (run .ci/figures --write examples):\ndocs/savings.md:\n%s\nprinted:\n%s", got, printed)
	}
}
