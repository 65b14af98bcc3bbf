//go:build unix

package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestNestedThroughIndirection: an .mcp.json entry that starts toolsearch
// again through `sh -c` and a wrapper script hides toolsearch from
// withoutSelf, and the chain reached depth 4 and beyond. A toolsearch
// started by toolsearch now starts no stdio server: the chain stops at two
// (the outer one, and the one the wrapper starts once), and the inner one
// says why. With env -i the wrapper also clears the environment, so that
// only the process tree (Linux) shows the nesting.
func TestNestedThroughIndirection(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		env  string // what the wrapper runs toolsearch under
	}{
		{"environment kept", "env"},
		{"environment cleared", `env -i PATH="$PATH" HOME="$HOME" XDG_CACHE_HOME="$XDG_CACHE_HOME" XDG_CONFIG_HOME="$XDG_CONFIG_HOME" XDG_STATE_HOME="$XDG_STATE_HOME"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "environment cleared" && runtime.GOOS != "linux" {
				t.Skip("only Linux's /proc shows the process tree")
			}
			dir := t.TempDir()
			starts := filepath.Join(dir, "starts")
			cfg := filepath.Join(dir, ".mcp.json")
			innerLog := filepath.Join(dir, "inner.log")
			// Each start through the wrapper is a line of starts; the
			// seventh refuses, so that a chain without end still ends.
			wrapper := "#!/bin/sh\n" +
				"echo $$ >> '" + starts + "'\n" +
				"[ $(wc -l < '" + starts + "') -le 6 ] || exit 1\n" +
				"exec " + tc.env + " " + runAsToolsearch + "=1 '" + exe + "' serve --mcp-config '" + cfg + "' --skills '" + testSkills(t) + "' 2>>'" + innerLog + "'\n"
			writeFile(t, dir, "wrap.sh", wrapper)
			if err := os.Chmod(filepath.Join(dir, "wrap.sh"), 0o755); err != nil {
				t.Fatal(err)
			}
			mcp, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
				"again": map[string]any{"command": "sh", "args": []string{"-c", filepath.Join(dir, "wrap.sh")}},
			}})
			writeFile(t, dir, ".mcp.json", string(mcp))

			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := toolsearch(ctx, "catalog", "--mcp-config", cfg)
			home := t.TempDir()
			cmd.Env = append(cmd.Env, "HOME="+home, "XDG_CACHE_HOME="+filepath.Join(home, "cache"),
				"XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_STATE_HOME="+filepath.Join(home, "state"))
			cmd.Stderr = &testLog{t: t}
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("catalog: %v\n%s", err, out)
			}
			b, _ := os.ReadFile(starts)
			if n := strings.Count(string(b), "\n"); n != 1 {
				t.Errorf("toolsearch was started %d times through the wrapper, want once (a chain two deep)", n)
			}
			if b, _ := os.ReadFile(innerLog); !strings.Contains(string(b), "not started: this toolsearch was started by another toolsearch") {
				t.Errorf("the inner toolsearch does not say why it started nothing:\n%s", b)
			}
			if !strings.Contains(string(out), "again__") {
				t.Errorf("the inner toolsearch serves nothing:\n%s", out)
			}
		})
	}
}
