package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/server/codemode"
)

// A tool's results are known to be large from its definition: an output
// schema that holds an array, or a name that lists, searches or queries.
func TestLargeResults(t *testing.T) {
	for _, tc := range []struct {
		name, output string
		want         bool
	}{
		{"list_issues", "", true},
		{"searchDocs", "", true},
		{"project_docs_search", "", true},
		{"run-query", "", true},
		{"export_table", "", true},
		{"get_weather", "", false},
		{"get_weather", `{"type":"object","properties":{"city":{"type":"string"}}}`, false},
		{"playlist", "", false}, // a word of its own, not "list"
		{"get_issues", `{"type":"object","properties":{"issues":{"type":"array","items":{"type":"object"}}}}`, true},
		{"get_rows", `{"type":"object","properties":{"page":{"type":"object","properties":{"rows":{"type":["array","null"]}}}}}`, true},
		{"get_all", `{"type":"array"}`, true},
	} {
		tool := &mcp.Tool{Name: tc.name}
		if tc.output != "" {
			tool.OutputSchema = json.RawMessage(tc.output)
		}
		if got := largeResults(tool); got != tc.want {
			t.Errorf("largeResults(%s, output %s) = %v, want %v", tc.name, tc.output, got, tc.want)
		}
	}
}

// With code mode on, a search result for a tool whose results are large
// names the script tool that can call it, the one of its proxy's class;
// with code mode off, or for a tool of small results, no result does.
func TestSearchNotesLargeResults(t *testing.T) {
	tool := func(name string, a *mcp.ToolAnnotations) *catalog.Entry {
		return catalog.NewToolEntry("srv", "srv__"+name, &mcp.Tool{Name: name, Description: "The " + name + " tool for issues.", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: a})
	}
	catalog := func() *catalog.Catalog {
		c := catalog.New(ReservedNames...)
		c.Put(&catalog.Source{Name: "srv", Kind: catalog.SourceServer, State: catalog.StateActive, Entries: []*catalog.Entry{
			tool("list_issues", &mcp.ToolAnnotations{ReadOnlyHint: true}),
			tool("get_issue", &mcp.ToolAnnotations{ReadOnlyHint: true}),
			tool("search_everything", nil),
			tool("list_and_label", &mcp.ToolAnnotations{DestructiveHint: ptr(false)}),
		}})
		return c
	}
	want := map[string]string{
		"srv__list_issues":       "results can be large: a run_code_read script can keep what you need",
		"srv__search_everything": "results can be large: a run_code script can keep what you need",
	}
	for _, on := range []bool{false, true} {
		opts := Options{Upstreams: &fakeUpstreams{}}
		if on {
			opts.CodeMode = &codemode.Limits{}
		}
		s, err := New(catalog(), opts)
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Search(SearchArgs{Query: "issues", Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		text := res.Text()
		if len(res.Results) != 4 {
			t.Fatalf("code mode %v: %d results, want 4:\n%s", on, len(res.Results), text)
		}
		for _, it := range res.Results {
			note := ""
			if on {
				note = want[it.Name]
			}
			got := ""
			for _, n := range it.Notes {
				if strings.HasPrefix(n, "results can be large") {
					got = n
				}
			}
			if got != note {
				t.Errorf("code mode %v, %s: note %q, want %q", on, it.Name, got, note)
			}
			if note != "" && !strings.Contains(text, "["+note+"]") {
				t.Errorf("code mode %v: the text does not carry %s's note:\n%s", on, it.Name, text)
			}
		}
		s.Close()
	}
}
