package server

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/server/metrics"
)

// metricLine returns the value of the series named exactly series (name
// and labels, as the text format writes them), or "" without one.
func metricLine(t *testing.T, m *metrics.Metrics, series string) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	for _, l := range strings.Split(rec.Body.String(), "\n") {
		if v, ok := strings.CutPrefix(l, series+" "); ok {
			return v
		}
	}
	return ""
}

// Calls are counted under the catalog tool they reached, whether through
// call_tool or listed directly; a name the catalog does not list is
// counted as (unknown), whatever the client sent; searches apart; the
// server measuring itself not at all. A session that got the listing adds
// what it saved as it ends.
func TestMetricsOfCalls(t *testing.T) { synctest.Test(t, testMetricsOfCalls) }

func testMetricsOfCalls(t *testing.T) {
	logs := &recordHandler{}
	m := metrics.New(metrics.Options{})
	// Enough tools for deferring them to pay: loading them all costs
	// more than the listing and a search.
	cat := testCatalog(t)
	var many []*catalog.Entry
	for i := range 40 {
		desc := fmt.Sprintf("Report number %d of the quarterly figures, with every column the finance team keeps. ", i) + strings.Repeat("It takes the period, the region and the currency. ", 8)
		many = append(many, catalog.NewToolEntry("reports", fmt.Sprintf("reports__figures_%d", i), &mcp.Tool{Name: fmt.Sprintf("figures_%d", i), Description: desc, InputSchema: json.RawMessage(`{"type":"object","properties":{"period":{"type":"string"},"region":{"type":"string"},"currency":{"type":"string"}}}`)}))
	}
	cat.Put(&catalog.Source{Name: "reports", Kind: catalog.SourceServer, State: catalog.StateActive, Entries: many})
	s, err := New(cat, Options{ListingBudget: DefaultListingBudget, Upstreams: &fakeUpstreams{}, Logger: slog.New(logs), Metrics: m})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cs, _ := connectClient(t, s, "2025-11-25")
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	callText(t, cs, ToolSearch, map[string]any{"query": "echo a message"})
	callText(t, cs, CallTool, map[string]any{"name": "srv__echo", "arguments": map[string]any{"message": "hi"}})
	callText(t, cs, "srv__echo", map[string]any{"message": "direct"})
	callText(t, cs, CallTool, map[string]any{"name": "srv__echo", "arguments": map[string]any{"message": 3}}) // invalid
	callText(t, cs, CallTool, map[string]any{"name": "made_up_" + strings.Repeat("x", 300)})
	callText(t, cs, CallTool, map[string]any{"name": "another_made_up_name"})
	callText(t, cs, "not_listed_anywhere", map[string]any{})
	if _, err := s.Measure(context.Background(), MeasureOptions{Queries: []string{"echo"}}); err != nil {
		t.Fatal(err)
	}
	for series, want := range map[string]string{
		`toolsearch_calls_total{outcome="ok",server="srv",tool="srv__echo"}`:                "2",
		`toolsearch_calls_total{outcome="tool_error",server="srv",tool="srv__echo"}`:        "1",
		`toolsearch_calls_total{outcome="tool_error",server="toolsearch",tool="(unknown)"}`: "3",
		`toolsearch_call_duration_seconds_count{server="srv",tool="srv__echo"}`:             "3",
		`toolsearch_searches_total{outcome="ok"}`:                                           "1", // Measure's are not counted
		`toolsearch_search_duration_seconds_count`:                                          "1",
	} {
		if got := metricLine(t, m, series); got != want {
			t.Errorf("%s = %q, want %s", series, got, want)
		}
	}
	if got := metricLine(t, m, "toolsearch_tokens_saved_total"); got != "0" {
		t.Errorf("tokens saved before any session ended: %s (Measure's sessions are the server's own)", got)
	}
	cs.Close()
	synctest.Wait() // the session has ended and its summary is logged
	attrs, ok := logs.find("session summary", "searches", 1)
	if !ok {
		t.Fatal("no session summary logged")
	}
	saved := attrs["eager_tokens"].Int64() - attrs["discovery_tokens"].Int64()
	if got, want := metricLine(t, m, "toolsearch_tokens_saved_total"), strconv.FormatInt(saved, 10); saved <= 0 || got != want {
		t.Errorf("tokens saved %s, want the session's eager less discovery tokens, %s", got, want)
	}
}
