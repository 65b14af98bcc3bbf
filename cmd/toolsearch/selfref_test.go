package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/loader/upstream"
)

// TestWithoutSelf: a project .mcp.json listing toolsearch itself made it
// start copies of itself, ~20 a second; such entries are left out, each
// with its reason, and the others kept.
func TestWithoutSelf(t *testing.T) {
	// dir is the user's configuration folder, which a bare serve reads.
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", home)
	dir := filepath.Join(home, "toolsearch")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, ".mcp.json")
	otherJSON := filepath.Join(dir, "other.json")
	for _, f := range []string{path, otherJSON} {
		if err := os.WriteFile(f, []byte(`{"mcpServers":{}}`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	self := selfExecutable()
	link := filepath.Join(dir, "ts-link")
	if err := os.Symlink(self, link); err != nil {
		t.Fatal(err)
	}
	// The copies start in dir, as a host starts toolsearch in a folder.
	stdio := func(command string, args ...string) upstream.ServerConfig {
		return upstream.ServerConfig{Type: upstream.TypeStdio, Command: command, Args: args, Cwd: dir}
	}
	elsewhere := stdio(self, "serve")
	elsewhere.Cwd = t.TempDir()
	// A project's .mcp.json, which a bare serve started there does not read.
	project := t.TempDir()
	if err := os.WriteFile(filepath.Join(project, ".mcp.json"), []byte(`{"mcpServers":{}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	inProject := stdio(self, "serve")
	inProject.Cwd = project
	other := filepath.Join(t.TempDir(), "toolsearch.yaml")
	if err := os.WriteFile(other, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		cfg     upstream.ServerConfig
		refused bool
	}{
		{"this program", stdio(self, "serve"), true},
		{"this program through a link", stdio(link, "serve", "--skills", "skills"), true},
		{"a program named toolsearch", stdio("/usr/local/bin/toolsearch", "serve"), true},
		{"toolsearch.exe", stdio(`toolsearch.exe`, "serve"), true},
		{"go run of the module", stdio("go", "run", "github.com/toolsearch/toolsearch/cmd/toolsearch@latest", "serve"), true},
		{"go run in the repository", stdio("go", "run", "./cmd/toolsearch", "serve"), true},
		{"npx", stdio("npx", "-y", "toolsearch@1.2.0", "serve"), true},
		{"npx of a scoped package", stdio("npx", "-y", "@acme/toolsearch", "serve"), true},
		{"the same file named explicitly", stdio(self, "serve", "--mcp-config", path), true},
		{"the same file named with =", stdio(self, "serve", "--mcp-config="+path), true},
		{"another configuration", stdio(self, "serve", "--mcp-config", otherJSON), false},
		{"a relative --mcp-config to the same file", stdio(self, "serve", "--mcp-config", ".mcp.json"), true},
		{"another working directory: the same user's folder", elsewhere, true},
		{"the configuration in this folder", stdio(self, "serve", "--config", "toolsearch.yaml"), true},
		{"another configuration folder", stdio(self, "serve", "--config", other), false},
		{"a one-shot command", stdio(self, "catalog"), false},
		{"another server", stdio("npx", "-y", "@modelcontextprotocol/server-github"), false},
		{"go run of another program", stdio("go", "run", "./examples/servers/tasks", "serve"), false},
		{"an HTTP server", upstream.ServerConfig{Type: upstream.TypeHTTP, URL: "http://127.0.0.1:1/mcp"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.Name = "entry"
			kept, probs := withoutSelf(path, []upstream.ServerConfig{c.cfg, stdio("/bin/true")})
			if got := len(kept) == 1; got != c.refused {
				t.Fatalf("refused = %v, want %v (kept %d, problems %v)", got, c.refused, len(kept), probs)
			}
			if !c.refused {
				return
			}
			if len(probs) != 1 || probs[0].Field != "mcpServers.entry" || !strings.Contains(probs[0].Message, "starts toolsearch itself") {
				t.Errorf("problems %v, want one for mcpServers.entry saying why", probs)
			}
		})
	}
	// A project's .mcp.json listing a bare serve is no loop: that serve
	// reads the user's configuration folder, not the project's file.
	inProject.Name = "entry"
	if kept, probs := withoutSelf(filepath.Join(project, ".mcp.json"), []upstream.ServerConfig{inProject}); len(kept) != 1 {
		t.Errorf("a bare serve in a project's .mcp.json is refused: %v", probs)
	}
}
