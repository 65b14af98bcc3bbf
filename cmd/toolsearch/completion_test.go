package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompletion writes each shell's script, checks it with the shell when
// it is installed, and asks bash for completions as a user's TAB would.
func TestCompletion(t *testing.T) {
	for _, shell := range completionShells {
		var out, stderr strings.Builder
		if code := run(t.Context(), []string{"completion", shell}, &out, &stderr); code != 0 {
			t.Fatalf("completion %s: exit %d: %s", shell, code, stderr.String())
		}
		script := out.String()
		for _, want := range []string{"client-config", "init", "mcp-config", "tokenizer"} {
			if !strings.Contains(script, want) {
				t.Errorf("%s completion lacks %q", shell, want)
			}
		}
		path, err := exec.LookPath(shell)
		if err != nil {
			t.Logf("%s is not installed: its script is not checked", shell)
			continue
		}
		file := filepath.Join(t.TempDir(), "toolsearch."+shell)
		os.WriteFile(file, []byte(script), 0o644)
		if out, err := exec.Command(path, "-n", file).CombinedOutput(); err != nil {
			t.Errorf("%s -n: %v\n%s", shell, err, out)
		}
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	var script strings.Builder
	run(t.Context(), []string{"completion", "bash"}, &script, &script)
	complete := func(words ...string) string {
		t.Helper()
		prog := script.String() + `
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _toolsearch; echo "${COMPREPLY[*]}"`
		out, err := exec.Command(bash, append([]string{"-c", prog, "bash"}, words...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v\n%s", words, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	tests := []struct {
		words []string
		want  string
	}{
		{[]string{"toolsearch", "cli"}, "client-config"},
		{[]string{"toolsearch", "call", "--"}, "--args --config --elicit --json --log-level --mcp-config --wait"},
		{[]string{"toolsearch", "search", "--kind", ""}, "tool skill prompt resource any"},
		{[]string{"toolsearch", "call", "--elicit", ""}, "ask defaults decline"},
		{[]string{"toolsearch", "client-config", "c"}, "claude-code claude-desktop cursor codex"},
		{[]string{"toolsearch", "init", "--from", "v"}, "vscode"},
		{[]string{"toolsearch", "completion", ""}, "bash zsh fish"},
		{[]string{"toolsearch", "serve", "--mcp-config", ""}, ""}, // files: bash's default
	}
	for _, tt := range tests {
		if got := complete(tt.words...); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.words, got, tt.want)
		}
	}
}
