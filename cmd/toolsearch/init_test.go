package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/cmd/toolsearch/internal/hosts"
	"github.com/toolsearch/toolsearch/loader/upstream"
)

// hostSample lays out a host's sample configuration (internal/hosts/testdata)
// where the host documents it, under a fresh home and project folder.
func hostSample(t *testing.T, host string) (home, project string) {
	t.Helper()
	root := t.TempDir()
	home, project = filepath.Join(root, "home"), filepath.Join(root, "project")
	src := filepath.Join("internal", "hosts", "testdata", host)
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "want.json" {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		data = bytes.ReplaceAll(data, []byte("{{HOME}}"), []byte(home))
		data = bytes.ReplaceAll(data, []byte("{{PROJECT}}"), []byte(project))
		dst := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(dst), 0o755)
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(project, 0o755)
	return home, project
}

// toolsearchAt runs the binary in dir with HOME set to home and no other
// host locations in the environment.
func toolsearchAt(t *testing.T, dir, home string, args ...string) (string, error) {
	t.Helper()
	cmd := toolsearch(t.Context(), args...)
	cmd.Dir = dir
	env := cmd.Env
	cmd.Env = nil
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); !slices.Contains([]string{"HOME", "XDG_CONFIG_HOME", "APPDATA", "CODEX_HOME"}, k) {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "HOME="+home, "XDG_CACHE_HOME="+filepath.Join(home, ".cache"))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestInitFrom imports each host's sample configuration with init --from:
// the servers the host gives every project go in the folder's .mcp.json,
// those it gives the project alone in the project's configuration under
// projects/, which includes the folder's; toolsearch.yaml holds their
// settings; init says what to take out of which of the host's files.
func TestInitFrom(t *testing.T) {
	for _, host := range hosts.Names() {
		t.Run(host, func(t *testing.T) {
			home, project := hostSample(t, host)
			want, err := hosts.Import(host, hosts.Options{Home: home, Project: project, GOOS: "linux", Getenv: func(string) string { return "" }})
			if err != nil {
				t.Fatal(err)
			}
			out, err := toolsearchAt(t, project, home, "init", ".", "--from", host)
			if err != nil {
				t.Fatalf("init --from %s: %v\n%s", host, err, out)
			}
			every, own := want.Split()
			parts := []struct {
				dir     string
				servers []hosts.Server
			}{{project, every}, {projectConfigDir(project, project), own}}
			for _, part := range parts {
				if len(part.servers) == 0 {
					if fileExists(part.dir) && part.dir != project {
						t.Errorf("%s written with no servers of the project", part.dir)
					}
					continue
				}
				servers, probs, err := upstream.LoadConfig(filepath.Join(part.dir, ".mcp.json"))
				if err != nil || len(servers) != len(part.servers) {
					t.Fatalf("toolsearch reads %d servers in %s (%v, %v), want %d:\n%s", len(servers), part.dir, err, probs, len(part.servers), out)
				}
				for i, s := range servers {
					if s.Name != part.servers[i].Name {
						t.Errorf("server %d is %s, want %s", i, s.Name, part.servers[i].Name)
					}
				}
				cfg, err := loadConfig(filepath.Join(part.dir, DefaultConfigFile), true)
				if err != nil {
					t.Fatal(err)
				}
				for _, s := range part.servers {
					sc := cfg.Servers[s.Name]
					if s.Settings.IsZero() != (sc == nil) || sc != nil && (sc.Disabled != s.Settings.Disabled || !maps.Equal(sc.Policy, s.Settings.Policy)) {
						t.Errorf("servers.%s in toolsearch.yaml = %+v, want %+v", s.Name, sc, s.Settings)
					}
					if hint := hosts.RemoveHint(host, s, project); !strings.Contains(out, "  "+hint+"\n") {
						t.Errorf("init does not say to %s:\n%s", hint, out)
					}
				}
			}
			if !strings.Contains(out, "wrote  .mcp.json ("+plural(len(every), "server")) || !strings.Contains(out, "toolsearch client-config "+host) {
				t.Errorf("init says:\n%s", out)
			}
			// client-config registers what init wrote, with absolute paths.
			snippet, err := toolsearchAt(t, project, home, "client-config", host)
			if err != nil || !strings.Contains(snippet, filepath.Join(project, DefaultConfigFile)) {
				t.Errorf("client-config %s: %v\n%s", host, err, snippet)
			}
		})
	}
}

func TestInitNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	home := t.TempDir()
	out, err := toolsearchAt(t, dir, home, "init", "sub")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	sub := filepath.Join(dir, "sub")
	if out, err := toolsearchAt(t, sub, home, "skills", "validate"); err != nil {
		t.Errorf("the example skill does not validate: %v\n%s", err, out)
	}
	os.WriteFile(filepath.Join(sub, ".mcp.json"), []byte(`{"mcpServers": {"mine": {"command": "x"}}}`), 0o644)
	os.WriteFile(filepath.Join(sub, DefaultConfigFile), []byte("logLevel: debug\n"), 0o644)
	out, err = toolsearchAt(t, dir, home, "init", "sub")
	if err != nil || strings.Count(out, "kept   ") != 3 || strings.Contains(out, "wrote") {
		t.Errorf("second init: %v\n%s", err, out)
	}
	// An import that would have to replace .mcp.json is refused, and
	// nothing is written.
	os.Remove(filepath.Join(sub, DefaultConfigFile))
	desktop := filepath.Join(home, ".config", "Claude", "claude_desktop_config.json")
	os.MkdirAll(filepath.Dir(desktop), 0o755)
	os.WriteFile(desktop, []byte(`{"mcpServers": {"fs": {"command": "npx"}}}`), 0o644)
	out, err = toolsearchAt(t, dir, home, "init", "sub", "--from", "claude-desktop")
	if err == nil || !strings.Contains(out, "never overwrites a file") || !strings.Contains(out, "(fs)") {
		t.Errorf("init over an existing .mcp.json: %v\n%s", err, out)
	}
	if data, _ := os.ReadFile(filepath.Join(sub, ".mcp.json")); !strings.Contains(string(data), "mine") {
		t.Errorf(".mcp.json was replaced: %s", data)
	}
	if _, err := os.Stat(filepath.Join(sub, DefaultConfigFile)); err == nil {
		t.Error("a refused init wrote toolsearch.yaml")
	}
}

func TestClientConfigSnippets(t *testing.T) {
	dir := t.TempDir()
	home := t.TempDir()
	if out, err := toolsearchAt(t, dir, home, "init", "."); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, host := range hosts.Names() {
		cmd := toolsearch(t.Context(), "client-config", host, "--dir", dir)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v\n%s", host, err, stderr.String())
		}
		text := string(out)
		// --config alone names the configuration: its paths are taken
		// from its folder, and .mcp.json and skills/ beside it are the
		// defaults.
		for _, want := range []string{"serve", "--config", filepath.Join(dir, DefaultConfigFile)} {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %s:\n%s", host, want, text)
			}
		}
		if strings.HasPrefix(text, "{") && !json.Valid(out) {
			t.Errorf("%s: not JSON:\n%s", host, text)
		}
		if !strings.Contains(stderr.String(), "Add this to") && !strings.Contains(stderr.String(), "Run this") {
			t.Errorf("%s does not say where the snippet goes: %s", host, stderr.String())
		}
	}
}

// TestInitFromClaudeLocalScope: Claude Code's default scope is local,
// filed in ~/.claude.json under the project's root. init of a folder of
// toolsearch's own, inside the project or elsewhere, imported 0 servers
// and said nothing: the project is where init runs, found as Claude Code
// files it; in a folder with none, init says where it looked, and
// --project imports another folder's.
func TestInitFromClaudeLocalScope(t *testing.T) {
	home, project := hostSample(t, "claude-code")
	// The sample's user scope aside: only the local scope is of interest.
	data, _ := os.ReadFile(filepath.Join(home, ".claude.json"))
	var doc map[string]any
	json.Unmarshal(data, &doc)
	delete(doc, "mcpServers")
	data, _ = json.Marshal(doc)
	os.WriteFile(filepath.Join(home, ".claude.json"), data, 0o600)
	os.MkdirAll(filepath.Join(project, ".git"), 0o755)
	os.MkdirAll(filepath.Join(project, "sub"), 0o755)

	local := "(2 servers from Claude Code, which it gives " + project + " alone: db, notes)"
	out, err := toolsearchAt(t, project, home, "init", "toolsearch", "--from", "claude-code")
	if err != nil || !strings.Contains(out, local) {
		t.Errorf("init in a folder of the project: %v\n%s", err, out)
	}
	// As the README has it: a folder of toolsearch's own, from the project.
	own := filepath.Join(t.TempDir(), "toolsearch")
	out, err = toolsearchAt(t, filepath.Join(project, "sub"), home, "init", own, "--from", "claude-code")
	if err != nil || !strings.Contains(out, local) {
		t.Errorf("init of a folder elsewhere, from the project: %v\n%s", err, out)
	}

	elsewhere := t.TempDir()
	out, err = toolsearchAt(t, elsewhere, home, "init", "--from", "claude-code")
	for _, want := range []string{
		"no local-scope servers for " + elsewhere, `projects["`, "it has some for /somewhere/else (elsewhere); " + project + " (db, notes): give that folder with --project",
		"no Claude Code servers found in " + filepath.Join(home, ".claude.json") + " for the project " + elsewhere,
	} {
		if err != nil || !strings.Contains(out, want) {
			t.Errorf("init with no servers: %v, want %q in:\n%s", err, want, out)
		}
	}
	other := t.TempDir()
	out, err = toolsearchAt(t, other, home, "init", ".", "--from", "claude-code", "--project", project)
	if err != nil || !strings.Contains(out, local) {
		t.Errorf("init --project: %v\n%s", err, out)
	}
}
