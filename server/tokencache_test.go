package server

import (
	"encoding/json"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader/catalog"
)

// hugeCatalog adds to testCatalog a tool described in one line of size
// bytes, with a large schema, and a skill whose body is long.
func hugeCatalog(t *testing.T, size int) *catalog.Catalog {
	t.Helper()
	c := testCatalog(t)
	huge := &mcp.Tool{
		Name:        "huge",
		Description: "Frobnicate the widgets. " + strings.Repeat("Lorem ipsum dolor sit amet, widgets frobnicated. ", size/50),
		InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string","description":"` + strings.Repeat("long ", 4000) + `"}}}`),
	}
	odd := &mcp.Tool{Name: "odd", Description: "  /leading slash and spaces\n\n  indented\n/again", InputSchema: json.RawMessage(`{"type":"object"}`)}
	c.Put(&catalog.Source{Name: "big", Kind: catalog.SourceServer, State: catalog.StateActive, Entries: []*catalog.Entry{
		catalog.NewToolEntry("big", "big__huge", huge), catalog.NewToolEntry("big", "big__odd", odd),
	}})
	return c
}

// TestCountResultExact checks that counting a result item by item gives
// the count of its whole text, whatever the items hold.
func TestCountResultExact(t *testing.T) {
	for _, budget := range []int{100, 1000, DefaultResultBudget, 1 << 20} {
		s, err := New(hugeCatalog(t, 64<<10), Options{ResultBudget: budget})
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range []SearchArgs{
			{Query: "frobnicate widgets"}, {Query: "select:big__huge,big__odd,srv__echo"}, {Query: "leading slash"},
			{Query: "echo", Detail: DetailCompact}, {Query: ""}, {Query: "", Limit: 2}, {Query: "nothing matches this"},
			{Queries: []string{"frobnicate widgets", "echo", "leading slash"}}, {Queries: []string{"echo", "nothing matches this"}},
		} {
			res, err := s.Search(args)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := s.countResult(res), s.Tokens().Count(res.Text()); got != want {
				t.Errorf("budget %d, %+v: counted %d item by item, %d whole", budget, args, got, want)
			}
			if res.text != res.Text() {
				t.Errorf("budget %d, %+v: the text kept differs from the text rendered", budget, args)
			}
		}
		s.Close()
	}
}

// TestLargeDescriptionCountedOnce checks that a search returning a tool
// with a large description does not send it through the tokenizer again:
// a second search allocates little beyond rendering the text, where
// tokenizing it allocates many times its size.
func TestLargeDescriptionCountedOnce(t *testing.T) {
	const size = 1 << 20
	s, err := New(hugeCatalog(t, size), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	search := func() {
		if _, err := s.Search(SearchArgs{Query: "select:big__huge"}); err != nil {
			t.Fatal(err)
		}
	}
	search() // counts it once
	// TotalAlloc counts the whole process, whatever else runs meanwhile: the
	// least of a few searches is this search's own. Counting again would
	// allocate over 100 times the size on every one of them.
	least := uint64(math.MaxUint64)
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		search()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	if least > 16*size {
		t.Errorf("a search returning a %d-byte description allocated %d bytes; counted again?", size, least)
	}
}

func TestCountCacheBounded(t *testing.T) {
	s, err := New(testCatalog(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := newCountCache(s.Tokens())
	for i := range maxCachedTexts + 10 {
		c.remember(countKey{sum: [2]uint64{uint64(i)}}, i)
	}
	if n := len(c.counts); n > maxCachedTexts || n == 0 {
		t.Errorf("%d counts kept; the bound is %d", n, maxCachedTexts)
	}
	// A text long enough to be kept is counted once.
	long := strings.Repeat("word ", minCachedText/5+1)
	if a, b := c.count(long, true), c.count(long, true); a != b || a != s.Tokens().Count(long+itemSep) {
		t.Errorf("counts %d, %d; want %d", a, b, s.Tokens().Count(long+itemSep))
	}
}

// BenchmarkSearchHugeDescription searches for a tool described in 10 MB, as
// an upstream may describe one: the description is counted once, not on
// every search that returns it.
func BenchmarkSearchHugeDescription(b *testing.B) {
	c := catalog.New(ReservedNames...)
	huge := &mcp.Tool{
		Name:        "huge",
		Description: "Frobnicate the widgets. " + strings.Repeat("Lorem ipsum dolor sit amet, widgets frobnicated. ", (10<<20)/50),
		InputSchema: json.RawMessage(`{"type":"object"}`),
	}
	c.Put(&catalog.Source{Name: "big", Kind: catalog.SourceServer, State: catalog.StateActive, Entries: []*catalog.Entry{catalog.NewToolEntry("big", "big__huge", huge)}})
	s, err := New(c, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	search := func() {
		if _, err := s.Search(SearchArgs{Query: "frobnicate widgets"}); err != nil {
			b.Fatal(err)
		}
	}
	search() // the first search counts it
	for b.Loop() {
		search()
	}
}
