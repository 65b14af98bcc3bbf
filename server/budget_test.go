package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/server/tokens"
)

// A search result always fits the result budget: full schemas turn into
// signatures, then into names, then results go, and what the client reads is
// exactly that fitted text.
func TestSearchFitsResultBudget(t *testing.T) {
	c := catalog.New(ReservedNames...)
	var entries []*catalog.Entry
	for i := range 5 {
		var props []string
		for p := range 12 {
			props = append(props, fmt.Sprintf(`"field_%d":{"type":"string","description":"Report field number %d, which the report shows in its column %d."}`, p, p, p))
		}
		schema := `{"type":"object","properties":{` + strings.Join(props, ",") + `}}`
		name := fmt.Sprintf("report_%d", i)
		tool := &mcp.Tool{Name: name, Description: "Build a report of the sales figures.", InputSchema: json.RawMessage(schema)}
		entries = append(entries, catalog.NewToolEntry("reports", name, tool))
	}
	c.Put(&catalog.Source{Name: "reports", Kind: catalog.SourceTools, Entries: entries})
	tok, err := tokens.Get("")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		budget     int
		wantNote   bool
		wantDetail string // of the last result, if any is left
		maxResults int
	}{
		{budget: 100_000, wantDetail: DetailCompact, maxResults: 5},
		{budget: 700, wantNote: true, wantDetail: DetailCompact, maxResults: 5},
		{budget: 250, wantNote: true, wantDetail: DetailNames, maxResults: 5},
		{budget: 90, wantNote: true, wantDetail: DetailNames, maxResults: 2},
		{budget: 40, wantNote: true, maxResults: 0}, // nothing fits but the note
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.budget), func(t *testing.T) {
			s, err := New(c, Options{ResultBudget: tt.budget})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			cs, _ := connectClient(t, s, "")
			text, res := callText(t, cs, "tool_search", map[string]any{"query": "sales report"})
			if res.IsError {
				t.Fatalf("error: %s", text)
			}
			if n := tok.Count(text); n > tt.budget && tt.maxResults > 0 {
				t.Errorf("%d tokens, over the budget of %d:\n%s", n, tt.budget, text)
			}
			var got SearchResult
			b, _ := json.Marshal(res.StructuredContent)
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			if len(got.Results) > tt.maxResults || len(got.Results) == 0 && tt.maxResults > 0 {
				t.Fatalf("%d results, want 1 to %d", len(got.Results), tt.maxResults)
			}
			if n := len(got.Results); n > 0 && got.Results[n-1].Detail != tt.wantDetail {
				t.Errorf("last result's detail %q, want %q", got.Results[n-1].Detail, tt.wantDetail)
			}
			if note := strings.Contains(text, "shortened to fit"); note != tt.wantNote {
				t.Errorf("budget note shown = %v, want %v", note, tt.wantNote)
			}
			// The text is the rendering of the structured result the client got.
			direct, err := s.Search(SearchArgs{Query: "sales report"})
			if err != nil {
				t.Fatal(err)
			}
			if direct.Text() != text {
				t.Errorf("client read\n%s\nbut the result renders as\n%s", text, direct.Text())
			}
		})
	}
}
