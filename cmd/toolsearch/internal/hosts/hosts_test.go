package hosts

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/loader/upstream"
)

var update = flag.Bool("update", false, "rewrite the want.json golden files")

// sampleTree copies testdata/HOST (home/ and project/, laid out as the host
// documents) into a fresh folder, with {{HOME}} and {{PROJECT}} filled in,
// and returns the home and project folders. The init command's tests lay
// out the same trees (hostSample in cmd/toolsearch).
func sampleTree(t testing.TB, testdata, host string) (home, project string) {
	t.Helper()
	root := t.TempDir()
	home, project = filepath.Join(root, "home"), filepath.Join(root, "project")
	for _, d := range []string{home, project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	src := filepath.Join(testdata, host)
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
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
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return home, project
}

// TestImport reads each host's sample configuration, laid out where the host
// documents it, and compares what is imported with testdata/HOST/want.json.
func TestImport(t *testing.T) {
	for _, host := range Names() {
		t.Run(host, func(t *testing.T) {
			home, project := sampleTree(t, "testdata", host)
			res, err := Import(host, Options{Home: home, Project: project, GOOS: "linux", Getenv: func(string) string { return "" }})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Servers) == 0 {
				t.Fatal("nothing imported")
			}
			got := render(res)
			got = strings.ReplaceAll(got, project, "{{PROJECT}}")
			got = strings.ReplaceAll(got, home, "{{HOME}}")
			golden := filepath.Join("testdata", host, "want.json")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -update writes it)", err)
			}
			if got != string(want) {
				t.Errorf("import differs from %s (go test -update rewrites it):\n%s", golden, got)
			}
			// What is imported is a .mcp.json toolsearch takes as it is.
			file := filepath.Join(t.TempDir(), ".mcp.json")
			if err := os.WriteFile(file, MCPConfig(res.Servers), 0o600); err != nil {
				t.Fatal(err)
			}
			servers, probs, err := upstream.LoadConfig(file)
			if err != nil || probs.Worst() >= loader.SeverityError || len(servers) != len(res.Servers) {
				t.Errorf("toolsearch reads %d of %d servers: %v %v", len(servers), len(res.Servers), err, probs)
			}
		})
	}
}

// render shows an import result as JSON, for the golden files.
func render(res *Result) string {
	type settings struct {
		Disabled bool              `json:"disabled,omitempty"`
		Timeout  string            `json:"timeout,omitempty"`
		Policy   map[string]string `json:"policy,omitempty"`
	}
	type server struct {
		Entry    Entry     `json:"entry"`
		Settings *settings `json:"settings,omitempty"`
		From     string    `json:"from"`
	}
	out := struct {
		Servers map[string]server `json:"servers"`
		Read    []string          `json:"read"`
		Notes   []string          `json:"notes,omitempty"`
	}{Servers: map[string]server{}, Read: res.Read, Notes: res.Notes}
	for _, s := range res.Servers {
		sv := server{Entry: s.Entry, From: s.From}
		if set := s.Settings; !set.IsZero() {
			sv.Settings = &settings{Disabled: set.Disabled, Policy: set.Policy}
			if set.Timeout > 0 {
				sv.Settings.Timeout = set.Timeout.String()
			}
		}
		out.Servers[s.Name] = sv
	}
	data, _ := json.MarshalIndent(out, "", "  ")
	return string(data) + "\n"
}

func TestImportErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		return p
	}
	tests := []struct {
		host, file, want string
	}{
		{"cursor", write("broken.json", `{"mcpServers": {`), "broken.json: not valid JSON"},
		{"codex", write("broken.toml", "[mcp_servers.x\ncommand = 1"), "broken.toml: not valid TOML"},
		{"vscode", write("servers.json", `{"servers": []}`), "servers: want an object of servers"},
		{"nope", "", `unknown host "nope"`},
		{"cursor", filepath.Join(dir, "missing.json"), "no such file"},
	}
	for _, tt := range tests {
		_, err := Import(tt.host, Options{File: tt.file})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %s: error %v, want %q", tt.host, tt.file, err, tt.want)
		}
	}
	// A bad entry is left out with a note; the others come in.
	res, err := Import("claude-desktop", Options{File: write("one-bad.json", `{"mcpServers": {"good": {"command": "x"}, "bad": {"command": ["x"]}, "empty": {}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Servers) != 1 || res.Servers[0].Name != "good" || len(res.Notes) != 2 ||
		!strings.Contains(res.Notes[0], "bad: not imported: command: want a string, got a JSON array") ||
		!strings.Contains(res.Notes[1], "empty: not imported: it has no command") {
		t.Errorf("servers %+v, notes %q", res.Servers, res.Notes)
	}
}

func TestStripJSONC(t *testing.T) {
	in := "{\n  // a comment with \"quotes\"\n  \"a\": \"http://x//y\", /* block\n comment */ \"b\": [1, 2,],\n  \"c\": \"a,}\", // trailing\n}\n"
	var v map[string]any
	if err := json.Unmarshal(stripJSONC([]byte(in)), &v); err != nil {
		t.Fatalf("%v:\n%s", err, stripJSONC([]byte(in)))
	}
	if v["a"] != "http://x//y" || v["c"] != "a,}" || len(v["b"].([]any)) != 2 {
		t.Errorf("got %v", v)
	}
}

func TestLocations(t *testing.T) {
	env := map[string]string{"APPDATA": `C:\Users\a\AppData\Roaming`, "CODEX_HOME": "/opt/codex"}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		host, goos, want string
	}{
		{"claude-desktop", "darwin", "/h/Library/Application Support/Claude/claude_desktop_config.json"},
		{"claude-desktop", "windows", `C:\Users\a\AppData\Roaming/Claude/claude_desktop_config.json`},
		{"claude-desktop", "linux", "/h/.config/Claude/claude_desktop_config.json"},
		{"vscode", "darwin", "/p/.vscode/mcp.json /h/Library/Application Support/Code/User/mcp.json"},
		{"codex", "linux", "/p/.codex/config.toml /opt/codex/config.toml"},
		{"windsurf", "linux", "/h/.codeium/windsurf/mcp_config.json"},
		{"gemini", "linux", "/p/.gemini/settings.json /h/.gemini/settings.json"},
		{"cursor", "linux", "/p/.cursor/mcp.json /h/.cursor/mcp.json"},
		{"claude-code", "linux", "/h/.claude.json /h/.claude.json"},
	}
	for _, tt := range tests {
		h, _ := Lookup(tt.host)
		var got []string
		for _, l := range h.Locations(Options{Home: "/h", Project: "/p", GOOS: tt.goos, Getenv: getenv}) {
			got = append(got, filepath.ToSlash(l.Path))
		}
		if strings.Join(got, " ") != filepath.ToSlash(tt.want) {
			t.Errorf("%s on %s: %q, want %q", tt.host, tt.goos, got, tt.want)
		}
	}
}

func TestSnippets(t *testing.T) {
	cmd, args := "/opt/tool search/toolsearch", []string{"serve", "--config", "/home/a/.config/toolsearch/toolsearch.yaml"}
	want := map[string]string{
		"claude-code":    "claude mcp add toolsearch -- '/opt/tool search/toolsearch' serve --config /home/a/.config/toolsearch/toolsearch.yaml\n",
		"claude-desktop": `"mcpServers": {`,
		"cursor":         `"mcpServers": {`,
		"windsurf":       `"mcpServers": {`,
		"gemini":         `"mcpServers": {`,
		"vscode":         `"servers": {`,
		"codex":          "[mcp_servers.toolsearch]\ncommand = \"/opt/tool search/toolsearch\"\nargs = [\"serve\", \"--config\", \"/home/a/.config/toolsearch/toolsearch.yaml\"]\n",
	}
	for _, host := range Names() {
		text, err := Snippet(host, cmd, args)
		if err != nil || !strings.Contains(text, want[host]) {
			t.Errorf("%s: %v\n%s", host, err, text)
		}
		if strings.HasPrefix(text, "{") {
			var v map[string]map[string]map[string]any
			if err := json.Unmarshal([]byte(text), &v); err != nil {
				t.Errorf("%s: not JSON: %v", host, err)
			}
			for _, servers := range v {
				if servers["toolsearch"]["command"] != cmd {
					t.Errorf("%s: %s", host, text)
				}
			}
		}
	}
}

func TestShellJoin(t *testing.T) {
	tests := []struct {
		words []string
		want  string
	}{
		{[]string{"toolsearch", "auth", "login", "srv"}, "toolsearch auth login srv"},
		{[]string{"--config", "/a/b-c_d.e/x=y:z@h%2+1,2"}, "--config /a/b-c_d.e/x=y:z@h%2+1,2"},
		{[]string{"cd", "/tmp/my project"}, "cd '/tmp/my project'"},
		{[]string{"it's"}, `'it'\''s'`},
		{[]string{""}, "''"},
		{[]string{"$HOME", "a;b", "`x`", "ü"}, `'$HOME' 'a;b' '` + "`x`" + `' 'ü'`},
	}
	for _, tt := range tests {
		if got := ShellJoin(tt.words...); got != tt.want {
			t.Errorf("ShellJoin(%q) = %s, want %s", tt.words, got, tt.want)
		}
	}
}
