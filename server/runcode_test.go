package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/server/codemode"
)

// codeCatalog is annotatedCatalog with a tool under each refusal a proxy
// makes: visible_only, hidden, and held (new, never approved), and a tool
// whose schema requires an argument.
func codeCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	c := annotatedCatalog(t)
	src, _ := c.Snapshot().Source("srv")
	tool := func(name, schema string) *catalog.Entry {
		return catalog.NewToolEntry("srv", "srv__"+name, &mcp.Tool{Name: name, Description: "The " + name + " tool.", InputSchema: json.RawMessage(schema), Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}})
	}
	visible, hidden, held := tool("peek", `{"type":"object"}`), tool("secret", `{"type":"object"}`), tool("fresh", `{"type":"object"}`)
	visible.Policy, hidden.Policy = catalog.PolicyVisibleOnly, catalog.PolicyHidden
	held.Hold(&catalog.Quarantine{Reason: "new", Summary: "a new tool", Review: "toolsearch review srv__fresh"})
	needs := tool("get_doc", `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`)
	entries := append(src.Entries, visible, hidden, held, needs)
	c.Put(&catalog.Source{Name: "srv", Kind: catalog.SourceServer, State: catalog.StateActive, Entries: entries})
	return c
}

// The code-mode tools are listed only when code mode is on, each beside
// the proxy its scripts call through.
func TestCodeToolsListed(t *testing.T) {
	for _, on := range []bool{false, true} {
		opts := Options{Upstreams: &fakeUpstreams{}}
		if on {
			opts.CodeMode = &codemode.Limits{}
		}
		s, err := New(codeCatalog(t), opts)
		if err != nil {
			t.Fatal(err)
		}
		cs, _ := connectClient(t, s, "")
		got := toolNames(t, cs)
		has := strings.Contains(got, RunCodeRead) && strings.Contains(got, RunCode+",")
		if has != on {
			t.Errorf("code mode %v: tools/list = %s", on, got)
		}
		s.Close()
	}
}

// A script reaches a tool exactly as the proxy of its code tool would:
// the same refusals, word for word, and the same argument check.
func TestCodeCallsThroughProxies(t *testing.T) {
	up := &fakeUpstreams{}
	s, err := New(codeCatalog(t), Options{Upstreams: up, CodeMode: &codemode.Limits{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := t.Context()
	tests := []struct {
		code, tool string
		args       string
		called     bool
	}{
		{RunCodeRead, "srv__get_issue", `{}`, true},
		{RunCodeRead, "srv__delete_repo", `{}`, false}, // destructive: not through run_code_read
		{RunCodeRead, "srv__create_issue", `{}`, false},
		{RunCode, "srv__delete_repo", `{}`, true},
		{RunCode, "srv__peek", `{}`, false},                // visible_only
		{RunCode, "srv__secret", `{}`, false},              // hidden
		{RunCode, "srv__fresh", `{}`, false},               // held
		{RunCodeRead, "srv__get_doc", `{}`, false},         // a required argument missing
		{RunCodeRead, "srv__get_doc", `{"id": "a"}`, true}, // and given
	}
	for _, tt := range tests {
		p := codeTools[tt.code]
		want := s.callThrough(ctx, p, CallArgs{Name: tt.tool, Arguments: json.RawMessage(tt.args)})
		wantText := want.Content[0].(*mcp.TextContent).Text
		script := "r = call(" + jsonQuote(tt.tool) + ", " + tt.args + ", errors=True)\nprint(r.ok)\nprint(r.error if not r.ok else r.value)"
		res := s.RunCode(ctx, tt.code, CodeArgs{Script: script})
		text := res.Content[0].(*mcp.TextContent).Text
		if want.IsError == tt.called {
			t.Errorf("%s %s through the proxy: error %v: %s", tt.code, tt.tool, want.IsError, wantText)
		}
		if !tt.called && !strings.HasPrefix(text, "False\n") {
			t.Errorf("%s %s was not refused: %s", tt.code, tt.tool, text)
		}
		if !tt.called && !strings.Contains(text, firstLine(wantText)) {
			t.Errorf("%s %s: the script's refusal differs from the proxy's:\n%s\nwant %s", tt.code, tt.tool, text, wantText)
		}
		if tt.called && text != "True\n{\"ok\":true}" {
			t.Errorf("%s %s: %q", tt.code, tt.tool, text)
		}
	}
	// Without errors=True, the refusal stops the script.
	res := s.RunCode(ctx, RunCodeRead, CodeArgs{Script: `call("srv__delete_repo", {})` + "\nprint('never')"})
	if text := res.Content[0].(*mcp.TextContent).Text; !res.IsError || !strings.Contains(text, "call_tool_read calls only read-only tools") || strings.Contains(text, "never") {
		t.Errorf("a destructive call through run_code_read: %s", text)
	}
	// Each tool called went upstream twice (the proxy's call, then the
	// script's); nothing refused went at all.
	want := `srv/get_issue {},srv/get_issue {},srv/delete_repo {},srv/delete_repo {},srv/get_doc {"id": "a"},srv/get_doc {"id":"a"}`
	if got := strings.Join(up.calls, ","); got != want {
		t.Errorf("upstream calls: %s\nwant %s", got, want)
	}
}

// A script can search, and runs end to end through an MCP client; its
// result is its text alone (a host that gives the model structured
// content instead would give a wrapper with the output escaped in it),
// and says what stopped it.
func TestCodeOverMCP(t *testing.T) {
	s, err := New(codeCatalog(t), Options{Upstreams: &fakeUpstreams{}, CodeMode: &codemode.Limits{MaxSteps: 10_000}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cs, _ := connectClient(t, s, "")
	text, _ := callText(t, cs, RunCodeRead, map[string]any{"script": `print([f["name"] for f in search("issue") if "get" in f["name"]])`})
	if text != "[\"srv__get_issue\"]" {
		t.Errorf("search: %q", text)
	}
	text, res := callText(t, cs, RunCodeRead, map[string]any{"script": "srv__get_issue()"})
	if text != `{"ok":true}` || res.IsError || res.StructuredContent != nil {
		t.Errorf("a single call as a script: %q, structured %v", text, res.StructuredContent)
	}
	text, res = callText(t, cs, RunCodeRead, map[string]any{"script": "print('so far')\nwhile True:\n  pass"})
	if !res.IsError || !strings.HasPrefix(text, "so far\n") || !strings.Contains(text, "codeMode.maxSteps") || res.StructuredContent != nil {
		t.Errorf("a loop: %q %v", text, res.StructuredContent)
	}
	text, _ = callText(t, cs, RunCode, map[string]any{"script": ""})
	if !strings.Contains(text, "script is required") {
		t.Errorf("empty script: %q", text)
	}
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// exampleHost serves the tools of the code-mode tools' description.
type exampleHost struct{}

func (exampleHost) Call(_ context.Context, name string, args json.RawMessage) codemode.Reply {
	switch name {
	case "docs__list":
		return codemode.Reply{Structured: json.RawMessage(`{"projects":[{"name":"atlas","id":1},{"name":"ledger","id":2}]}`)}
	case "docs__read":
		return codemode.Reply{Structured: json.RawMessage(`{"owner":"ann","args":` + string(args) + `}`)}
	}
	return codemode.Reply{Error: "no tool named " + name}
}

func (exampleHost) Search(context.Context, string) ([]codemode.Found, error) { return nil, nil }

// TestCodeDescriptionExampleRuns: the example every session reads in the
// code-mode tools' description is a script that runs.
func TestCodeDescriptionExampleRuns(t *testing.T) {
	_, example, ok := strings.Cut(codeTool(RunCodeRead).Description, "E.g.\n")
	if !ok {
		t.Fatalf("no example in %q", codeTool(RunCodeRead).Description)
	}
	r := codemode.Run(t.Context(), example, exampleHost{}, codemode.Limits{})
	if r.Error != "" || r.Text() != "atlas ann\nledger ann" {
		t.Errorf("the description's example: %+v", r)
	}
}
