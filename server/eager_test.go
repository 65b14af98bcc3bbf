package server

import (
	"encoding/json"
	"log/slog"
	"testing"
	"testing/synctest"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// fullPrice prices a snapshot from scratch, as eager loading's price was
// made before it was kept entry by entry.
func fullPrice(s *Server) (tokens, entries int) {
	for _, c := range eagerCosts(s.Snapshot(), s.tok.Count) {
		tokens += c.tokens
		entries++
	}
	return tokens, entries
}

// holdPricing holds every pricing pass back until the channel it returns
// is closed, and lets passes run again once the test is over.
func holdPricing(t *testing.T) chan struct{} {
	release := make(chan struct{})
	gate := func() { <-release }
	testEagerGate.Store(&gate)
	t.Cleanup(func() { testEagerGate.Store(nil) })
	return release
}

// TestEagerPricedOnce: the catalog is priced once it is indexed, a change
// of it counts only the entries it adds, and the price is always the one a
// pricing from scratch gives.
func TestEagerPricedOnce(t *testing.T) { synctest.Test(t, testEagerPricedOnce) }

func testEagerPricedOnce(t *testing.T) {
	c := testCatalog(t)
	s, err := New(c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	synctest.Wait() // indexed, then priced in the background
	s.eager.mu.Lock()
	priced, counted := s.eager.snap, s.eager.counted
	s.eager.mu.Unlock()
	if priced != s.Snapshot() {
		t.Fatal("the catalog was not priced once indexed")
	}
	tokens, entries := fullPrice(s)
	if got := s.eagerCost(); got.Tokens != tokens || got.Entries != entries || got.CatalogVersion != priced.Version {
		t.Errorf("price %+v, want %d tokens over %d entries", got, tokens, entries)
	}
	if counted != entries {
		t.Errorf("%d entries counted for %d priced", counted, entries)
	}

	// A new tool: only it is counted.
	extra := &mcp.Tool{Name: "extra_tool", Description: "One more.", InputSchema: json.RawMessage(`{"type":"object"}`)}
	c.Put(&catalog.Source{Name: "more", Kind: catalog.SourceTools, Entries: []*catalog.Entry{catalog.NewToolEntry("more", "extra_tool", extra)}})
	synctest.Wait()
	tokens, entries = fullPrice(s)
	if got := s.eagerCost(); got.Tokens != tokens || got.Entries != entries {
		t.Errorf("after a change: price %+v, want %d tokens over %d entries", got, tokens, entries)
	}
	s.eager.mu.Lock()
	if d := s.eager.counted - counted; d != 1 {
		t.Errorf("%d entries counted for one new tool", d)
	}
	s.eager.mu.Unlock()
}

// TestSummaryAtStopBounded: a session's summary written as the server
// stops reports the same price of eager loading as ever, without pricing
// anything when the catalog is priced, and does not wait beyond
// summaryWait for a price still to come: it says it has none.
func TestSummaryAtStopBounded(t *testing.T) { synctest.Test(t, testSummaryAtStopBounded) }

func testSummaryAtStopBounded(t *testing.T) {
	for _, held := range []bool{false, true} {
		release := make(chan struct{})
		if held {
			gate := func() { <-release }
			testEagerGate.Store(&gate)
		}
		logs := &recordHandler{}
		s, _ := New(testCatalog(t), Options{ListingBudget: DefaultListingBudget, Logger: slog.New(logs)})
		synctest.Wait()
		tokens, _ := fullPrice(s)
		ms := s.NewMCPServer()
		cs := connectTo(t, ms, mcp.NewClient(&mcp.Implementation{Name: "test"}, nil), "")
		callText(t, cs, ToolSearch, map[string]any{"query": "echo"})
		s.eager.mu.Lock()
		counted := s.eager.counted
		s.eager.mu.Unlock()
		s.Release(ms) // logs the summary
		attrs, ok := logs.find("session summary", "searches", 1)
		switch {
		case !ok:
			t.Fatalf("held %v: no session summary", held)
		case !held && (attrs["eager_tokens"].Int64() != int64(tokens) || attrs["eager_priced"].Kind() != slog.KindAny):
			t.Errorf("summary %v, want eager_tokens=%d", attrs, tokens)
		case held && (attrs["eager_priced"].Bool() || attrs["eager_tokens"].Kind() != slog.KindAny):
			t.Errorf("held pricing: summary %v, want eager_priced=false", attrs)
		}
		s.eager.mu.Lock()
		if s.eager.counted != counted {
			t.Errorf("held %v: the summary priced %d entries again", held, s.eager.counted-counted)
		}
		s.eager.mu.Unlock()
		testEagerGate.Store(nil)
		close(release)
		cs.Close()
		s.Close()
		synctest.Wait()
	}
}

// TestEagerWaitsForListings: while a server lists its tools the catalog is
// not priced in the background (the start needs the CPU, and the listing
// changes the catalog); the snapshot after the listing is.
func TestEagerWaitsForListings(t *testing.T) { synctest.Test(t, testEagerWaitsForListings) }

func testEagerWaitsForListings(t *testing.T) {
	c := testCatalog(t)
	tool := &mcp.Tool{Name: "slow_tool", Description: "Listed late.", InputSchema: json.RawMessage(`{"type":"object"}`)}
	up := func(state catalog.State) {
		c.Put(&catalog.Source{Name: "up", Kind: catalog.SourceServer, State: state, Entries: []*catalog.Entry{catalog.NewToolEntry("up", "up__slow_tool", tool)}})
	}
	up(catalog.StateConnecting)
	s, err := New(c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	priced := func() bool {
		synctest.Wait()
		s.eager.mu.Lock()
		defer s.eager.mu.Unlock()
		return s.eager.snap == s.Snapshot()
	}
	if priced() {
		t.Fatal("priced while a server was connecting")
	}
	up(catalog.StateValidating)
	if priced() {
		t.Fatal("priced while a server was listing again")
	}
	up(catalog.StateActive)
	if !priced() {
		t.Fatal("not priced once the listing was in")
	}
}

// TestReleaseWaitsForSummaries: a session that ended just before the
// server stops is summed up by its own goroutine; Release waits for that
// summary rather than let the process exit without it.
func TestReleaseWaitsForSummaries(t *testing.T) { synctest.Test(t, testReleaseWaitsForSummaries) }

func testReleaseWaitsForSummaries(t *testing.T) {
	release := holdPricing(t)
	logs := &recordHandler{}
	s, _ := New(testCatalog(t), Options{ListingBudget: DefaultListingBudget, Logger: slog.New(logs)})
	defer s.Close()
	ms := s.NewMCPServer()
	cs := connectTo(t, ms, mcp.NewClient(&mcp.Implementation{Name: "test"}, nil), "")
	callText(t, cs, ToolSearch, map[string]any{"query": "echo"})
	cs.Close()
	synctest.Wait() // the session's own goroutine is summing it up, waiting for the price
	s.Release(ms)
	if _, ok := logs.find("session summary", "searches", 1); !ok {
		t.Error("Release returned before the summary of the session that had just ended was logged")
	}
	close(release)
	synctest.Wait()
}

// TestBulkWhilePricing: pricing the catalog is bulk work (Bulk), as
// indexing it is, so that the collector keeps the tokenizer's garbage
// small (a file of 100,000 tools peaked 25 MB higher while it was priced).
func TestBulkWhilePricing(t *testing.T) { synctest.Test(t, testBulkWhilePricing) }

func testBulkWhilePricing(t *testing.T) {
	release := holdPricing(t)
	s, err := New(testCatalog(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	synctest.Wait() // indexed; the pricing pass waits at the gate
	if !s.Bulk() {
		t.Error("Bulk() = false while the catalog is being priced")
	}
	close(release)
	synctest.Wait()
	if s.Bulk() {
		t.Error("Bulk() = true once indexed and priced")
	}
}
