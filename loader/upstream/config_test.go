package upstream

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

func TestLoadConfig(t *testing.T) {
	t.Setenv("TS_TOKEN", "s3cret")
	t.Setenv("TS_EMPTY", "")
	tests := []struct {
		name     string
		json     string
		want     []ServerConfig // Problems are checked by wantProbs
		wantProb []string       // substrings of the problems, in order
	}{
		{
			name: "stdio with every string expanded",
			json: `{"mcpServers": {"gh": {
				"command": "${TS_BIN:-npx}", "args": ["-y", "pkg@${TS_VER:-1.0}", "--token=${TS_TOKEN}"],
				"env": {"TOKEN": "${TS_TOKEN}", "EMPTY": "${TS_EMPTY:-default}"},
				"cwd": "${TS_DIR:-sub}", "alwaysLoad": true, "timeout": 5000}}}`,
			want: []ServerConfig{{
				Name: "gh", Type: TypeStdio, Command: "npx", Args: []string{"-y", "pkg@1.0", "--token=s3cret"},
				Env: map[string]string{"TOKEN": "s3cret", "EMPTY": ""}, Cwd: "sub", // in the file's folder
			}},
		},
		{
			name: "http, streamable-http alias and sse",
			json: `{"mcpServers": {
				"a": {"type": "http", "url": "https://${TS_HOST:-example.com}/mcp", "headers": {"Authorization": "Bearer ${TS_TOKEN}"}},
				"b": {"type": "streamable-http", "url": "http://localhost:8080/mcp"},
				"c": {"type": "sse", "url": "http://localhost:8080/sse", "oauth": {"clientId": "x"}},
				"d": {"url": "http://localhost:9090/mcp"}}}`,
			want: []ServerConfig{
				{Name: "a", Type: TypeHTTP, URL: "https://example.com/mcp", Headers: map[string]string{"Authorization": "Bearer s3cret"}},
				{Name: "b", Type: TypeHTTP, URL: "http://localhost:8080/mcp"},
				{Name: "c", Type: TypeSSE, URL: "http://localhost:8080/sse"},
				{Name: "d", Type: TypeHTTP, URL: "http://localhost:9090/mcp"},
			},
		},
		{
			name:     "unset variable warns and expands to nothing",
			json:     `{"mcpServers": {"w": {"command": "w", "env": {"KEY": "x${TS_UNSET_VAR}y"}}}}`,
			want:     []ServerConfig{{Name: "w", Type: TypeStdio, Command: "w", Env: map[string]string{"KEY": "xy"}}},
			wantProb: []string{"warning: mcpServers.w.env.KEY: ${TS_UNSET_VAR} is not set"},
		},
		{
			name: "bad entries are reported and the rest load",
			json: `{"mcpServers": {
				"good": {"command": "ok"},
				"nocmd": {"args": ["x"]},
				"nourl": {"type": "http"},
				"ws": {"type": "ws", "url": "ws://x"},
				"badargs": {"command": "x", "args": "--flag"},
				"badenv": {"command": "x", "env": {"A": 1}},
				"badurl": {"type": "sse", "url": "localhost:80"},
				"notobj": "npx server"}}`,
			want: []ServerConfig{{Name: "good", Type: TypeStdio, Command: "ok"}},
			wantProb: []string{
				"error: mcpServers.badargs.args: want an array of strings, got string",
				"error: mcpServers.badenv.env.A: want a string, got number",
				`error: mcpServers.badurl.url: "localhost:80" is not an http or https URL`,
				"error: mcpServers.nocmd.command: missing",
				"error: mcpServers.notobj: want an object, got string",
				"error: mcpServers.nourl.url: missing",
				`error: mcpServers.ws.type: unknown transport "ws": want stdio, http or sse`,
			},
		},
		{name: "no servers", json: `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, ".mcp.json")
			if err := os.WriteFile(path, []byte(tt.json), 0o600); err != nil {
				t.Fatal(err)
			}
			for i, w := range tt.want {
				if w.Cwd != "" {
					tt.want[i].Cwd = filepath.Join(dir, w.Cwd)
				}
			}
			got, probs, err := LoadConfig(path)
			if err != nil {
				t.Fatal(err)
			}
			var gotProbs []string
			for _, p := range probs {
				if p.File != path {
					t.Errorf("problem %v: file is %q, want %q", p, p.File, path)
				}
				if p.Line == 0 || p.Column == 0 {
					t.Errorf("problem %v: no line and column", p)
				}
				gotProbs = append(gotProbs, strings.TrimPrefix(p.String(), fmt.Sprintf("%s:%d:%d: ", path, p.Line, p.Column)))
			}
			for i := range got {
				got[i].Problems = nil
				got[i].Vars = nil // TestConfigVars
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("servers:\n got %+v\nwant %+v", got, tt.want)
			}
			if len(gotProbs) != len(tt.wantProb) {
				t.Fatalf("problems:\n got %q\nwant %q", gotProbs, tt.wantProb)
			}
			for i := range gotProbs {
				if !strings.HasPrefix(gotProbs[i], tt.wantProb[i]) {
					t.Errorf("problem %d: got %q, want it to start with %q", i, gotProbs[i], tt.wantProb[i])
				}
			}
		})
	}
}

func TestLoadConfigKeepsWarningsWithTheServer(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".mcp.json")
	os.WriteFile(path, []byte(`{"mcpServers": {"w": {"command": "${TS_UNSET_CMD:-w}", "args": ["${TS_UNSET_ARG}"]}}}`), 0o600)
	got, probs, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got[0].Problems) != 1 || got[0].Problems[0] != probs[0] || got[0].Problems[0].Field != "mcpServers.w.args[0]" {
		t.Errorf("got servers %+v and problems %v; want the args[0] warning on the server too", got, probs)
	}
}

func TestLoadConfigErrors(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"truncated": `{"mcpServers": {"a": {"command": "x"}`,
		"array":     `[]`,
		"servers":   `{"mcpServers": ["a"]}`,
	} {
		path := filepath.Join(dir, name+".json")
		os.WriteFile(path, []byte(content), 0o600)
		if _, _, err := LoadConfig(path); err == nil || !strings.HasPrefix(err.Error(), path+":1:") {
			t.Errorf("%s: got error %v, want one naming the file", name, err)
		}
	}
	if _, _, err := LoadConfig(filepath.Join(dir, "missing.json")); !os.IsNotExist(err) {
		t.Errorf("missing file: got %v", err)
	}
}

func TestExpandVars(t *testing.T) {
	t.Setenv("TS_A", "a")
	t.Setenv("TS_EMPTY", "")
	tests := []struct {
		in, want string
		missing  []string
	}{
		{"plain", "plain", nil},
		{"${TS_A}", "a", nil},
		{"x${TS_A}y${TS_A}z", "xayaz", nil},
		{"${TS_NOPE:-d}", "d", nil},
		{"${TS_NOPE:-}", "", nil},
		{"${TS_NOPE:-a:-b}", "a:-b", nil},
		{"${TS_EMPTY:-d}", "", nil}, // set, even to "", wins (Claude Code)
		{"${TS_NOPE}", "", []string{"TS_NOPE"}},
		{"$TS_A ${TS_A", "$TS_A ${TS_A", nil},
	}
	for _, tt := range tests {
		got, _, missing := expandVars(tt.in)
		if got != tt.want || !reflect.DeepEqual(missing, tt.missing) {
			t.Errorf("expandVars(%q) = %q, %v; want %q, %v", tt.in, got, missing, tt.want, tt.missing)
		}
	}
}

func TestPolicyPrecedence(t *testing.T) {
	s := Settings{Policy: map[string]catalog.Policy{
		"*":              catalog.PolicyVisibleOnly,
		"get_*":          catalog.PolicyCallable,
		"get_secret*":    catalog.PolicyHidden,
		"get_secret_ok":  catalog.PolicyCallable,
		"?et_secret_*":   catalog.PolicyVisibleOnly, // same length as get_secret_* below
		"get_secret_*":   catalog.PolicyHidden,
		"delete_[a-z]*":  catalog.PolicyHidden,
		"delete_all_now": catalog.PolicyCallable,
	}}
	tests := []struct {
		tool string
		want catalog.Policy
	}{
		{"list", catalog.PolicyVisibleOnly},           // only "*"
		{"get_weather", catalog.PolicyCallable},       // "get_*" is longer than "*"
		{"get_secrets", catalog.PolicyHidden},         // "get_secret*"
		{"get_secret_key", catalog.PolicyVisibleOnly}, // tie on length: "?et_secret_*" sorts first
		{"get_secret_ok", catalog.PolicyCallable},     // the exact name beats longer globs
		{"delete_all_now", catalog.PolicyCallable},    // exact
		{"delete_x", catalog.PolicyHidden},
	}
	for _, tt := range tests {
		for range 20 { // map order must not matter
			if got := s.policy(tt.tool); got != tt.want {
				t.Fatalf("policy(%q) = %s, want %s", tt.tool, got, tt.want)
			}
		}
	}
	if got := (&Settings{}).policy("x"); got != catalog.PolicyCallable {
		t.Errorf("default policy = %s, want callable", got)
	}
	if (&Settings{AlwaysLoad: []string{"[bad"}}).alwaysLoad("[bad") {
		t.Error("a malformed glob matched")
	}
}

func TestConfigVars(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	os.WriteFile(path, []byte(`{"mcpServers": {"a": {"command": "${CMD:-x}", "args": ["${B}", "${A}${A}"], "env": {"K": "${C:-}"}},
	  "h": {"url": "https://h.example/${P}", "headers": {"Authorization": "Bearer ${TOKEN}"}}}}`), 0o600)
	servers, _, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, s := range servers {
		got[s.Name] = s.Vars
	}
	want := map[string][]string{"a": {"A", "B", "C", "CMD"}, "h": {"P", "TOKEN"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("vars %v, want %v", got, want)
	}
}

// A .mcp.json's relative paths are taken from its folder, whatever folder
// toolsearch runs in.
func TestLoadConfigPathsFromTheFile(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(t.TempDir()) // somewhere else
	abs := filepath.Join(t.TempDir(), "srv")
	tests := []struct {
		name, entry      string
		wantCmd, wantCwd string // "DIR/" stands for the file's folder
		wantArgs         []string
	}{
		{"relative cwd", `{"command": "srv", "cwd": "work"}`, "srv", "DIR/work", nil},
		{"dot cwd", `{"command": "srv", "cwd": "."}`, "srv", "DIR/", nil},
		{"parent cwd", `{"command": "srv", "cwd": "../up"}`, "srv", "DIR/../up", nil},
		{"absolute cwd", `{"command": "srv", "cwd": "` + filepath.ToSlash(abs) + `"}`, "srv", abs, nil},
		{"relative command", `{"command": "./bin/srv"}`, "DIR/bin/srv", "", nil},
		{"relative command in a cwd", `{"command": "./bin/srv", "cwd": "w"}`, "./bin/srv", "DIR/w", nil},
		{"bare command on PATH", `{"command": "npx", "args": ["-y", "pkg"]}`, "npx", "", []string{"-y", "pkg"}},
		{"arguments as written", `{"command": "node", "args": ["dist/index.js", "."]}`, "node", "", []string{"dist/index.js", "."}},
		{"absolute command", `{"command": "` + filepath.ToSlash(abs) + `"}`, abs, "", nil},
	}
	in := func(p string) string {
		if rest, ok := strings.CutPrefix(p, "DIR/"); ok {
			return filepath.Join(dir, rest)
		}
		return p
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, ".mcp.json")
			if err := os.WriteFile(path, []byte(`{"mcpServers": {"s": `+tt.entry+`}}`), 0o600); err != nil {
				t.Fatal(err)
			}
			got, probs, err := LoadConfig(path)
			if err != nil || len(got) != 1 || len(probs) != 0 {
				t.Fatalf("LoadConfig: %v, %d servers, problems %v", err, len(got), probs)
			}
			if want := in(tt.wantCmd); got[0].Command != want {
				t.Errorf("command = %q, want %q", got[0].Command, want)
			}
			if want := in(tt.wantCwd); got[0].Cwd != want {
				t.Errorf("cwd = %q, want %q", got[0].Cwd, want)
			}
			if !reflect.DeepEqual(got[0].Args, tt.wantArgs) {
				t.Errorf("args = %q, want %q", got[0].Args, tt.wantArgs)
			}
		})
	}
}
