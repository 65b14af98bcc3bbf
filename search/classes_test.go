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
