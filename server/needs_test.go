package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// needsServer serves hotel, car and weather tools of a few servers.
func needsServer(t *testing.T, opts Options) *Server {
	t.Helper()
	c := catalog.New(ReservedNames...)
	var entries []*catalog.Entry
	for _, tool := range []struct{ name, desc string }{
		{"hotels__book_hotel", "Book a hotel room in a city."},
		{"travel__reserve_hotel", "Reserve a hotel room for given dates."},
		{"stays__hotel_booking", "Hotel booking with a loyalty number."},
		{"cars__rent_car", "Rent a car at an airport."},
		{"cars__car_rental_quote", "Quote the price to rent a car for given dates."},
		{"cars__list_rental_cars", "List the cars for rent at a branch."},
		{"weather__forecast", "Weather forecast for a city."},
		{"weather__current_weather", "Current weather of a city."},
		{"weather__weather_alerts", "Weather alerts for a region."},
	} {
		server, name, _ := strings.Cut(tool.name, "__")
		props := `{"type":"object","properties":{"city":{"type":"string","description":"The city, spelled out in full as it appears on a map of the region."}}}`
		entries = append(entries, catalog.NewToolEntry(server, tool.name, &mcp.Tool{Name: name, Description: tool.desc, InputSchema: json.RawMessage(props)}))
	}
	c.Put(&catalog.Source{Name: "tools", Kind: catalog.SourceTools, Entries: entries})
	s, err := New(c, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// TestSearchSeveralNeeds: each query of queries is ranked on its own, and the result
// groups the hits per query, so that copies of the first need's tools do not push the
// second need out.
func TestSearchSeveralNeeds(t *testing.T) {
	s := needsServer(t, Options{})
	res, err := s.Search(SearchArgs{Queries: []string{"book hotel", "rent a car"}, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Needs) != 2 || res.Needs[0].Query != "book hotel" || res.Needs[1].Query != "rent a car" {
		t.Fatalf("needs = %+v", res.Needs)
	}
	var first, second []string
	for _, it := range res.Results {
		switch it.Query {
		case "book hotel":
			first = append(first, it.Name)
		case "rent a car":
			second = append(second, it.Name)
		default:
			t.Errorf("%s answers query %q", it.Name, it.Query)
		}
	}
	if len(first) != 3 || len(second) == 0 || second[0] != "cars__rent_car" {
		t.Errorf("hotel results %v, car results %v; want three hotel tools, then the car tool first of its own", first, second)
	}
	text := res.Text()
	for _, want := range []string{"for 2 queries", `# "book hotel": 3 matched`, `# "rent a car":`, "## 1. cars__rent_car"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	// Only each query's best is in full: the others' schemas would crowd the budget.
	full := 0
	for _, it := range res.Results {
		if it.Detail == DetailFull {
			full++
		}
	}
	if full != 2 {
		t.Errorf("%d results in full detail, want 2 (the best of each query)", full)
	}
	// query and queries together: query is the first need.
	res, err = s.Search(SearchArgs{Query: "weather forecast", Queries: []string{"rent a car"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Needs) != 2 || res.Results[0].Name != "weather__forecast" {
		t.Errorf("query with queries: needs %+v, first %s", res.Needs, res.Results[0].Name)
	}
}

// TestSearchSeveralNeedsBudget: a result over budget loses the lowest-ranked results of
// every query in turn, never a whole query (it used to shed from the end).
func TestSearchSeveralNeedsBudget(t *testing.T) {
	queries := []string{"hotel room", "rent a car", "weather forecast"}
	all, err := needsServer(t, Options{ResultBudget: 100000}).Search(SearchArgs{Queries: queries})
	if err != nil {
		t.Fatal(err)
	}
	s := needsServer(t, Options{})
	budget := s.tok.Count(all.Text()) / 2
	s.opts.ResultBudget = budget
	res, err := s.Search(SearchArgs{Queries: queries})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) >= len(all.Results) {
		t.Fatalf("half the budget dropped nothing (%d results of %d)", len(res.Results), len(all.Results))
	}
	have := map[string]bool{}
	for _, it := range res.Results {
		have[it.Query] = true
	}
	if len(have) != 3 {
		t.Errorf("queries with results left: %v, want all three:\n%s", have, res.Text())
	}
	if n := s.tok.Count(res.Text()); n > budget {
		t.Errorf("result is %d tokens, over the budget of %d", n, budget)
	}
}

func TestSearchQueriesChecked(t *testing.T) {
	s := needsServer(t, Options{})
	for _, tc := range []struct {
		args SearchArgs
		want []string
	}{
		{SearchArgs{Queries: []string{"a", "b", "c", "d", "e", "f"}}, []string{"queries holds 6 searches; the limit is 5"}},
		{SearchArgs{Queries: []string{"hotel", " ", strings.Repeat("x", MaxQueryLen+1)}}, []string{"queries[1] is empty", "queries[2] is 4097 characters"}},
		{SearchArgs{Queries: []string{"hotel"}, Cursor: "b2Zmc2V0OjI"}, []string{"cursor continues an empty-query listing"}},
	} {
		_, err := s.Search(tc.args)
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%+v: error %v, want it to say %q", tc.args, err, w)
			}
		}
	}
}

// TestSearchNothingMatches: a query that matches nothing, in a language the catalog is
// not written in, still gets entries to start from, and says so.
func TestSearchNothingMatches(t *testing.T) {
	s := needsServer(t, Options{})
	for _, q := range []string{"สภาพอากาศวันนี้", "погода", "???"} {
		res, err := s.Search(SearchArgs{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		text := res.Text()
		if len(res.Results) == 0 || !res.Weak || res.Total != 0 || !strings.Contains(text, fmt.Sprintf("Nothing matches %q among 9 entries. Here are 5 entries to start from", q)) {
			t.Errorf("%q: %d results, weak %v, total %d:\n%s", q, len(res.Results), res.Weak, res.Total, text)
		}
	}
	res, err := s.Search(SearchArgs{Query: "+zeppelin hotel"})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Text(); len(res.Results) == 0 || !strings.Contains(text, `No entry has every +term of "+zeppelin hotel"`) {
		t.Errorf("unmet +term:\n%s", text)
	}
}
