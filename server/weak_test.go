package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

func TestWeakMatch(t *testing.T) {
	c := catalog.New(ReservedNames...)
	tool := func(name, desc, params string) *catalog.Entry {
		return catalog.NewToolEntry("t", name, &mcp.Tool{Name: name, Description: desc, InputSchema: json.RawMessage(params)})
	}
	c.Put(&catalog.Source{Name: "t", Kind: catalog.SourceTools, Entries: []*catalog.Entry{
		tool("send_email", "Send an email to a recipient.", `{"type":"object","properties":{"to":{"type":"string"}}}`),
		tool("read_pdf", "Read the text of a PDF file.", `{"type":"object","properties":{"path":{"type":"string","description":"The file, e.g. a bread recipe scanned as PDF."}}}`),
		tool("generate_chart", "Draw a scatter chart of data points.", `{"type":"object"}`),
		tool("say_hello", "Greet the user by name.", `{"type":"object"}`),
	}})
	s, err := New(c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tests := []struct {
		query string
		weak  bool
		first string
	}{
		{"send an email", false, "send_email"},
		{"bake sourdough bread", true, "read_pdf"}, // only a parameter mentions bread
		{"kubernetes helm chart", true, "generate_chart"},
		{"select:read_pdf", false, "read_pdf"},
		{"read_pdf", false, "read_pdf"},
		{"hello", false, "say_hello"}, // greetings are searchable
	}
	for _, tt := range tests {
		res, err := s.Search(SearchArgs{Query: tt.query})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Results) == 0 || res.Results[0].Name != tt.first || res.Weak != tt.weak {
			t.Errorf("%q: first %v, weak %v; want %s, %v", tt.query, res.Results, res.Weak, tt.first, tt.weak)
			continue
		}
		text := res.Text()
		if said := strings.HasPrefix(text, "No strong match for "+`"`+tt.query+`"`); said != tt.weak {
			t.Errorf("%q: the text says weak: %v:\n%s", tt.query, said, text)
		}
		data, _ := json.Marshal(res)
		if strings.Contains(string(data), `"weak":true`) != tt.weak {
			t.Errorf("%q: structured content %s", tt.query, data)
		}
	}
}
