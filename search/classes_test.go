package search

import (
	"slices"
	"testing"
)

// ranked returns the IDs of a query's best ten hits.
func ranked(ix *Index, q string) []string {
	return hitIDs(ix.Search(Query{Text: q, Limit: 10}))
}

// TestOpenersCarryNoNeed: "help me", "show me", "tell me", "give me" open a request and
// say nothing of the tool; counted, they found tools named for them.
func TestOpenersCarryNoNeed(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		Document{ID: "help_me", Name: "help_me", Description: "Shows what this server can do."},
		Document{ID: "plan_trip", Name: "plan_trip", Description: "Plan a trip with stops and dates."},
		Document{ID: "sql_db_show", Name: "sql_db_show", Description: "Show an SQL database."},
		Document{ID: "group_list", Name: "group_list", Description: "List the resource groups of a subscription."},
		Document{ID: "tell_joke", Name: "tell_joke", Description: "Tell a joke."},
	)
	checkRanked(t, ix, []rankCase{
		{"Help me plan a trip to Rome", "plan_trip", "help_me"},
		{"Show me my resource groups", "group_list", "sql_db_show"},
		{"Can you tell me how to plan a trip", "plan_trip", "tell_joke"},
		{"help", "help_me", ""},                          // a verb alone is a need
		{"tell a joke about databases", "tell_joke", ""}, // not followed by "me"
	})
}

// rankCase is a query, the hit it must have first and one it must not have at all ("" for
// none).
type rankCase struct{ query, want, not string }

func checkRanked(t *testing.T, ix *Index, cs []rankCase) {
	t.Helper()
	for _, c := range cs {
		ids := ranked(ix, c.query)
		if len(ids) == 0 || ids[0] != c.want || c.not != "" && slices.Contains(ids, c.not) {
			t.Errorf("%q: got %v, want %s first and no %s", c.query, ids, c.want, c.not)
		}
	}
}

// TestNumbersAreOneConcept: the numbers of a request are data for a tool, and a list of
// them is one piece of evidence. Counted one by one, each matched a ticket count's enum of
// 1 to 9, and the ticket tool outranked the statistics the numbers were data for.
func TestNumbersAreOneConcept(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		Document{ID: "buy_movie_tickets", Name: "buy_movie_tickets", Description: "Buy tickets for a movie show.",
			Params: []Param{{Name: "number_of_tickets", Description: "How many tickets.", Enum: []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}}}},
		Document{ID: "statistics_mode", Name: "statistics_mode", Description: "The mode of a list of data points.",
			Params: []Param{{Name: "data", Description: "The data points."}}},
		Document{ID: "statistics_range", Name: "statistics_range", Description: "The range of a list of data points.",
			Params: []Param{{Name: "data", Description: "The data points."}}},
	)
	checkRanked(t, ix, []rankCase{
		{"Also determine the mode for the points 3,4,5,2,8,5,7", "statistics_mode", ""},
		{"buy 3 tickets", "buy_movie_tickets", ""}, // one number still counts
	})
}

// TestArithmeticIsNoTime: "394 times 213" asks to multiply; stemmed, "times" was "time"
// and found clocks.
func TestArithmeticIsNoTime(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		Document{ID: "get_current_time", Name: "get_current_time", Description: "The current time in a time zone."},
		Document{ID: "multiply", Name: "multiply", Description: "Multiply two numbers."},
		Document{ID: "divide", Name: "divide", Description: "Divide one number by another."},
	)
	checkRanked(t, ix, []rankCase{
		{"what's 394 times 213?", "multiply", "get_current_time"},
		{"and 1,000 divided by 8", "divide", "get_current_time"},
		{"what times are the trains", "get_current_time", ""}, // no numbers: the word
	})
}

// TestSoftStage: a word no document has finds the catalog's word for the same thing
// through the word vectors ("painting": artwork), and the stage can be replaced or turned
// off.
func TestSoftStage(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		Document{ID: "arxiv_search", Name: "arxiv_search", Description: "Find research papers."},
		Document{ID: "museum_search", Name: "museum_search", Description: "Find artwork in the collection."},
	)
	const q = "find a painting by Monet"
	if ids := ranked(ix, q); len(ids) != 2 || ids[0] != "museum_search" {
		t.Errorf("%q: got %v, want museum_search first", q, ids)
	}
	ix.SetSoftStage(nil)
	if ids := ranked(ix, q); len(ids) == 0 || ids[0] != "arxiv_search" {
		t.Errorf("%q without the soft stage: got %v, want the tie broken by ID", q, ids)
	}
	ix.SetSoftStage(fixedStage{"painting": {{Term: "research", Similarity: 1}}})
	if ids := ranked(ix, q); len(ids) == 0 || ids[0] != "arxiv_search" {
		t.Errorf("%q with another stage: got %v, want arxiv_search first", q, ids)
	}
	// A word the catalog has is not softened: "find" stays "find".
	ix.SetSoftStage(fixedStage{"find": {{Term: "artwork", Similarity: 1}}})
	if ids := ranked(ix, "find"); len(ids) != 2 || ids[0] != "arxiv_search" {
		t.Errorf("find: got %v, want both, tied", ids)
	}
}

// fixedStage is a soft stage of fixed relations.
type fixedStage map[string][]RelatedTerm

func (f fixedStage) Prepare(func(string) bool) SoftVocabulary { return f }

func (f fixedStage) Related(term string, n int) []RelatedTerm {
	return f[normalize(term)][:min(n, len(f[normalize(term)]))]
}

// TestWordVectorsRelated: the vector stage proposes only the catalog's terms, above the
// floor, best first.
func TestWordVectorsRelated(t *testing.T) {
	catalog := map[string]bool{}
	for _, w := range []string{"movie", "music", "cinema", "protein"} {
		catalog[normalize(w)] = true
	}
	v := WordVectors{}.Prepare(func(t string) bool { return catalog[t] })
	got := v.Related(normalize("film"), 3)
	if len(got) == 0 || got[0].Term != normalize("movie") {
		t.Fatalf("film: %v, want movie first", got)
	}
	for i, r := range got {
		if !catalog[r.Term] || r.Similarity < softFloor || i > 0 && r.Similarity > got[i-1].Similarity {
			t.Errorf("film: %v: %s is not a catalog term above the floor, in order", got, r.Term)
		}
	}
	if got := v.Related("qzxv", 3); got != nil {
		t.Errorf("a word without a vector: %v", got)
	}
}
