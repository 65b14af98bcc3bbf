package server

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/server/tokens"
)

// hugeDescription is a tool description of about n bytes: a first sentence,
// then numbered paragraphs, so that every page of it can be told apart.
func hugeDescription(n int) string {
	var b strings.Builder
	b.WriteString("Export the warehouse ledger as a spreadsheet.")
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "\nParagraph %d of the ledger export's manual: columns, totals and the rules for rounding each of them.", i)
	}
	return b.String()[:n]
}

func oversizedServer(t *testing.T, desc string, budget int) *Server {
	t.Helper()
	c := catalog.New(ReservedNames...)
	schema := json.RawMessage(`{"type":"object","properties":{"ledger":{"type":"string","description":"Which ledger."}},"required":["ledger"]}`)
	tool := &mcp.Tool{Name: "export_ledger", Description: desc, InputSchema: schema}
	small := &mcp.Tool{Name: "count_items", Description: "Count the items of a ledger.", InputSchema: json.RawMessage(`{"type":"object"}`)}
	c.Put(&catalog.Source{Name: "ledger", Kind: catalog.SourceTools, Entries: []*catalog.Entry{
		catalog.NewToolEntry("ledger", "export_ledger", tool),
		catalog.NewToolEntry("ledger", "count_items", small),
	}})
	s, err := New(c, Options{ResultBudget: budget})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

var cursorArg = regexp.MustCompile(`"cursor": "([^"]+)"`)

// A 249,000-character description once came back from select: cut to its
// first sentence with the advice to ask for it with select:, which gave
// the same again. select: gives the schema, a page of the description
// within a stated bound, its full size, and the cursor to read on; the
// pages, read to the end, are the whole description.
func TestSelectOversizedDescription(t *testing.T) {
	desc := hugeDescription(249_000)
	s := oversizedServer(t, desc, 8000)
	tok, err := tokens.Get("")
	if err != nil {
		t.Fatal(err)
	}
	var read strings.Builder
	args := SearchArgs{Query: "select:export_ledger"}
	for page := 0; ; page++ {
		if page > len(desc)/MaxDescriptionShown+1 {
			t.Fatalf("%d pages and the description is not read to its end", page)
		}
		res, err := s.Search(args)
		if err != nil {
			t.Fatalf("page %d: %v", page, err)
		}
		if len(res.Results) != 1 {
			t.Fatalf("page %d: %d results, want 1", page, len(res.Results))
		}
		it := res.Results[0]
		text := res.Text()
		if it.InputSchema == nil || !strings.Contains(text, `"ledger"`) {
			t.Errorf("page %d: no input schema:\n%.600s", page, text)
		}
		if strings.Contains(text, "ask for one with select:") {
			t.Errorf("page %d advises the call that produced it:\n%.600s", page, text)
		}
		if len(it.Description) > MaxDescriptionShown {
			t.Errorf("page %d shows %d bytes of the description, over the bound of %d", page, len(it.Description), MaxDescriptionShown)
		}
		if n := tok.Count(text); n > 8000 {
			t.Errorf("page %d is %d tokens, over the result budget", page, n)
		}
		read.WriteString(it.Description)
		m := cursorArg.FindStringSubmatch(it.More)
		if m == nil {
			if !strings.Contains(it.More, "249,000 bytes") || !strings.Contains(it.More, "end") {
				t.Errorf("last page's note %q: want the full size and that this is the end", it.More)
			}
			break
		}
		if !strings.Contains(it.More, "249,000 bytes") || !strings.Contains(it.More, `"select:export_ledger"`) {
			t.Errorf("page %d's note %q: want the full size and the call that reads on", page, it.More)
		}
		if !strings.Contains(text, it.More) {
			t.Errorf("page %d: the text lacks the note %q", page, it.More)
		}
		args = SearchArgs{Query: "select:export_ledger", Cursor: m[1]}
	}
	if read.String() != desc {
		t.Errorf("the pages read %d bytes and differ from the description of %d", read.Len(), len(desc))
	}
}

// A description cursor goes with select: of the one tool it belongs to.
func TestDescriptionCursorNeedsOneSelectedTool(t *testing.T) {
	s := oversizedServer(t, hugeDescription(40_000), 8000)
	res, err := s.Search(SearchArgs{Query: "select:export_ledger"})
	if err != nil {
		t.Fatal(err)
	}
	m := cursorArg.FindStringSubmatch(res.Results[0].More)
	if m == nil {
		t.Fatalf("no cursor in %q", res.Results[0].More)
	}
	for _, q := range []string{"ledger export", "select:export_ledger,count_items"} {
		_, err := s.Search(SearchArgs{Query: q, Cursor: m[1]})
		if err == nil || !strings.Contains(err.Error(), "select:") {
			t.Errorf("%q with a description cursor: %v, want an error that names select:", q, err)
		}
	}
	if _, err := s.Search(SearchArgs{Query: "select:export_ledger", Cursor: "bogus"}); err == nil {
		t.Error("an invalid cursor was accepted")
	}
}

// A description within the bound comes whole, with no note.
func TestSelectShortDescriptionWhole(t *testing.T) {
	desc := hugeDescription(MaxDescriptionShown)
	s := oversizedServer(t, desc, 8000)
	res, err := s.Search(SearchArgs{Query: "select:export_ledger"})
	if err != nil {
		t.Fatal(err)
	}
	if it := res.Results[0]; it.Description != desc || it.More != "" {
		t.Errorf("description of %d bytes, note %q: want it whole, no note", len(it.Description), it.More)
	}
}

// When even one selected definition is over the result budget, the note
// says so rather than advising select: again.
func TestSelectOverBudgetSaysSo(t *testing.T) {
	s := oversizedServer(t, hugeDescription(249_000), 300)
	res, err := s.Search(SearchArgs{Query: "select:export_ledger"})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Text()
	if strings.Contains(text, "ask for one with select:") {
		t.Errorf("advises the call that produced it:\n%s", text)
	}
	if !strings.Contains(text, "export_ledger is larger than the result budget of 300 tokens") {
		t.Errorf("no note that the definition is over the budget:\n%s", text)
	}
}
