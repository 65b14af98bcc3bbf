package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/server/tokens"
)

// syntheticCatalog makes a catalog of n tools spread over a few sources,
// with descriptions of realistic length.
func syntheticCatalog(n int) *catalog.Catalog {
	c := catalog.New(ReservedNames...)
	verbs := []string{"get", "list", "create", "update", "delete", "search", "send", "fetch"}
	nouns := []string{"issue", "pull_request", "message", "channel", "file", "record", "invoice", "ticket", "user", "event"}
	perSource := map[string][]*catalog.Entry{}
	var order []string
	for i := range n {
		src := fmt.Sprintf("server%d", i%7)
		name := fmt.Sprintf("%s__%s_%s_%d", src, verbs[i%len(verbs)], nouns[(i/len(verbs))%len(nouns)], i)
		t := &mcp.Tool{
			Name:        name,
			Description: fmt.Sprintf("%s a %s in the workspace by its identifier. Returns the %s with its fields, owners and history.", strings.ToUpper(verbs[i%len(verbs)][:1])+verbs[i%len(verbs)][1:], nouns[(i/len(verbs))%len(nouns)], nouns[(i/len(verbs))%len(nouns)]),
			InputSchema: map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{"type": "string", "description": "Identifier."}}, "required": []any{"id"}},
		}
		if _, ok := perSource[src]; !ok {
			order = append(order, src)
		}
		perSource[src] = append(perSource[src], catalog.NewToolEntry(src, name, t))
	}
	for _, src := range order {
		c.Put(&catalog.Source{Name: src, Kind: catalog.SourceTools, Entries: perSource[src]})
	}
	return c
}

func TestListingBudgetHoldsAtAnySize(t *testing.T) {
	count := tokens.MustGet(tokens.Default).Count
	for _, budget := range []int{0, 40, 120, DefaultListingBudget, 2000} {
		var sizes []int
		for _, n := range []int{0, 3, 100, 1000, 10000} {
			snap := syntheticCatalog(n).Snapshot()
			text := renderListing(snap, budget, count)
			got := count(text)
			if got > budget {
				t.Errorf("budget %d, %d tools: listing takes %d tokens:\n%s", budget, n, got, text)
			}
			if budget == 0 && text != "" {
				t.Errorf("budget 0 lists %q", text)
			}
			if budget >= 40 && !strings.Contains(text, fmt.Sprintf("%d tool", n)) {
				t.Errorf("budget %d, %d tools: listing does not state the count:\n%s", budget, n, text)
			}
			sizes = append(sizes, got)
		}
		// Once over budget the listing stays near the counts' part of it,
		// never growing.
		if budget > 0 && sizes[3] > 0 && (sizes[4] > budget || sizes[4] < countsBudget(budget)*3/4) {
			t.Errorf("budget %d: sizes %v, want the largest catalogs to fill the counts' budget", budget, sizes)
		}
	}
}

// A catalog of 40 tools named as the examples' are (a verb and a noun or
// two, from four servers) keeps a one-liner for each at the default budget.
func TestDefaultBudgetKeepsOneLinersOf40(t *testing.T) {
	c := catalog.New(ReservedNames...)
	verbs := []string{"get", "list", "create", "update", "delete", "search", "send", "read", "close", "merge"}
	nouns := []string{"issue", "pull_request", "message", "channel"}
	for s, noun := range nouns {
		src := &catalog.Source{Name: fmt.Sprintf("server%d", s), Kind: catalog.SourceServer}
		for _, verb := range verbs {
			name := src.Name + "__" + verb + "_" + noun
			desc := fmt.Sprintf("%s%s a %s of the workspace, with its fields and history.", strings.ToUpper(verb[:1]), verb[1:], noun)
			src.Entries = append(src.Entries, catalog.NewToolEntry(src.Name, name, &mcp.Tool{Name: name, Description: desc}))
		}
		c.Put(src)
	}
	text := renderListing(c.Snapshot(), DefaultListingBudget, tokens.MustGet(tokens.Default).Count)
	if n := strings.Count(text, " — "); n != 40 {
		t.Errorf("%d of 40 entries with a one-liner:\n%s", n, text)
	}
}

func TestListingDegradesInSteps(t *testing.T) {
	count := tokens.MustGet(tokens.Default).Count
	snap := syntheticCatalog(40).Snapshot()
	tests := []struct {
		budget int
		want   string // a sign of the step reached
	}{
		{5000, "[server0]\ndelete_channel_28 — Delete a channel in the workspace by its identifier."},
		{600, "delete_channel_28 — Delete a channel in the works…"},
		{400, "[server0] delete_channel_28, fetch_issue_7"},
		{150, "[server0] 6 entries: delete_channel_28"},
		{30, "Catalog: 40 tools from 7 sources; tool_search reaches all of them."},
	}
	for _, tt := range tests {
		text := renderListing(snap, tt.budget, count)
		if !strings.Contains(text, tt.want) {
			t.Errorf("budget %d: listing lacks %q:\n%s", tt.budget, tt.want, text)
		}
	}
}

// Claude Code cuts the description of an MCP tool that is not always loaded
// at 4 KB (CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH's default in 2.1).
func TestDefaultDescriptionUnder4KB(t *testing.T) {
	for _, n := range []int{3, 40, 50, 10000} {
		s, err := New(syntheticCatalog(n), Options{ListingBudget: DefaultListingBudget})
		if err != nil {
			t.Fatal(err)
		}
		if d := s.Description(); len(d) >= 4096 {
			t.Errorf("%d tools: description is %d bytes, want < 4096", n, len(d))
		}
		s.Close()
	}
}

// TestListingSaysWhatIsStarting: on a very first start the listing names
// the servers still starting rather than claim that tool_search reaches
// everything, and it carries no state that passes within seconds (hosts
// keep the listing for the whole session).
func TestListingSaysWhatIsStarting(t *testing.T) {
	count := tokens.MustGet(tokens.Default).Count
	tool := func(src, name string) *catalog.Entry {
		return catalog.NewToolEntry(src, src+"__"+name, &mcp.Tool{Name: name, Description: "Does " + name + ".", InputSchema: map[string]any{"type": "object"}})
	}
	listed := time.Now()
	for _, tc := range []struct {
		name    string
		sources []*catalog.Source
		want    string
		never   []string
	}{
		{"a very first start", []*catalog.Source{
			{Name: "github", Kind: catalog.SourceServer, State: catalog.StateConnecting},
			{Name: "slack", Kind: catalog.SourceServer, State: catalog.StateConnecting},
		}, "Catalog: 0 tools from 0 sources so far; 2 servers still starting (github, slack), whose tools tool_search finds once listed.", []string{"reaches all"}},
		{"one listed, one starting, one failed", []*catalog.Source{
			{Name: "github", Kind: catalog.SourceServer, State: catalog.StateActive, LastListed: listed, Entries: []*catalog.Entry{tool("github", "create_issue")}},
			{Name: "slack", Kind: catalog.SourceServer, State: catalog.StateConnecting},
			{Name: "jira", Kind: catalog.SourceServer, State: catalog.StateFailed},
		}, "Catalog: 1 tool from 1 source (tools named SERVER__TOOL) so far; 1 server still starting (slack), whose tools tool_search finds once listed; 1 server unavailable (jira: failed to start).\n[github]\n", []string{"reaches all", "(active)"}},
		{"a later start: last known catalogs", []*catalog.Source{
			{Name: "github", Kind: catalog.SourceServer, State: catalog.StateConnecting, Cached: true, LastListed: listed, Entries: []*catalog.Entry{tool("github", "create_issue")}},
			{Name: "slack", Kind: catalog.SourceServer, State: catalog.StateValidating, LastListed: listed, Entries: []*catalog.Entry{tool("slack", "post")}},
			{Name: "empty", Kind: catalog.SourceServer, State: catalog.StateActive, LastListed: listed},
		}, "Catalog: 2 tools from 2 sources (tools named SERVER__TOOL); tool_search reaches all of them.\n[github]\n", []string{"(connecting)", "(validating)", "(cached)", "so far"}},
		{"a failed server with a catalog", []*catalog.Source{
			{Name: "github", Kind: catalog.SourceServer, State: catalog.StateFailed, LastListed: listed, Entries: []*catalog.Entry{tool("github", "create_issue")}},
		}, "[github]\n", []string{"(failed)", "unavailable"}},
		{"a login to make", []*catalog.Source{
			{Name: "linear", Kind: catalog.SourceServer, State: catalog.StateNeedsAuth, LastListed: listed, Entries: []*catalog.Entry{tool("linear", "create")}},
			{Name: "notion", Kind: catalog.SourceServer, State: catalog.StateNeedsAuth},
		}, "1 server unavailable (notion: needs a login).\n[linear] (needs_auth)\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := catalog.New(ReservedNames...)
			for _, src := range tc.sources {
				c.Put(src)
			}
			text := renderListing(c.Snapshot(), 2000, count)
			if !strings.Contains(text, tc.want) {
				t.Errorf("listing lacks %q:\n%s", tc.want, text)
			}
			for _, bad := range tc.never {
				if strings.Contains(text, bad) {
					t.Errorf("listing has %q:\n%s", bad, text)
				}
			}
		})
	}
}
