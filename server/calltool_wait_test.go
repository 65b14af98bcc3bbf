package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// startingUpstreams is a server still starting: AwaitStarted lists its
// tools when asked (listed) or gives up (not).
type startingUpstreams struct {
	fakeUpstreams
	catalog *catalog.Catalog
	listed  bool
	awaited []string
}

func (u *startingUpstreams) AwaitStarted(_ context.Context, server string) {
	u.awaited = append(u.awaited, server)
	if u.listed {
		tool := &mcp.Tool{Name: "fresh", Description: "Listed once started.", InputSchema: json.RawMessage(`{"type":"object"}`)}
		u.catalog.Put(&catalog.Source{Name: server, Kind: catalog.SourceServer, State: catalog.StateActive, Entries: []*catalog.Entry{catalog.NewToolEntry(server, server+"__fresh", tool)}})
	}
}

// A call to a name a starting server has not listed yet waits for that
// server, then finds the tool, or says the server is still starting.
func TestCallWaitsForTheServerOfAnUnknownName(t *testing.T) {
	for _, listed := range []bool{true, false} {
		c := testCatalog(t)
		c.Put(&catalog.Source{Name: "late", Kind: catalog.SourceServer, State: catalog.StateConnecting})
		up := &startingUpstreams{catalog: c, listed: listed}
		s, err := New(c, Options{Upstreams: up})
		if err != nil {
			t.Fatal(err)
		}
		res := s.Call(context.Background(), CallArgs{Name: "late__fresh"})
		text := res.Content[0].(*mcp.TextContent).Text
		switch {
		case listed && (res.IsError || len(up.calls) != 1 || up.calls[0] != "late/fresh {}"):
			t.Errorf("after the server listed the tool: %q, calls %v", text, up.calls)
		case !listed && (!res.IsError || !strings.Contains(text, `no tool named "late__fresh" yet: server late is still connecting`)):
			t.Errorf("the server never listed it: %q", text)
		}
		if len(up.awaited) != 1 || up.awaited[0] != "late" {
			t.Errorf("awaited %v", up.awaited)
		}
		// A name no starting server could supply is refused at once.
		up.awaited = nil
		if res := s.Call(context.Background(), CallArgs{Name: "srv__nothing"}); !res.IsError || len(up.awaited) != 0 {
			t.Errorf("unknown name of an active server: waited for %v", up.awaited)
		}
		s.Close()
	}
}

// The server a name not listed yet may come from is every server whose
// namespace it carries, not the one its first separator (or its last)
// would name: late__x's fresh is late__x__fresh, and so is late's x__fresh.
func TestCallWaitsForEveryServerAnUnknownNameMayBelongTo(t *testing.T) {
	c := testCatalog(t)
	c.Put(&catalog.Source{Name: "late", Kind: catalog.SourceServer, State: catalog.StateActive})
	c.Put(&catalog.Source{Name: "late__x", Kind: catalog.SourceServer, State: catalog.StateConnecting})
	up := &startingUpstreams{catalog: c, listed: true}
	s, err := New(c, Options{Upstreams: up})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res := s.Call(context.Background(), CallArgs{Name: "late__x__fresh"})
	if text := res.Content[0].(*mcp.TextContent).Text; res.IsError || len(up.calls) != 1 || up.calls[0] != "late__x/fresh {}" {
		t.Errorf("after late__x listed the tool: %q, calls %v", text, up.calls)
	}
	if len(up.awaited) != 1 || up.awaited[0] != "late__x" {
		t.Errorf("awaited %v, want late__x", up.awaited)
	}
}
