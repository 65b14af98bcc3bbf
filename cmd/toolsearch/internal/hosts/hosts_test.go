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

	"github.com/toolsearch/toolsearch/loader/problem"
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
			// What is imported is a .mcp.json per reach that toolsearch
			// takes as it is.
			every, proj := res.Split()
			for _, part := range [][]Server{every, proj} {
				file := filepath.Join(t.TempDir(), ".mcp.json")
				if err := os.WriteFile(file, MCPConfig(part), 0o600); err != nil {
					t.Fatal(err)
				}
				servers, probs, err := upstream.LoadConfig(file)
				if err != nil || probs.Worst() >= problem.SeverityError || len(servers) != len(part) {
					t.Errorf("toolsearch reads %d of %d servers: %v %v", len(servers), len(part), err, probs)
				}
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
		Scope    string    `json:"scope"`
	}
	// The servers by reach, as init writes them: the user's configuration
	// (every project), the project's (that project only).
	out := struct {
		EveryProject map[string]server `json:"everyProject"`
		Project      map[string]server `json:"project,omitempty"`
		Read         []string          `json:"read"`
		Notes        []string          `json:"notes,omitempty"`
	}{EveryProject: map[string]server{}, Project: map[string]server{}, Read: res.Read, Notes: res.Notes}
	for _, s := range res.Servers {
		sv := server{Entry: s.Entry, From: s.From, Scope: s.Scope}
		if set := s.Settings; !set.IsZero() {
			sv.Settings = &settings{Disabled: set.Disabled, Policy: set.Policy}
			if set.Timeout > 0 {
				sv.Settings.Timeout = set.Timeout.String()
			}
		}
		if EveryProject(s.Scope) {
			out.EveryProject[s.Name] = sv
		} else {
			out.Project[s.Name] = sv
		}
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
		"claude-code":    "claude mcp add-json toolsearch '{\"type\":\"stdio\",\"command\":\"/opt/tool search/toolsearch\",\"args\":[\"serve\",\"--config\",\"/home/a/.config/toolsearch/toolsearch.yaml\"],\"alwaysLoad\":true}'\n",
		"claude-desktop": `"mcpServers": {`,
		"cursor":         `"mcpServers": {`,
		"windsurf":       `"mcpServers": {`,
		"gemini":         `"mcpServers": {`,
		"vscode":         `"servers": {`,
		"codex":          "[mcp_servers.toolsearch]\ncommand = \"/opt/tool search/toolsearch\"\nargs = [\"serve\", \"--config\", \"/home/a/.config/toolsearch/toolsearch.yaml\"]\nrequired = true\n",
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

// TestRegisterAndRemove: each host's registration for every project goes
// in the user's file (Claude Code: --scope user), a project's in that
// project's file (--scope local); hosts without per-project servers say
// so. Each imported server's removal names its own scope's file or
// command, never another's.
func TestRegisterAndRemove(t *testing.T) {
	o := Options{Home: "/h", GOOS: "linux", Getenv: func(string) string { return "" }}
	tests := []struct {
		host, project, wantText, wantWhere string
	}{
		{"claude-code", "", `claude mcp add-json --scope user toolsearch '{"type":"stdio","command":"/bin/ts","args":["serve"],"alwaysLoad":true}'`, "every project"},
		{"claude-code", "/p", `claude mcp add-json --scope local toolsearch '{"type":"stdio","command":"/bin/ts","args":["serve"],"alwaysLoad":true}'`, "Run this in /p"},
		{"codex", "", "[mcp_servers.toolsearch]", "/h/.codex/config.toml (every project)"},
		{"codex", "/p", "[mcp_servers.toolsearch]", "/p/.codex/config.toml (that project only"},
		{"gemini", "", `"mcpServers"`, "/h/.gemini/settings.json (every project)"},
		{"gemini", "/p", `"mcpServers"`, "/p/.gemini/settings.json (that project only"},
		{"vscode", "", `"servers"`, "/h/.config/Code/User/mcp.json (every project)"},
		{"vscode", "/p", `"servers"`, "/p/.vscode/mcp.json (that project only"},
		{"cursor", "/p", `"mcpServers"`, "/p/.cursor/mcp.json"},
		{"windsurf", "/p", "", "Windsurf has no per-project servers"},
		{"claude-desktop", "/p", "", "Claude Desktop has no per-project servers"},
	}
	for _, tt := range tests {
		reg, err := Register(tt.host, tt.project, "/bin/ts", []string{"serve"}, o)
		got := reg.Where
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(reg.Text, tt.wantText) || !strings.Contains(got, tt.wantWhere) {
			t.Errorf("%s for %q: %q, %q (%v); want %q, %q", tt.host, tt.project, reg.Text, reg.Where, err, tt.wantText, tt.wantWhere)
		}
		// Codex 0.171 reads a project's .codex/config.toml only in a
		// project it trusts: codex exec in an untrusted one served the
		// user's registration alone, without the project's servers.
		trust := strings.Contains(strings.Join(reg.Notes, "\n"), `[projects."/p"] with trust_level = "trusted"`)
		if want := tt.host == "codex" && tt.project != ""; trust != want {
			t.Errorf("%s for %q: notes %q; a note on trusting the project: %v, want %v", tt.host, tt.project, reg.Notes, trust, want)
		}
	}
	removes := []struct {
		host string
		s    Server
		want string
	}{
		{"claude-code", Server{Name: "gh", Scope: "user", From: "/h/.claude.json"}, "claude mcp remove --scope user gh"},
		{"claude-code", Server{Name: "db", Scope: "local", From: "/h/.claude.json"}, "claude mcp remove --scope local db   # in /p"},
		{"codex", Server{Name: "db", Scope: "project", From: "/p/.codex/config.toml"}, "delete the [mcp_servers.db] table (and its [mcp_servers.db.*] tables) from /p/.codex/config.toml"},
		{"gemini", Server{Name: "gh", Scope: "user", From: "/h/.gemini/settings.json"}, "delete mcpServers.gh from /h/.gemini/settings.json"},
		{"vscode", Server{Name: "gh", Scope: "project", From: "/p/.vscode/mcp.json"}, "delete servers.gh from /p/.vscode/mcp.json"},
	}
	for _, tt := range removes {
		if got := RemoveHint(tt.host, tt.s, "/p"); got != tt.want {
			t.Errorf("%s %s: %q, want %q", tt.host, tt.s.Name, got, tt.want)
		}
	}
}
