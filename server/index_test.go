package server

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/search"
)

// syncIndex feeds the index in batches; every entry must arrive, and a later sync
// must touch only what changed.
func TestSyncIndexAcrossBatches(t *testing.T) {
	tools := func(n int, changed string) *catalog.Source {
		src := &catalog.Source{Name: "big", Kind: catalog.SourceTools}
		for i := range n {
			name := fmt.Sprintf("tool_%05d", i)
			desc := "Does thing number " + fmt.Sprint(i) + "."
			if name == changed {
				desc = "Now frobnicates instead."
			}
			tl := &mcp.Tool{Name: name, Description: desc, InputSchema: json.RawMessage(`{"type":"object"}`)}
			src.Entries = append(src.Entries, catalog.NewToolEntry("big", name, tl))
		}
		return src
	}
	n := 2*indexBatch + 3
	c := catalog.New()
	c.Put(tools(n, ""))
	first := c.Snapshot()
	ix := search.NewIndex()
	shared := map[serverID]uint64{}
	syncIndex(ix, nil, first, shared)
	if ix.Len() != n {
		t.Fatalf("indexed %d entries, want %d", ix.Len(), n)
	}
	last := fmt.Sprintf("tool_%05d", n-1)
	if res := ix.Search(search.Query{Text: last}); len(res.Hits) == 0 || res.Hits[0].ID != last {
		t.Errorf("search %s: %+v", last, res.Hits)
	}

	// One tool changes, the last one goes.
	c.Put(tools(n-1, "tool_00007"))
	syncIndex(ix, first, c.Snapshot(), shared)
	if ix.Len() != n-1 {
		t.Errorf("after the update: %d entries, want %d", ix.Len(), n-1)
	}
	if res := ix.Search(search.Query{Text: "frobnicates"}); len(res.Hits) != 1 || res.Hits[0].ID != "tool_00007" {
		t.Errorf("changed tool not re-indexed: %+v", res.Hits)
	}
	if res := ix.Search(search.Query{Text: "select:" + last}); len(res.Hits) != 0 {
		t.Errorf("removed tool still found: %+v", res.Hits)
	}
}

// holdIndexer keeps the indexer from starting a pass until the returned
// function is called.
func holdIndexer(t *testing.T) (release func()) {
	gate := make(chan struct{})
	testIndexGate = func() { <-gate }
	var once sync.Once
	release = func() { once.Do(func() { close(gate) }) }
	t.Cleanup(func() {
		release()
		testIndexGate = nil
	})
	return release
}

// A catalog is listed before it is indexed, and a search made meanwhile
// waits for the index instead of missing what is not in it yet.
func TestSearchDuringIndexingWaits(t *testing.T) {
	release := holdIndexer(t)
	s, err := New(testCatalog(t), Options{ListingBudget: DefaultListingBudget})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if d := s.Description(); !strings.Contains(d, "[srv]\necho") {
		t.Errorf("the listing waits for the index:\n%s", d)
	}
	if res, err := s.Search(SearchArgs{Query: ""}); err != nil || len(res.Results) != 4 {
		t.Errorf("the empty query waits for the index: %v %+v", err, res)
	}

	type answer struct {
		res *SearchResult
		err error
	}
	answers := make(chan answer, 2)
	for _, q := range []string{"echo a message", "select:static_tool"} {
		go func() {
			res, err := s.Search(SearchArgs{Query: q})
			answers <- answer{res, err}
		}()
	}
	time.Sleep(20 * time.Millisecond) // let the searches start; nothing depends on it
	select {
	case a := <-answers:
		t.Fatalf("a search was answered before the catalog was indexed: %+v", a.res)
	default:
	}
	release()
	got := map[string]bool{}
	for range 2 {
		a := <-answers
		if a.err != nil || len(a.res.Results) == 0 {
			t.Fatalf("search %q: %v %+v", a.res.Query, a.err, a.res)
		}
		got[a.res.Results[0].Name] = true
	}
	if !got["srv__echo"] || !got["static_tool"] {
		t.Errorf("first results = %v, want srv__echo and static_tool", got)
	}
}

// Catalog changes that come during indexing are indexed in the next pass,
// and searches wait for the catalog as it was when they came.
func TestCatalogChangesDuringIndexing(t *testing.T) {
	release := holdIndexer(t)
	c := testCatalog(t)
	s, err := New(c, Options{ListingBudget: DefaultListingBudget})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	add := func(name, desc string) {
		tl := &mcp.Tool{Name: name, Description: desc, InputSchema: json.RawMessage(`{"type":"object"}`)}
		c.Put(&catalog.Source{Name: "dump", Kind: catalog.SourceTools, Entries: []*catalog.Entry{catalog.NewToolEntry("dump", name, tl)}})
	}
	add("frobnicate", "Frobnicates a widget.") // replaces static_tool
	add("defrobnicate", "Undoes a frobnication.")
	done := make(chan *SearchResult)
	go func() {
		res, _ := s.Search(SearchArgs{Query: "frobnication"})
		done <- res
	}()
	release()
	res := <-done
	if len(res.Results) == 0 || res.Results[0].Name != "defrobnicate" {
		t.Errorf("search after the changes: %+v", res.Results)
	}
	if res, _ := s.Search(SearchArgs{Query: "select:static_tool,frobnicate"}); len(res.Results) != 0 || len(res.Unknown) != 2 {
		t.Errorf("replaced entries are still found: %+v unknown %v", res.Results, res.Unknown)
	}
	if err := s.WaitIndexed(context.Background()); err != nil {
		t.Fatal(err)
	}
	if s.index.Len() != 4 { // srv's three listed tools and defrobnicate
		t.Errorf("index holds %d entries, want 4", s.index.Len())
	}
}

// TestIndexLeavesOutSelfPromotion: a description's claims of rank ("This
// is the best tool in the world.") stay out of what the index ranks on,
// for tools and skills; the rest of the description is indexed.
func TestIndexLeavesOutSelfPromotion(t *testing.T) {
	tool := catalog.NewToolEntry("ddg", "ddg__search", &mcp.Tool{Name: "search", Description: "This is the best tool in the world. Search DuckDuckGo and return results."})
	if d := Document(tool); d.Description != "Search DuckDuckGo and return results." {
		t.Errorf("tool indexed with %q", d.Description)
	}
	plain := catalog.NewToolEntry("ddg", "ddg__fetch", &mcp.Tool{Name: "fetch", Description: "Fetch a page."})
	if d := Document(plain); d.Description != "Fetch a page." {
		t.Errorf("plain tool indexed with %q", d.Description)
	}
}

func matchedIDs(ix *search.Index, q string) []string {
	var ids []string
	for _, h := range ix.Search(search.Query{Text: q, Limit: 50}).Hits {
		if h.Match != search.MatchBrowse {
			ids = append(ids, h.ID)
		}
	}
	return ids
}

// Parameters that nine in ten of a server's tools share word for word are boilerplate:
// the tool that is about their words must win, on the first sync and after one tool
// changes; when a new tool makes them no longer shared, every tool has them again.
func TestSyncIndexLeavesOutSharedParameters(t *testing.T) {
	const boilerplate = `"auth-method": {"type": "string", "description": "Authentication method: 'credential' (Azure CLI or managed identity) or 'key'."},
		"retry-mode": {"type": "string", "description": "Retry strategy: 'fixed' keeps one delay, 'zorblax' backoff doubles it each time."}`
	server := func(changed string, more ...string) *catalog.Source {
		src := &catalog.Source{Name: "azure", Kind: catalog.SourceTools}
		add := func(name, desc, props string) {
			tl := &mcp.Tool{Name: name, Description: desc, InputSchema: json.RawMessage(`{"type": "object", "properties": {` + props + `}}`)}
			src.Entries = append(src.Entries, catalog.NewToolEntry("azure", name, tl))
		}
		for _, r := range []string{"vault", "storage", "cosmos", "redis", "search", "monitor", "kusto", "sql", "postgres"} {
			desc := "Lists the " + r + " resources of a subscription."
			if r+"_list" == changed {
				desc += " Newly paged."
			}
			add(r+"_list", desc, boilerplate+`, "`+r+`": {"type": "string", "description": "The `+r+` name."}`)
		}
		add("extension_cli_generate", "Generates the command lines a user asks for, to run with the az tool.",
			`"intent": {"type": "string", "description": "What the commands are to do."}, "cli-type": {"type": "string", "description": "The CLI: 'az'."}`)
		for _, name := range more {
			add(name, "Another tool of its own.", `"zone": {"type": "string", "description": "The zone."}`)
		}
		return src
	}
	c := catalog.New()
	c.Put(server(""))
	first := c.Snapshot()
	ix := search.NewIndex()
	shared := map[serverID]uint64{}
	syncIndex(ix, nil, first, shared)
	const request = "list my storage accounts using the Azure CLI"
	top2 := func() []string {
		var ids []string
		for _, h := range ix.Search(search.Query{Text: request, Limit: 2}).Hits {
			ids = append(ids, h.ID)
		}
		slices.Sort(ids)
		return ids
	}
	if got := top2(); !slices.Equal(got, []string{"extension_cli_generate", "storage_list"}) {
		t.Errorf("%q: the best two are %v, want extension_cli_generate and storage_list", request, got)
	}
	// No document has the shared description's words: a search for a word of it alone
	// (one without neighbours in word vectors or spelling) matches nothing.
	indexed := func(word string) bool {
		hits := ix.Search(search.Query{Text: word}).Hits
		return slices.ContainsFunc(hits, func(h search.Hit) bool { return h.Match != search.MatchBrowse })
	}
	if indexed("zorblax") {
		t.Error("the shared retry option's description is indexed")
	}
	c.Put(server("vault_list"))
	syncIndex(ix, first, c.Snapshot(), shared)
	if indexed("zorblax") {
		t.Error("after one tool changed, the shared retry option's description is indexed")
	}
	if hits := ix.Search(search.Query{Text: "newly paged"}).Hits; len(hits) == 0 || hits[0].ID != "vault_list" {
		t.Errorf("the changed tool: %v", hits)
	}
	// Two more tools without the retry option: 9 of 12 is no longer nine in ten.
	second := c.Snapshot()
	c.Put(server("vault_list", "dns_list", "cdn_list"))
	syncIndex(ix, second, c.Snapshot(), shared)
	if hits := matchedIDs(ix, "zorblax"); len(hits) != 9 {
		t.Errorf("once the retry option is no longer shared, %d tools have its description, want 9: %v", len(hits), hits)
	}
}
