package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

func TestShownInstructions(t *testing.T) {
	server := func(text string) *catalog.Source {
		return &catalog.Source{Name: "srv", Kind: catalog.SourceServer, Instructions: text}
	}
	long := strings.Repeat("word ", 1000)
	tests := []struct {
		name string
		src  *catalog.Source
		want string
	}{
		{"none", server(""), ""},
		{"not a server", &catalog.Source{Name: "skills", Kind: catalog.SourceSkills, Instructions: "x"}, ""},
		{"nil", nil, ""},
		{"whitespace runs become one space", server("  Use\n\n\tthe tools.  \n"), "Use the tools."},
		{"hidden characters go", server("Say\u200b hi\u202e to\u0007 me\U000E0041\uE000."), "Say hi to me."},
		{"clipped", server(long), strings.TrimSpace(long[:MaxShownInstructions]) + " […]"},
		{"a long run of hidden characters before the text is not read whole", server(strings.Repeat("\u200b", 1<<20) + "text"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ShownInstructions(tt.src)
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if len(got) > MaxShownInstructions+len(" […]") {
				t.Errorf("%d bytes", len(got))
			}
		})
	}
}

// A server's instructions come with its tools where the model is about to
// call them (full detail), once per result, and give way first to the
// result budget.
func TestSearchShowsServerInstructions(t *testing.T) {
	c := catalog.New(ReservedNames...)
	instr := "Call find_docs first." + strings.Repeat(" Pages are numbered from one.", 8)
	schema := `{"type":"object","properties":{"q":{"type":"string","description":"` + strings.Repeat("The query to look up. ", 20) + `"}}}`
	var entries []*catalog.Entry
	for _, name := range []string{"find_docs", "find_code"} {
		entries = append(entries, catalog.NewToolEntry("srv", "srv__"+name, &mcp.Tool{Name: name, Description: "Find docs and code.", InputSchema: json.RawMessage(schema)}))
	}
	c.Put(&catalog.Source{Name: "srv", Kind: catalog.SourceServer, State: catalog.StateActive, Instructions: instr, Entries: entries})
	c.Put(&catalog.Source{Name: "quiet", Kind: catalog.SourceServer, State: catalog.StateActive,
		Entries: []*catalog.Entry{catalog.NewToolEntry("quiet", "quiet__find", &mcp.Tool{Name: "find", Description: "Find docs.", InputSchema: json.RawMessage(`{"type":"object"}`)})}})
	s, err := New(c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	line := "Instructions of server srv (its own words): " + instr
	res, _ := s.Search(SearchArgs{Query: "find docs code"})
	if text := res.Text(); strings.Count(text, line) != 1 || res.Instructions["srv"] != instr || len(res.Instructions) != 1 {
		t.Errorf("full detail: %v\n%s", res.Instructions, text)
	}
	for _, detail := range []string{DetailCompact, DetailNames} {
		if res, _ := s.Search(SearchArgs{Query: "find docs code", Detail: detail}); res.Instructions != nil || strings.Contains(res.Text(), line) {
			t.Errorf("%s: %v", detail, res.Instructions)
		}
	}
	full, _ := s.Search(SearchArgs{Query: "select:srv__find_docs"})
	tight, err := New(c, Options{ResultBudget: s.countResult(full) - 1})
	if err != nil {
		t.Fatal(err)
	}
	defer tight.Close()
	res, _ = tight.Search(SearchArgs{Query: "select:srv__find_docs"})
	if res.Instructions != nil || res.Results[0].Detail != DetailFull || !strings.Contains(res.Text(), "Note: server instructions left out to fit the result budget") {
		t.Errorf("over budget: %v %s\n%s", res.Instructions, res.Results[0].Detail, res.Text())
	}
}
