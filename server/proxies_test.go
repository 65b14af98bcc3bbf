package server

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/skill"
)

// annotatedCatalog has one server with a tool of each class: read-only,
// writing without destroying, destructive, and one without annotations.
func annotatedCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	tool := func(name string, a *mcp.ToolAnnotations) *catalog.Entry {
		return catalog.NewToolEntry("srv", "srv__"+name, &mcp.Tool{Name: name, Description: "The " + name + " tool.", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: a})
	}
	c := catalog.New(ReservedNames...)
	c.Put(&catalog.Source{Name: "srv", Kind: catalog.SourceServer, State: catalog.StateActive, Entries: []*catalog.Entry{
		tool("get_issue", &mcp.ToolAnnotations{ReadOnlyHint: true}),
		tool("create_issue", &mcp.ToolAnnotations{DestructiveHint: ptr(false)}),
		tool("delete_repo", &mcp.ToolAnnotations{DestructiveHint: ptr(true)}),
		tool("legacy", nil),
		tool("titled", &mcp.ToolAnnotations{Title: "Annotated with a title only"}),
	}})
	return c
}

// Codex holds every call of a tool that is not read-only: through one
// call_tool, every upstream tool was refused under approval policy never.
// Each class has a proxy of its own that hosts can approve apart, and a
// proxy below a tool's class refuses it, naming the right one.
func TestCallProxiesByAnnotations(t *testing.T) {
	up := &fakeUpstreams{}
	s, err := New(annotatedCatalog(t), Options{Upstreams: up})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cs, _ := connectClient(t, s, "")
	if got := toolNames(t, cs); got != "call_tool,call_tool_read,call_tool_write,tool_search" {
		t.Fatalf("tools/list = %s", got)
	}
	// The proxies as hosts judge them.
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		a := tool.Annotations
		switch tool.Name {
		case CallToolRead:
			if !a.ReadOnlyHint {
				t.Errorf("call_tool_read is not read-only: %+v", a)
			}
		case CallToolWrite:
			if a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint {
				t.Errorf("call_tool_write: %+v", a)
			}
		case CallTool:
			if a.ReadOnlyHint || a.DestructiveHint == nil || !*a.DestructiveHint {
				t.Errorf("call_tool: %+v", a)
			}
		}
		if tool.Meta["anthropic/alwaysLoad"] != true {
			t.Errorf("%s lacks anthropic/alwaysLoad", tool.Name)
		}
	}
	tests := []struct {
		proxy, tool string
		refusedFor  string // the proxy the refusal names; "" when called
	}{
		{CallToolRead, "srv__get_issue", ""},
		{CallToolRead, "srv__create_issue", CallToolWrite},
		{CallToolRead, "srv__delete_repo", CallTool},
		{CallToolRead, "srv__legacy", CallTool},
		{CallToolRead, "srv__titled", CallTool},
		{CallToolWrite, "srv__get_issue", ""},
		{CallToolWrite, "srv__create_issue", ""},
		{CallToolWrite, "srv__delete_repo", CallTool},
		{CallToolWrite, "srv__legacy", CallTool},
		{CallTool, "srv__get_issue", ""},
		{CallTool, "srv__create_issue", ""},
		{CallTool, "srv__delete_repo", ""},
		{CallTool, "srv__legacy", ""},
		{CallToolRead, "get_issue", ""}, // by its upstream name
		{CallToolRead, "create_issue", CallToolWrite},
	}
	for _, tt := range tests {
		t.Run(tt.proxy+"/"+tt.tool, func(t *testing.T) {
			up.calls = nil
			text, res := callText(t, cs, tt.proxy, map[string]any{"name": tt.tool, "arguments": map[string]any{}})
			if tt.refusedFor == "" {
				if res.IsError || len(up.calls) != 1 {
					t.Errorf("refused: %s", text)
				}
				return
			}
			if !res.IsError || len(up.calls) != 0 || !strings.Contains(text, "call it through "+tt.refusedFor+" {") {
				t.Errorf("isError=%v calls=%q %q; want a refusal naming %s", res.IsError, up.calls, text, tt.refusedFor)
			}
		})
	}
	// What the proxies refuse is checked before anything else is: an
	// unknown name is unknown through every proxy.
	if text, _ := callText(t, cs, CallToolRead, map[string]any{"name": "nope"}); !strings.Contains(text, `no tool named "nope"`) {
		t.Errorf("unknown through call_tool_read: %q", text)
	}
}

// A held tool's new annotations are not trusted: a change to readOnlyHint
// true is held, and its class stays that of the definition trusted before.
func TestHeldToolKeepsTrustedClass(t *testing.T) {
	prev := &mcp.Tool{Name: "wipe", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true)}}
	now := &mcp.Tool{Name: "wipe", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}
	e := catalog.NewToolEntry("srv", "srv__wipe", now)
	e.Hold(&catalog.Quarantine{Reason: "changed", Previous: prev})
	if got := proxyFor(e); got != CallTool {
		t.Errorf("held tool's proxy = %s, want call_tool", got)
	}
	fresh := catalog.NewToolEntry("srv", "srv__new", now)
	fresh.Hold(&catalog.Quarantine{Reason: "new"})
	if got := proxyFor(fresh); got != CallTool {
		t.Errorf("new held tool's proxy = %s, want call_tool", got)
	}
}

// Each result names the proxy that calls its tool, in the text and in the
// structured result; a tool that cannot be called names none.
func TestSearchNamesProxy(t *testing.T) {
	s, err := New(annotatedCatalog(t), Options{Upstreams: &fakeUpstreams{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := map[string]string{"srv__get_issue": CallToolRead, "srv__create_issue": CallToolWrite, "srv__delete_repo": CallTool, "srv__legacy": CallTool, "srv__titled": CallTool}
	for _, args := range []SearchArgs{
		{Query: "select:srv__get_issue,srv__create_issue,srv__delete_repo,srv__legacy,srv__titled"},
		{Query: "select:srv__get_issue,srv__create_issue,srv__delete_repo,srv__legacy,srv__titled", Detail: DetailNames},
		{}, // a page of the listing
	} {
		res, err := s.Search(args)
		if err != nil {
			t.Fatal(err)
		}
		text := res.Text()
		for _, it := range res.Results {
			if it.Proxy != want[it.Name] {
				t.Errorf("%+v: %s's proxy = %q, want %q", args, it.Name, it.Proxy, want[it.Name])
			}
			if !strings.Contains(text, it.Name+" (tool from srv, via "+want[it.Name]+")") && !strings.Contains(text, it.Name+" (tool, srv, via "+want[it.Name]+")") {
				t.Errorf("%+v: the text does not name %s's proxy:\n%s", args, it.Name, text)
			}
		}
		if args.Query != "" && !strings.Contains(res.Guidance, "Call each tool through the proxy its result names") {
			t.Errorf("guidance = %q", res.Guidance)
		}
	}
	s2, _ := New(testCatalog(t), Options{})
	defer s2.Close()
	res, _ := s2.Search(SearchArgs{Query: "select:static_tool,srv__read_secret"})
	for _, it := range res.Results {
		if it.Proxy != "" {
			t.Errorf("%s cannot be called, but names %s", it.Name, it.Proxy)
		}
	}
}

// toolsearch's own tools are listed while they have something to do, and
// tools/list follows the catalog: no skill, no read_skill_file or
// run_skill_script; no read-only tool, no call_tool_read; a server still
// starting without known tools may bring any class.
func TestOwnToolsFollowCatalog(t *testing.T) {
	c := catalog.New(ReservedNames...)
	s, err := New(c, Options{Upstreams: &fakeUpstreams{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cs, changed := connectClient(t, s, "")
	step := func(name, want string, change func()) {
		t.Helper()
		change()
		deadline := time.After(10 * time.Second)
		for {
			if got := toolNames(t, cs); got == want {
				return
			} else {
				select {
				case <-changed:
				case <-deadline:
					t.Fatalf("%s: tools/list = %s, want %s", name, got, want)
				}
			}
		}
	}
	step("empty catalog", "tool_search", func() {})
	skill := &skill.Skill{Name: "notes", Description: "Take notes."}
	step("a skill", "read_skill_file,run_skill_script,tool_search", func() {
		c.Put(&catalog.Source{Name: loader.SkillsSourceName, Kind: catalog.SourceSkills, Entries: []*catalog.Entry{catalog.NewSkillEntry(loader.SkillsSourceName, skill)}})
	})
	step("a server starting", "call_tool,call_tool_read,call_tool_write,read_skill_file,run_skill_script,tool_search", func() {
		c.Put(&catalog.Source{Name: "srv", Kind: catalog.SourceServer, State: catalog.StateConnecting})
	})
	read := catalog.NewToolEntry("srv", "srv__get", &mcp.Tool{Name: "get", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}})
	step("its tools known", "call_tool,call_tool_read,read_skill_file,run_skill_script,tool_search", func() {
		c.Put(&catalog.Source{Name: "srv", Kind: catalog.SourceServer, State: catalog.StateActive, Entries: []*catalog.Entry{read}})
	})
	step("no skill", "call_tool,call_tool_read,tool_search", func() { c.Remove(loader.SkillsSourceName) })
	step("no server", "tool_search", func() { c.Remove("srv") })
	if text, res := callText(t, cs, CallToolRead, map[string]any{"name": "srv__get"}); !res.IsError || !strings.Contains(text, "This server's tools are tool_search;") {
		t.Errorf("a proxy no longer listed: %q", text)
	}
}

func TestProxiesWanted(t *testing.T) {
	readOnly := func(src, name string, policy catalog.Policy) *catalog.Entry {
		e := catalog.NewToolEntry(src, name, &mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}})
		e.Policy = policy
		return e
	}
	tests := []struct {
		name   string
		source *catalog.Source
		want   string
	}{
		{"a read-only tool", &catalog.Source{Name: "srv", Kind: catalog.SourceServer, State: catalog.StateActive, Entries: []*catalog.Entry{readOnly("srv", "srv__a", catalog.PolicyCallable)}}, "call_tool,call_tool_read"},
		{"listed only: nothing to call", &catalog.Source{Name: "srv", Kind: catalog.SourceServer, State: catalog.StateActive, Entries: []*catalog.Entry{readOnly("srv", "srv__a", catalog.PolicyVisibleOnly)}}, "call_tool"},
		{"hidden", &catalog.Source{Name: "srv", Kind: catalog.SourceServer, State: catalog.StateFailed, Entries: []*catalog.Entry{readOnly("srv", "srv__a", catalog.PolicyHidden)}}, "call_tool"},
		{"a static catalog stands in for its servers", &catalog.Source{Name: "dump", Kind: catalog.SourceTools, Entries: []*catalog.Entry{readOnly("dump", "a", catalog.PolicyCallable)}}, "call_tool,call_tool_read"},
		{"validating without tools", &catalog.Source{Name: "srv", Kind: catalog.SourceServer, State: catalog.StateValidating}, "call_tool,call_tool_read,call_tool_write"},
	}
	for _, tt := range tests {
		c := catalog.New(ReservedNames...)
		c.Put(tt.source)
		var got []string
		for name, ok := range proxiesWanted(c.Snapshot()) {
			if ok {
				got = append(got, name)
			}
		}
		slices.Sort(got)
		if strings.Join(got, ",") != tt.want {
			t.Errorf("%s: %v, want %s", tt.name, got, tt.want)
		}
	}
}

// TestProxyCallableBeforeAnnouncement: a proxy the catalog has just brought
// is in tools/list at once, and a call to it is served, not refused as
// unknown, while the announcement that gives it to the connection is still
// to come.
func TestProxyCallableBeforeAnnouncement(t *testing.T) {
	c := catalog.New(ReservedNames...)
	up := &fakeUpstreams{}
	s, err := New(c, Options{Upstreams: up, FirstListWait: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.announce.mu.Lock()
	s.announce.quiet, s.announce.hold = time.Hour, time.Hour
	s.announce.mu.Unlock()
	cs, _ := connectClient(t, s, "")
	listed(c, "srv")
	if got := toolNames(t, cs); got != "call_tool,tool_search" {
		t.Fatalf("tools/list = %s", got)
	}
	text, res := callText(t, cs, CallTool, map[string]any{"name": "srv__do", "arguments": map[string]any{}})
	if res.IsError || text != "echo {}" {
		t.Errorf("call before the announcement: isError=%v %q", res.IsError, text)
	}
}
