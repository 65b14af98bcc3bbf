package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// TestNamesModelAPIsRefuseStayProxied: a tool whose exposed name model
// APIs refuse (over 64 characters, a dot) is reached through call_tool,
// and never listed to the host directly, always-loaded or promoted.
func TestNamesModelAPIsRefuseStayProxied(t *testing.T) {
	own := strings.Repeat("x", 64)
	c := catalog.New(ReservedNames...)
	var entries []*catalog.Entry
	for _, name := range []string{own, "dotted.name", "fits"} {
		e := catalog.NewToolEntry("srv", "srv__"+name, &mcp.Tool{Name: name, Description: "Echo " + name + ".", InputSchema: json.RawMessage(`{"type":"object"}`)})
		e.AlwaysLoad = true
		entries = append(entries, e)
	}
	c.Put(&catalog.Source{Name: "srv", Kind: catalog.SourceServer, State: catalog.StateActive, Entries: entries})
	up := &fakeUpstreams{}
	s, err := New(c, Options{ListingBudget: DefaultListingBudget, Upstreams: up, Promote: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cs, _ := connectClient(t, s, "2025-11-25")
	callText(t, cs, ToolSearch, map[string]any{"query": "select:srv__" + own + ",srv__dotted.name"})
	if got := toolNames(t, cs); got != "call_tool,srv__fits,tool_search" {
		t.Errorf("tools/list = %s", got)
	}
	for _, name := range []string{"srv__" + own, "srv__dotted.name"} {
		if text, res := callText(t, cs, CallTool, map[string]any{"name": name, "arguments": map[string]any{}}); res.IsError || text != "echo {}" {
			t.Errorf("call_tool %s: %v %q", name, res.IsError, text)
		}
	}
}
