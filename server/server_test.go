package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/server/internal/mcptest"
)

// fakeUpstreams records calls and answers with an echo.
type fakeUpstreams struct {
	mu    sync.Mutex
	calls []string
	err   error
}

func (f *fakeUpstreams) Call(ctx context.Context, server, tool string, args json.RawMessage) (*mcp.CallToolResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, server+"/"+tool+" "+string(args))
	if f.err != nil {
		return nil, f.err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo " + string(args)}}, StructuredContent: map[string]any{"ok": true}}, nil
}

type notActiveErr struct{}

func (notActiveErr) Error() string { return "not active" }
func (notActiveErr) NotActive() (catalog.State, string) {
	return catalog.StateValidating, "re-listing tools"
}

// testCatalog has one upstream server with three tools under different
// policies, a static tools file and a skill.
func testCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	c := catalog.New(ReservedNames...)
	echo := &mcp.Tool{Name: "echo", Description: "Echo a message back.", InputSchema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`)}
	secret := &mcp.Tool{Name: "read_secret", Description: "Read a secret value.", InputSchema: json.RawMessage(`{"type":"object"}`)}
	wipe := &mcp.Tool{Name: "wipe_disk", Description: "Erase everything.", InputSchema: json.RawMessage(`{"type":"object"}`)}
	ping := &mcp.Tool{Name: "ping", Description: "Check the server answers.", InputSchema: json.RawMessage(`{"type":"object"}`)}
	entries := []*catalog.Entry{catalog.NewToolEntry("srv", "srv__echo", echo), catalog.NewToolEntry("srv", "srv__read_secret", secret), catalog.NewToolEntry("srv", "srv__wipe_disk", wipe), catalog.NewToolEntry("srv", "srv__ping", ping)}
	entries[0].AlwaysLoad = true
	entries[1].Policy = catalog.PolicyVisibleOnly
	entries[2].Policy = catalog.PolicyHidden
	c.Put(&catalog.Source{Name: "srv", Kind: catalog.SourceServer, State: catalog.StateActive, Entries: entries})
	c.Put(&catalog.Source{Name: "dump", Kind: catalog.SourceTools, Entries: []*catalog.Entry{catalog.NewToolEntry("dump", "static_tool", &mcp.Tool{Name: "static_tool", Description: "A static tool.", InputSchema: json.RawMessage(`{"type":"object"}`)})}})
	return c
}

func connectClient(t *testing.T, s *Server, version string) (*mcp.ClientSession, chan struct{}) {
	t.Helper()
	changed := make(chan struct{}, 16)
	ms := s.NewMCPServer()
	t.Cleanup(func() { s.Release(ms) })
	client := mcp.NewClient(&mcp.Implementation{Name: "test"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	return connectTo(t, ms, client, version), changed
}

// The helpers the tests of server's packages share.
var (
	callText  = mcptest.CallText
	toolNames = mcptest.ToolNames
	connectTo = mcptest.Connect
)

func TestCallTool(t *testing.T) {
	up := &fakeUpstreams{}
	s, err := New(testCatalog(t), Options{ListingBudget: DefaultListingBudget, Upstreams: up})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cs, _ := connectClient(t, s, "")
	tests := []struct {
		name      string
		args      map[string]any
		want      string
		wantError bool
	}{
		{"forwarded unchanged", map[string]any{"name": "srv__echo", "arguments": map[string]any{"message": "hi"}}, `echo {"message":"hi"}`, false},
		{"by upstream name", map[string]any{"name": "echo", "arguments": map[string]any{"message": "hi"}}, `echo {"message":"hi"}`, false},
		{"invalid arguments return the schema", map[string]any{"name": "srv__echo", "arguments": map[string]any{"message": 3}}, `The tool's input schema is:
{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`, true},
		{"missing required argument", map[string]any{"name": "srv__echo"}, "invalid arguments for srv__echo", true},
		{"visible only", map[string]any{"name": "srv__read_secret"}, "listed but not callable: the policy visible_only applies", true},
		{"hidden is unknown", map[string]any{"name": "srv__wipe_disk"}, `no tool named "srv__wipe_disk"`, true},
		{"static tool", map[string]any{"name": "static_tool"}, "static tool catalog (dump) and has no upstream server", true},
		{"unknown", map[string]any{"name": "nope"}, `no tool named "nope"`, true},
		{"no name", map[string]any{}, "name is required", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, res := callText(t, cs, CallTool, tt.args)
			if res.IsError != tt.wantError || !strings.Contains(text, tt.want) {
				t.Errorf("isError=%v %q; want isError=%v and %q", res.IsError, text, tt.wantError, tt.want)
			}
		})
	}
	if len(up.calls) != 2 {
		t.Errorf("upstream calls = %q, want the two valid ones only", up.calls)
	}

	up.err = notActiveErr{}
	text, res := callText(t, cs, CallTool, map[string]any{"name": "srv__echo", "arguments": map[string]any{"message": "hi"}})
	if !res.IsError || !strings.HasPrefix(text, "service_not_active: server srv is validating") {
		t.Errorf("not active: %v %q", res.IsError, text)
	}
	up.err = errors.New("boom")
	if text, _ := callText(t, cs, CallTool, map[string]any{"name": "srv__echo", "arguments": map[string]any{"message": "hi"}}); !strings.Contains(text, "boom") {
		t.Errorf("upstream failure: %q", text)
	}
}

func TestAlwaysLoadedToolsAreListedAndProxied(t *testing.T) {
	up := &fakeUpstreams{}
	s, _ := New(testCatalog(t), Options{ListingBudget: DefaultListingBudget, Upstreams: up})
	defer s.Close()
	cs, _ := connectClient(t, s, "")
	if got := toolNames(t, cs); got != "call_tool,srv__echo,tool_search" { // no skill, no annotated tool

		t.Errorf("tools/list = %s", got)
	}
	if text, res := callText(t, cs, "srv__echo", map[string]any{"message": "direct"}); res.IsError || text != `echo {"message":"direct"}` {
		t.Errorf("direct call: %v %q", res.IsError, text)
	}
}

func TestSearchHidesHiddenAndMarksPolicy(t *testing.T) {
	s, _ := New(testCatalog(t), Options{ListingBudget: DefaultListingBudget})
	defer s.Close()
	res, err := s.Search(SearchArgs{Query: "secret wipe erase disk"})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Text()
	if strings.Contains(text, "wipe_disk") || strings.Contains(s.Description(), "wipe_disk") {
		t.Errorf("hidden tool is visible:\n%s\n%s", text, s.Description())
	}
	if !strings.Contains(text, "srv__read_secret (tool from srv) [listed only: calls are refused by policy]") {
		t.Errorf("visible_only tool not marked:\n%s", text)
	}
}

func TestPromoteOnlyOnLegacySessions(t *testing.T) {
	for _, tt := range []struct {
		version string
		promote bool
	}{{"2025-11-25", true}, {"2025-06-18", true}, {"2026-07-28", false}} {
		t.Run(tt.version, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				up := &fakeUpstreams{}
				s, _ := New(testCatalog(t), Options{ListingBudget: DefaultListingBudget, Upstreams: up, Promote: true})
				defer s.Close()
				cs, changed := connectClient(t, s, tt.version)
				before := toolNames(t, cs)
				// A static tool and a visible_only one are never promoted.
				callText(t, cs, ToolSearch, map[string]any{"query": "select:static_tool,srv__read_secret,srv__ping"})
				want := before
				if tt.promote {
					want = "call_tool,srv__echo,srv__ping,tool_search"
					select {
					case <-changed:
					case <-time.After(10 * time.Second):
						t.Fatal("no list_changed after promotion")
					}
				}
				if got := toolNames(t, cs); got != want {
					t.Errorf("tools/list = %s, want %s", got, want)
				}
				if tt.promote {
					if text, res := callText(t, cs, "srv__ping", map[string]any{}); res.IsError || text != "echo {}" {
						t.Errorf("promoted call: %v %q", res.IsError, text)
					}
				}
			})
		})
	}
}

func TestEmptyQueryPages(t *testing.T) {
	s, _ := New(testCatalog(t), Options{ListingBudget: DefaultListingBudget})
	defer s.Close()
	var names []string
	args := SearchArgs{Query: "", Limit: 2}
	for page := 1; ; page++ {
		res, err := s.Search(args)
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("this page lists %d-%d", 2*page-1, 2*page-2+len(res.Results))
		if text := res.Text(); !strings.Contains(text, want) {
			t.Errorf("page %d lacks %q:\n%s", page, want, text)
		}
		for _, it := range res.Results {
			names = append(names, it.Name)
		}
		if res.NextCursor == "" {
			break
		}
		args.Cursor = res.NextCursor
	}
	// Hidden tools are not listed.
	if got := strings.Join(names, ","); got != "srv__echo,srv__ping,srv__read_secret,static_tool" {
		t.Errorf("pages = %s", got)
	}
	if _, err := s.Search(SearchArgs{Query: "", Cursor: "garbage"}); err == nil {
		t.Error("a bad cursor is accepted")
	}
}

// TestReleaseForgetsTheConnection checks that the registry of connections
// does not keep a released MCP server alive.
func TestReleaseForgetsTheConnection(t *testing.T) {
	s, err := New(testCatalog(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	ms := s.NewMCPServer()
	s.Release(ms)
	s.mu.RLock()
	_, kept := s.conns[ms]
	s.mu.RUnlock()
	if kept {
		t.Error("a released MCP server is still kept up to date")
	}
}
