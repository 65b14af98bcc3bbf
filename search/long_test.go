package search

import (
	"strings"
	"testing"
)

// longQueries is the hand-written set of long conversational requests over the dev
// catalog's MCP servers (see BENCHMARKS.md).
const longQueries = "testdata/long/queries.jsonl"

// TestLongQueriesLabels: every request of the long set names 2 to 6 needs, each of tools
// of the dev catalog's MCP servers (server__tool), and is a paragraph, not a keyword query.
func TestLongQueriesLabels(t *testing.T) {
	tools, _ := loadDev(t)
	names := map[string]bool{}
	for _, tool := range tools {
		names[tool.Name] = true
	}
	qs := readQueries(t, longQueries)
	if len(qs) < 60 {
		t.Errorf("%d requests, want at least 60", len(qs))
	}
	ids := map[string]bool{}
	for _, q := range qs {
		if ids[q.ID] {
			t.Errorf("%s: id used twice", q.ID)
		}
		ids[q.ID] = true
		if n := len(q.ExpectedGroups); n < 2 || n > 6 {
			t.Errorf("%s: %d needs, want 2 to 6", q.ID, n)
		}
		if n := len(strings.Fields(q.Query)); n < 20 {
			t.Errorf("%s: %d words, want a paragraph", q.ID, n)
		}
		for _, g := range q.ExpectedGroups {
			for _, name := range g {
				if _, _, ok := strings.Cut(name, "__"); !ok || !names[name] {
					t.Errorf("%s: %s is no MCP server's tool of the dev catalog", q.ID, name)
				}
			}
		}
	}
}
