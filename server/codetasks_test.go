package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/server/codemode"
)

// trackerUpstream is an issue tracker with 40 issues: list_issues returns
// them all (the large intermediate result), get_issue one with its thread.
type trackerUpstream struct{}

func (trackerUpstream) Call(_ context.Context, _, tool string, args json.RawMessage) (*mcp.CallToolResult, error) {
	issue := func(i int) map[string]any {
		return map[string]any{"id": i, "title": fmt.Sprintf("Issue %d: the importer drops rows when the batch size exceeds the page size", i),
			"state": "open", "updated": fmt.Sprintf("2026-%02d-01", 1+i%12), "labels": []string{"bug", "importer"}, "assignee": "dev" + fmt.Sprint(i%5)}
	}
	var v any
	switch tool {
	case "list_issues":
		var all []any
		for i := range 40 {
			all = append(all, issue(i))
		}
		v = map[string]any{"issues": all}
	default:
		var a struct{ ID int }
		_ = json.Unmarshal(args, &a)
		is := issue(a.ID)
		is["comments"] = []string{strings.Repeat("I can reproduce this with the nightly build and a batch of 5000 rows. ", 6), "Same here."}
		v = is
	}
	raw, _ := json.Marshal(v)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(raw)}}, StructuredContent: v}, nil
}

// TestCodeModeSaves: on a task whose intermediate results are large, one
// script costs at most a fifth of the tokens of the same calls made one
// by one; on a single call, no more than the proxy.
func TestCodeModeSaves(t *testing.T) {
	c := catalog.New(ReservedNames...)
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true}
	c.Put(&catalog.Source{Name: "tracker", Kind: catalog.SourceServer, State: catalog.StateActive, Entries: []*catalog.Entry{
		catalog.NewToolEntry("tracker", "tracker__list_issues", &mcp.Tool{Name: "list_issues", Description: "List issues.", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: ro}),
		catalog.NewToolEntry("tracker", "tracker__get_issue", &mcp.Tool{Name: "get_issue", Description: "Get an issue.", InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"}}}`), Annotations: ro}),
	}})
	s, err := New(c, Options{Upstreams: trackerUpstream{}, CodeMode: &codemode.Limits{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tasks := []CodeTask{
		{Name: "stale issues: list 40, read the 3 stalest, count who reproduced", Tools: []string{"tracker__list_issues", "tracker__get_issue"}, Script: `stale = sorted(tracker__list_issues()['issues'], key=lambda i: i['updated'])[:3]
for i in stale:
    d = tracker__get_issue(id=i['id'])
    print(i['id'], i['updated'], len([c for c in d['comments'] if 'reproduce' in c]))`},
		{Name: "one call", Tools: []string{"tracker__get_issue"}, Script: `tracker__get_issue(id=1)`},
	}
	costs := s.MeasureCode(t.Context(), tasks)
	if len(costs) != 2 {
		t.Fatalf("costs: %+v", costs)
	}
	for _, c := range costs {
		t.Logf("%s: %d calls, %d tokens call by call, %d as one script (%.2f)", c.Task, c.Calls, c.ProxyTokens, c.ScriptTokens, c.Ratio)
		if c.Error != "" {
			t.Errorf("%s failed: %s", c.Task, c.Error)
		}
	}
	if costs[0].Ratio > 0.2 {
		t.Errorf("a multi-step task costs %.2f of the calls one by one, want at most 0.2", costs[0].Ratio)
	}
	if costs[1].ScriptTokens > costs[1].ProxyTokens {
		t.Errorf("a single call costs %d tokens as a script, %d through the proxy", costs[1].ScriptTokens, costs[1].ProxyTokens)
	}
}
