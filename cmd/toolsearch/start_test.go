package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeEmptyCatalogWarns starts serve where there is nothing to serve:
// one warning says what was looked for.
func TestServeEmptyCatalogWarns(t *testing.T) {
	cmd := exec.Command(binary, "serve")
	cmd.Dir = t.TempDir()
	cmd.Env = append(cmd.Environ(), "XDG_CACHE_HOME="+t.TempDir())
	var stderr strings.Builder
	cmd.Stderr = &stderr // stdin is empty: the server ends at once
	if err := cmd.Run(); err != nil {
		t.Fatalf("serve: %v\n%s", err, stderr.String())
	}
	log := stderr.String()
	if n := strings.Count(log, "the catalog is empty"); n != 1 {
		t.Errorf("%d warnings about the empty catalog, want 1:\n%s", n, log)
	}
	for _, want := range []string{"level=WARN", "no ./skills", "no ./.mcp.json", "no ./toolsearch.yaml", "workdir=" + cmd.Dir} {
		if !strings.Contains(log, want) {
			t.Errorf("the warning lacks %q:\n%s", want, log)
		}
	}
}

// TestCallStartsOnlyItsServer calls a tool of one upstream with another
// configured beside it: the other is never started, so a slow server (npx
// fetching a package) does not hold up a call to a quick one.
func TestCallStartsOnlyItsServer(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "other-started")
	cfg := mcpConfigFile(t, map[string]any{
		// toolsearch itself is the upstream: an MCP server at hand.
		"up":    map[string]any{"command": binary, "args": []string{"serve", "--skills", testSkills(t)}},
		"other": map[string]any{"command": "sh", "args": []string{"-c", `touch "$0"; sleep 60`, marker}},
	})
	for _, name := range []string{"up__tool_search", "tool_search"} {
		cmd := exec.Command(binary, "call", name, "--args", `{"query": "pdf form"}`, "--mcp-config", cfg)
		cmd.Dir = dir
		cmd.Env = append(cmd.Environ(), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "pdf-forms") {
			t.Fatalf("call %s: %v\n%s", name, err, out)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("call %s started the other server too", name)
		}
	}
}

// mcpConfigFile writes a .mcp.json for the given servers.
func mcpConfigFile(t *testing.T, servers map[string]any) string {
	t.Helper()
	data, _ := json.Marshal(map[string]any{"mcpServers": servers})
	path := filepath.Join(t.TempDir(), ".mcp.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
