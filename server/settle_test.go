package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// startingCatalog has n upstream servers that have not listed yet, on a
// very first start.
func startingCatalog(names ...string) *catalog.Catalog {
	c := catalog.New(ReservedNames...)
	for _, name := range names {
		c.Put(&catalog.Source{Name: name, Kind: catalog.SourceServer, State: catalog.StateConnecting})
	}
	return c
}

// listed puts a server's first listing, of one tool, into the catalog.
func listed(c *catalog.Catalog, name string) {
	t := &mcp.Tool{Name: "do", Description: "Does it for " + name + ".", InputSchema: map[string]any{"type": "object"}}
	c.Put(&catalog.Source{Name: name, Kind: catalog.SourceServer, State: catalog.StateActive, LastListed: time.Now(),
		Entries: []*catalog.Entry{catalog.NewToolEntry(name, name+"__do", t)}})
}

func searchDescription(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if tool.Name == ToolSearch {
			return tool.Description
		}
	}
	t.Fatal("no tool_search")
	return ""
}

// TestFirstListWaitsForStartingServers: the first tools/list, asked for
// while the servers are still starting, is answered with their tools once
// they have listed, within FirstListWait; initialize does not wait.
func TestFirstListWaitsForStartingServers(t *testing.T) {
	c := startingCatalog("github", "slack")
	s, err := New(c, Options{ListingBudget: DefaultListingBudget, FirstListWait: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cs, _ := connectClient(t, s, "") // initialize answered with the servers still starting
	got := make(chan string, 1)
	go func() { got <- searchDescription(t, cs) }()
	listed(c, "github")
	select {
	case desc := <-got:
		t.Fatalf("tools/list answered before every server listed:\n%s", desc)
	case <-time.After(50 * time.Millisecond):
	}
	listed(c, "slack")
	desc := <-got
	if !strings.Contains(desc, "Catalog: 2 tools from 2 sources (tools named SERVER__TOOL); tool_search reaches all of them.") {
		t.Errorf("the first listing is not complete:\n%s", desc)
	}
}

// TestFirstListWaitIsBounded: a server that never lists holds the first
// tools/list back FirstListWait at most, and the listing says it is still
// starting; with the wait off nothing waits.
func TestFirstListWaitIsBounded(t *testing.T) {
	for _, wait := range []time.Duration{200 * time.Millisecond, -1} {
		s, err := New(startingCatalog("stuck"), Options{ListingBudget: DefaultListingBudget, FirstListWait: wait})
		if err != nil {
			t.Fatal(err)
		}
		cs, _ := connectClient(t, s, "")
		if desc := searchDescription(t, cs); !strings.Contains(desc, "1 server still starting (stuck)") {
			t.Errorf("wait %v: listing:\n%s", wait, desc)
		}
		if time.Since(s.started) < wait {
			t.Errorf("wait %v: tools/list answered after %v", wait, time.Since(s.started))
		}
		s.Close()
	}
}

// TestListChangedOnceComplete: servers listing one after another make one
// tools/list_changed, once the last has listed, not one each; tools/list
// in between answers with the listing as it stands.
func TestListChangedOnceComplete(t *testing.T) {
	names := []string{"a", "b", "c", "d", "e", "f"}
	c := startingCatalog(names...)
	s, err := New(c, Options{ListingBudget: DefaultListingBudget, FirstListWait: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.announce.mu.Lock()
	s.announce.quiet = 50 * time.Millisecond
	s.announce.mu.Unlock()
	cs, changed := connectClient(t, s, "")
	for i, name := range names {
		listed(c, name)
		if i == 2 {
			if desc := searchDescription(t, cs); !strings.Contains(desc, "3 tools from 3 sources (tools named SERVER__TOOL) so far; 3 servers still starting (d, e, f)") {
				t.Errorf("tools/list midway:\n%s", desc)
			}
		}
		time.Sleep(20 * time.Millisecond) // Gemini saw six listings in 1.5 s
	}
	select {
	case <-changed:
	case <-time.After(20 * time.Second):
		t.Fatal("no tools/list_changed once every server listed")
	}
	if desc := searchDescription(t, cs); !strings.Contains(desc, "6 tools from 6 sources (tools named SERVER__TOOL); tool_search reaches all of them.") {
		t.Errorf("listing after the announcement:\n%s", desc)
	}
	select {
	case <-changed:
		t.Error("more than one tools/list_changed for one start")
	case <-time.After(300 * time.Millisecond):
	}
}

// TestListChangedIsHeldAtMostListHold: a server that never starts does not
// hold the announcement of the others' listings back for good.
func TestListChangedIsHeldAtMostListHold(t *testing.T) {
	c := startingCatalog("a", "stuck")
	s, err := New(c, Options{ListingBudget: DefaultListingBudget, FirstListWait: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.announce.mu.Lock()
	s.announce.quiet, s.announce.hold = 10*time.Millisecond, 100*time.Millisecond
	s.announce.mu.Unlock()
	cs, changed := connectClient(t, s, "")
	listed(c, "a")
	select {
	case <-changed:
	case <-time.After(20 * time.Second):
		t.Fatal("the announcement waited for a server that never starts")
	}
	if desc := searchDescription(t, cs); !strings.Contains(desc, "1 server still starting (stuck)") {
		t.Errorf("listing:\n%s", desc)
	}
}

// TestNoListChangedWithoutChange: a connection is told of a new listing
// only when the listing it has is not the current one. Neither the start
// (the first snapshot is what every connection begins with) nor an
// announcement of a change made before the connection listed sends
// tools/list_changed: each one costs a host that lists again (Gemini) its
// prompt cache.
func TestNoListChangedWithoutChange(t *testing.T) {
	c := startingCatalog()
	listed(c, "a")
	s, err := New(c, Options{ListingBudget: DefaultListingBudget, FirstListWait: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, atStart := connectClient(t, s, "")
	select {
	case <-atStart:
		t.Error("tools/list_changed at start, with the listing unchanged")
	case <-time.After(listQuiet + 300*time.Millisecond):
	}

	s.announce.mu.Lock()
	s.announce.quiet = 50 * time.Millisecond
	s.announce.mu.Unlock()
	listed(c, "b") // announced in 50 ms, to the connection made before it
	cs, afterChange := connectClient(t, s, "")
	if desc := searchDescription(t, cs); !strings.Contains(desc, "2 tools from 2 sources") {
		t.Fatalf("listing of the connection made after the change:\n%s", desc)
	}
	select {
	case <-atStart:
	case <-time.After(20 * time.Second):
		t.Fatal("the connection made before the change was not told of it")
	}
	select {
	case <-afterChange:
		t.Error("tools/list_changed to a connection that listed the change from the start")
	case <-time.After(300 * time.Millisecond):
	}
}
