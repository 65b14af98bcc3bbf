package main

import (
	"os/exec"
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
