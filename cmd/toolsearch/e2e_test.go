package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/toolsearch/toolsearch/internal/state/pgstate/pgtest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/snapshot"
	"github.com/toolsearch/toolsearch/internal/supervise"
)

var update = flag.Bool("update", false, "rewrite golden files")

// runAsToolsearch, set to 1 in its environment, makes the test binary run
// as toolsearch itself with the arguments it was given, as go-sdk's
// mcp/cmd_test.go does: the end-to-end tests start the real program
// without building it first.
const runAsToolsearch = "TOOLSEARCH_TEST_RUN_AS_MAIN"

func TestMain(m *testing.M) {
	// Before anything: the supervisor of a script or server that the
	// toolsearch under test starts is this binary too (see main).
	supervise.Init()
	if file := os.Getenv(fakeUpstreamEnv); file != "" {
		// Started by a benchmark as an upstream server.
		if err := serveFakeUpstream(file); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if os.Getenv(runAsToolsearch) == "1" {
		os.Unsetenv(runAsToolsearch) // not for the processes toolsearch starts
		main()                       // exits
	}
	if os.Getenv(browserEnv) != "" && len(os.Args) == 2 {
		os.Exit(runBrowser(os.Args[1])) // a toolsearch under test opens a page
	}
	flag.Parse()
	// No test reads the user's own configuration folder: a toolsearch
	// under test finds its configuration where the test puts it.
	cfgHome, err := os.MkdirTemp("", "toolsearch-config-home")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", cfgHome)
	code := m.Run()
	pgtest.Stop() // the PostgreSQL the state tests started, if any
	os.RemoveAll(cfgHome)
	os.Exit(code)
}

// toolsearch returns a command that runs toolsearch with args: this test
// binary, told by its environment to act as toolsearch. Callers add to
// its Env rather than replace it.
func toolsearch(ctx context.Context, args ...string) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Env = append(os.Environ(), runAsToolsearch+"=1")
	return cmd
}

// writeFile writes content at dir/rel, making folders as needed.
func writeFile(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// testSkills makes a skill root with two skills, one with a reference file
// and a binary asset.
func testSkills(t *testing.T) string {
	root := t.TempDir()
	writeFile(t, root, "pdf-forms/SKILL.md", "---\nname: pdf-forms\ndescription: Fill in and read PDF forms. Use when the user mentions a PDF form or fillable fields.\n---\n# PDF forms\n\nRead references/fields.md before filling a form.\n")
	writeFile(t, root, "pdf-forms/references/fields.md", "# Field types\n\nText, checkbox, radio.\n")
	writeFile(t, root, "pdf-forms/assets/blank.pdf", "%PDF-1.4\x00\x01binary")
	writeFile(t, root, "git-bisect/SKILL.md", "---\nname: git-bisect\ndescription: Find the commit that introduced a bug with git bisect. Use when a regression appeared between two versions.\n---\n# Bisect\n\nRun git bisect start.\n")
	return root
}

type session struct {
	*mcp.ClientSession
	listChanged chan struct{}
}

// connect starts the binary with args and connects an MCP client over stdio.
func connect(t *testing.T, args ...string) *session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	changed := make(chan struct{}, 16)
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	cmd := toolsearch(context.Background(), append([]string{"serve"}, args...)...)
	// Last known upstream catalogs go to a cache of the test's own.
	cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+t.TempDir())
	cmd.Stderr = &testLog{t: t}
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return &session{cs, changed}
}

// testLog forwards the server's stderr to the test log.
type testLog struct{ t *testing.T }

func (l *testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func (s *session) call(t *testing.T, name string, args any) (string, *mcp.CallToolResult) {
	t.Helper()
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	return text.String(), res
}

func TestServeToolsListGolden(t *testing.T) {
	s := connect(t, "--skills", testSkills(t))
	res, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.MarshalIndent(res.Tools, "", "  ")
	golden(t, "tools_list.golden.json", got)
}

func TestServeSearch(t *testing.T) {
	s := connect(t, "--skills", testSkills(t))
	tests := []struct {
		name      string
		args      map[string]any
		want      []string
		wantError bool
	}{
		{"skill body", map[string]any{"query": "fill a pdf form"}, []string{"## 1. pdf-forms (skill from skills)", "Read references/fields.md before filling a form.", "- references/fields.md (38 B)"}, false},
		{"select", map[string]any{"query": "select:git-bisect"}, []string{"## 1. git-bisect", "Run git bisect start."}, false},
		{"select unknown", map[string]any{"query": "select:git-bisect,nope"}, []string{"Unknown names: nope"}, false},
		{"names detail", map[string]any{"query": "bisect", "detail": "names"}, []string{"git-bisect (skill from skills)\nFind the commit that introduced a bug with git bisect."}, false},
		{"no match", map[string]any{"query": "kubernetes helm chart"}, []string{`Nothing matches "kubernetes helm chart" among`, "to start from"}, false},
		{"several needs", map[string]any{"queries": []string{"bisect", "weather"}}, []string{"for 2 queries", `# "bisect":`, `# "weather":`}, false},
		{"bad limit", map[string]any{"query": "x", "limit": 50}, []string{"limit must be between 1 and 20"}, true},
		{"unknown argument", map[string]any{"query": "x", "max_results": 3}, []string{`unknown argument "max_results"`}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, res := s.call(t, "tool_search", tt.args)
			if res.IsError != tt.wantError {
				t.Errorf("isError = %v, want %v: %s", res.IsError, tt.wantError, text)
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("result lacks %q:\n%s", w, text)
				}
			}
		})
	}
}

func TestServePaging(t *testing.T) {
	s := connect(t, "--skills", testSkills(t))
	var names []string
	args := map[string]any{"query": "", "limit": 1}
	for page := 0; page < 5; page++ {
		_, res := s.call(t, "tool_search", args)
		var out struct {
			Results []struct {
				Name string `json:"name"`
			} `json:"results"`
			NextCursor string `json:"nextCursor"`
		}
		data, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(data, &out)
		for _, r := range out.Results {
			names = append(names, r.Name)
		}
		if out.NextCursor == "" {
			break
		}
		args["cursor"] = out.NextCursor
	}
	if got := strings.Join(names, ","); got != "git-bisect,pdf-forms" {
		t.Errorf("pages = %s", got)
	}
}

func TestServeReadSkillFile(t *testing.T) {
	s := connect(t, "--skills", testSkills(t))
	tests := []struct {
		name      string
		args      map[string]any
		want      string
		wantError bool
	}{
		{"reference", map[string]any{"skill": "pdf-forms", "path": "references/fields.md"}, "Text, checkbox, radio.", false},
		{"offset", map[string]any{"skill": "pdf-forms", "path": "references/fields.md", "offset": 15}, "Text, checkbox, radio.", false},
		{"traversal", map[string]any{"skill": "pdf-forms", "path": "../git-bisect/SKILL.md"}, "climbs out of the skill folder", true},
		{"absolute", map[string]any{"skill": "pdf-forms", "path": "/etc/passwd"}, "is absolute", true},
		{"binary", map[string]any{"skill": "pdf-forms", "path": "assets/blank.pdf"}, "binary file", true},
		{"missing", map[string]any{"skill": "pdf-forms", "path": "nope.md"}, "has no file", true},
		{"unknown skill", map[string]any{"skill": "nope", "path": "SKILL.md"}, "no skill named", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, res := s.call(t, "read_skill_file", tt.args)
			if res.IsError != tt.wantError || !strings.Contains(text, tt.want) {
				t.Errorf("isError=%v text=%q, want isError=%v and %q", res.IsError, text, tt.wantError, tt.want)
			}
		})
	}
}

func TestServeUnknownTool(t *testing.T) {
	s := connect(t, "--skills", testSkills(t))
	text, res := s.call(t, "pdf-forms", map[string]any{})
	if !res.IsError || !strings.Contains(text, "is a skill, not a tool") {
		t.Errorf("calling a skill as a tool: %v %q", res.IsError, text)
	}
	text, res = s.call(t, "no_such_tool", map[string]any{})
	if !res.IsError || !strings.Contains(text, "unknown tool") {
		t.Errorf("unknown tool: %v %q", res.IsError, text)
	}
}

func TestServeSkillAddedWhileRunning(t *testing.T) {
	root := testSkills(t)
	s := connect(t, "--skills", root)
	writeFile(t, root, "csv-clean/SKILL.md", "---\nname: csv-clean\ndescription: Clean messy CSV files. Use when a CSV has bad rows.\n---\n# Clean\n")
	select {
	case <-s.listChanged:
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/tools/list_changed after adding a skill")
	}
	res, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if tool.Name == "tool_search" && !strings.Contains(tool.Description, "csv-clean — Clean messy CSV files.") {
			t.Errorf("listing lacks the new skill:\n%s", tool.Description)
		}
	}
	text, _ := s.call(t, "tool_search", map[string]any{"query": "clean csv"})
	if !strings.Contains(text, "## 1. csv-clean") {
		t.Errorf("search does not find the new skill:\n%s", text)
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if d := snapshot.Diff(string(bytes.TrimSpace(want))+"\n", string(bytes.TrimSpace(got))+"\n", path); d != "" {
		t.Errorf("%s differs from the golden file (run go test -update if the change is intended):\n%s", name, d)
	}
}

func TestServeRunSkillScript(t *testing.T) {
	root := testSkills(t)
	writeFile(t, root, "pdf-forms/scripts/fields.py", "import sys\nprint('fields:', ' | '.join(sys.argv[1:]))\nprint('noise', file=sys.stderr)\nsys.exit(3 if '--fail' in sys.argv else 0)\n")
	s := connect(t, "--skills", root)
	tests := []struct {
		name      string
		args      map[string]any
		want      string
		absent    string
		wantError bool
	}{
		{"stdout only", map[string]any{"skill": "pdf-forms", "script": "scripts/fields.py", "args": []string{"a b", "$(id)"}}, "fields: a b | $(id)\n", "noise", false},
		{"stderr on failure", map[string]any{"skill": "pdf-forms", "script": "scripts/fields.py", "args": []string{"--fail"}}, "noise", "", true},
		{"traversal", map[string]any{"skill": "pdf-forms", "script": "../git-bisect/SKILL.md"}, "is not allowed", "", true},
		{"unknown skill", map[string]any{"skill": "nope", "script": "x.py"}, "no skill named", "", true},
		{"missing script", map[string]any{"skill": "pdf-forms", "script": "scripts/field.py"}, "Skill pdf-forms's scripts are: scripts/fields.py", "", true},
		{"skill without scripts", map[string]any{"skill": "git-bisect", "script": "bisect.sh"}, "Skill git-bisect has no scripts", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, res := s.call(t, "run_skill_script", tt.args)
			if res.IsError != tt.wantError || !strings.Contains(text, tt.want) || (tt.absent != "" && strings.Contains(text, tt.absent)) {
				t.Errorf("isError=%v %q; want isError=%v, %q and not %q", res.IsError, text, tt.wantError, tt.want, tt.absent)
			}
		})
	}
	_, res := s.call(t, "run_skill_script", map[string]any{"skill": "pdf-forms", "script": "scripts/fields.py", "args": []string{"--fail"}})
	data, _ := json.Marshal(res.StructuredContent)
	if !strings.Contains(string(data), `"exit_code":3`) {
		t.Errorf("structured content = %s", data)
	}

	off := connect(t, "--skills", root, "--no-scripts")
	if text, res := off.call(t, "run_skill_script", map[string]any{"skill": "pdf-forms", "script": "scripts/fields.py"}); !res.IsError || !strings.Contains(text, "turned off") {
		t.Errorf("--no-scripts: %v %q", res.IsError, text)
	}
}
