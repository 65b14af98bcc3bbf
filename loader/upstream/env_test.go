package upstream

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A stdio server inherited toolsearch's whole environment: its own token,
// and the credentials other servers' entries name. It still gets what its
// own entry names, and everything else.
func TestStdioServerEnvironment(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	t.Setenv("TOOLSEARCH_TOKEN", "ts-token")
	t.Setenv("DOCS_TOKEN", "docs-token")     // the http server's header
	t.Setenv("GITHUB_TOKEN", "gh-token")     // the other stdio server's env
	t.Setenv("DUMP_ARG_TOKEN", "own-token")  // named by the dumping server itself
	t.Setenv("SHARED_TOKEN", "shared-token") // named by both
	t.Setenv("UNRELATED", "kept")
	dir := t.TempDir()
	out := filepath.Join(dir, "env")
	config := filepath.Join(dir, "mcp.json")
	os.WriteFile(config, []byte(`{"mcpServers": {
	  "dump":   {"command": "sh", "args": ["-c", "env > \"$OUT\"; exit 1", "${DUMP_ARG_TOKEN}", "${SHARED_TOKEN}", "${PATH}"],
	             "env": {"OUT": "`+out+`"}},
	  "github": {"command": "github-mcp", "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}", "PATH": "${PATH}:/opt/gh", "S": "${SHARED_TOKEN}"}},
	  "docs":   {"type": "http", "url": "https://docs.example/mcp", "headers": {"Authorization": "Bearer ${DOCS_TOKEN}"}}
	}}`), 0o600)
	servers, probs, err := LoadConfig(config)
	if err != nil || len(probs) > 0 {
		t.Fatal(err, probs)
	}
	// Only the dumping server runs; the others are configured, which is
	// what makes their variables theirs, and disabled.
	_, _ = realEnv(t, Options{Settings: map[string]Settings{"github": {Disabled: true}, "docs": {Disabled: true}}}, servers...)
	var data []byte
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(10 * time.Millisecond) {
		if data, err = os.ReadFile(out); err == nil && strings.Contains(string(data), "UNRELATED=") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server wrote no environment: %v", err)
		}
	}
	env := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			env[k] = v
		}
	}
	for _, k := range []string{"TOOLSEARCH_TOKEN", "DOCS_TOKEN", "GITHUB_TOKEN"} {
		if v, ok := env[k]; ok {
			t.Errorf("the server inherited %s=%s", k, v)
		}
	}
	for k, want := range map[string]string{"DUMP_ARG_TOKEN": "own-token", "SHARED_TOKEN": "shared-token", "UNRELATED": "kept", "PATH": os.Getenv("PATH"), "OUT": out} {
		if env[k] != want {
			t.Errorf("%s = %q, want %q", k, env[k], want)
		}
	}
}
