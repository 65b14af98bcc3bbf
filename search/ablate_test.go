package search

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestParseAblation(t *testing.T) {
	a, err := ParseAblation(" needs, hints ,,")
	if err != nil {
		t.Fatal(err)
	}
	if a.on(RuleNeeds) || a.on(RuleHints) || !a.on(RuleOpeners) {
		t.Errorf("ParseAblation = %v, want needs and hints off and nothing else", a)
	}
	if got := a.String(); got != "needs,hints" {
		t.Errorf("String = %q, want needs,hints", got)
	}
	if _, err := ParseAblation("needs,nosuchrule"); err == nil {
		t.Error("ParseAblation took an unknown rule")
	}
	for _, r := range Rules() {
		if b, err := ParseAblation(r.Name); err != nil || b != (Ablation{}).Off(r.Rule) {
			t.Errorf("ParseAblation(%q) = %v, %v; want only it off", r.Name, b, err)
		}
	}
}

// TestAblatedFeatureStaysOff checks that a switched-off feature keeps a weight of 0
// whatever weights are set, so that a fit cannot take it up again.
func TestAblatedFeatureStaysOff(t *testing.T) {
	ix := NewIndexWith(Options{Ablate: Ablation{}.Off(RuleChangeAsked)})
	if w := ix.weights.rerank[featChangeAsked]; w != 0 {
		t.Fatalf("a new index weighs change_asked %v, want 0", w)
	}
	ix.setWeights(defaultWeights)
	if w := ix.weights.rerank[featChangeAsked]; w != 0 {
		t.Fatalf("after setWeights change_asked weighs %v, want 0", w)
	}
	if w := ix.weights.rerank[featNameFit]; w != defaultWeights.rerank[featNameFit] {
		t.Errorf("name_fit weighs %v, want the shipped %v", w, defaultWeights.rerank[featNameFit])
	}
}

// TestEveryRuleSwitches checks, on the dev split and the long requests, that switching
// each rule off changes some ranking: a switch that is never read would measure nothing.
func TestEveryRuleSwitches(t *testing.T) {
	tools, qs := loadDev(t)
	qs = append(qs, readQueries(t, filepath.Join("testdata", "long", "queries.jsonl"))...)
	qs = append(qs, readQueries(t, filepath.Join("testdata", "dev-keywords.jsonl"))...)
	docs := toolDocs(tools, "")
	build := func(a Ablation) [][]string {
		ix := NewIndexWith(Options{Ablate: a})
		ix.Add(docs...)
		return ix.rankAll(qs, "")
	}
	base := build(Ablation{})
	for _, r := range Rules() {
		switch r.Rule {
		case RuleGloss:
			continue // no request of the sets reaches it: TestGlossSwitches
		}
		got := build(Ablation{}.Off(r.Rule))
		if slices.EqualFunc(base, got, slices.Equal) {
			t.Errorf("--ablate %s changes no ranking of the dev split", r.Name)
		}
	}
}

func TestGlossSwitches(t *testing.T) {
	docs := []Document{
		{ID: "get_weather", Name: "get_weather", Description: "Current weather for a city"},
		{ID: "send_mail", Name: "send_mail", Description: "Send an email"},
	}
	for _, tc := range []struct {
		a    Ablation
		hits int
	}{{Ablation{}, 1}, {Ablation{}.Off(RuleGloss), 0}} {
		ix := NewIndexWith(Options{Ablate: tc.a})
		ix.Add(docs...)
		res := ix.Search(Query{Text: "天气"})
		n := 0
		for _, h := range res.Hits {
			if h.Match != MatchBrowse {
				n++
			}
		}
		if n != tc.hits {
			t.Errorf("ablate %q: %d hits that match 天气, want %d", tc.a, n, tc.hits)
		}
	}
}
