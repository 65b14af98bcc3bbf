package search

import (
	"fmt"
	"maps"
	"strings"
	"testing"
)

func TestToolFolds(t *testing.T) {
	q := func(id string, tools ...string) EvalQuery { return EvalQuery{ID: id, Query: id, Expected: tools} }
	qs := []EvalQuery{
		q("a1", "weather"), q("a2", "weather"), q("a3", "weather"),
		q("b1", "hotel__book"), q("b2", "hotel__cancel"), // one server
		q("c1", "flight", "car"), q("c2", "car"), // one request needs both
		q("d1", "stocks"), q("d2", "news"), q("d3", "hotel__search", "taxi"),
	}
	fold, groups := toolFolds(qs, 3)
	if groups != 5 { // weather; hotel + taxi; flight + car; stocks; news
		t.Errorf("groups = %d, want 5", groups)
	}
	same := [][]string{{"b1", "b2", "d3"}, {"c1", "c2"}, {"a1", "a2", "a3"}}
	at := map[string]int{}
	for i, q := range qs {
		at[q.ID] = fold[i]
	}
	for _, ids := range same {
		for _, id := range ids[1:] {
			if at[id] != at[ids[0]] {
				t.Errorf("%s in fold %d and %s in fold %d, want one fold", ids[0], at[ids[0]], id, at[id])
			}
		}
	}
	size := make([]int, 3)
	for _, f := range fold {
		size[f]++
	}
	for f, n := range size {
		if n < 3 || n > 4 {
			t.Errorf("fold %d has %d queries, want 3 or 4 (sizes %v)", f, n, size)
		}
	}
	again, _ := toolFolds(append([]EvalQuery{qs[9]}, qs[:9]...), 3)
	if again[0] != fold[9] || again[1] != fold[0] {
		t.Errorf("folds depend on the order of the queries")
	}
}

func TestCrossValidate(t *testing.T) {
	var docs []Document
	var qs []EvalQuery
	topics := []string{"weather", "invoice", "playlist", "ticket", "calendar", "recipe"}
	for i, topic := range topics {
		docs = append(docs,
			ToolDocument("get_"+topic, "get_"+topic, fmt.Sprintf("Returns the %s.", topic), nil),
			ToolDocument(fmt.Sprintf("misc_%d", i), fmt.Sprintf("misc_%d", i), fmt.Sprintf("Mentions %s in passing, and %s again.", topic, topic), nil))
		qs = append(qs, EvalQuery{ID: topic, Query: "get the " + topic, Expected: []string{"get_" + topic}})
	}
	ix := NewIndex()
	ix.Add(docs...)
	before := ix.weights
	rep, err := CrossValidate(ix, qs, 3, EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ix.weights != before {
		t.Errorf("weights not restored: %v, want %v", ix.weights, before)
	}
	if len(rep.Folds) != 3 || rep.Pooled.Queries != len(qs) {
		t.Fatalf("%d folds, %d pooled queries; want 3 and %d", len(rep.Folds), rep.Pooled.Queries, len(qs))
	}
	if rep.Mean.RecallAt1 != 1 {
		t.Errorf("mean R@1 = %.3f, want 1: the name says it all", rep.Mean.RecallAt1)
	}
	var b strings.Builder
	if err := rep.WriteText(&b, true); err != nil || !strings.Contains(b.String(), "min-max") {
		t.Errorf("WriteText: %v\n%s", err, b.String())
	}
	if _, err := CrossValidate(ix, qs, 1, EvalOptions{}); err == nil {
		t.Error("1 fold: no error")
	}
	if _, err := CrossValidate(ix, qs, 7, EvalOptions{}); err == nil {
		t.Error("7 folds of 6 tools: no error")
	}
}

// A pooled fit scores every set and leaves its weights in every index; on one set it is
// the plain fit.
func TestFitWeightsPooled(t *testing.T) {
	set := func(topics ...string) FitSet {
		var docs []Document
		var qs []EvalQuery
		for i, topic := range topics {
			docs = append(docs,
				ToolDocument("get_"+topic, "get_"+topic, "Returns it.", nil),
				ToolDocument(fmt.Sprintf("misc_%d", i), fmt.Sprintf("misc_%d", i), fmt.Sprintf("Mentions %s in passing, and %s again.", topic, topic), nil))
			qs = append(qs, EvalQuery{ID: topic, Query: topic + " please", Expected: []string{"get_" + topic}})
		}
		ix := NewIndex()
		ix.Add(docs...)
		return FitSet{Index: ix, Queries: qs}
	}
	a, b := set("weather", "invoice", "playlist"), set("ticket", "calendar", "recipe")
	w := FitWeightsPooled([]FitSet{a, b}, "")
	if w["field.name"] <= w["field.description"] {
		t.Errorf("fitted %v: the name, which says it all, should outweigh the description", w)
	}
	if a.Index.weights != b.Index.weights || a.Index.weights.Map()["field.name"] != w["field.name"] {
		t.Errorf("the indexes keep %v and %v, want %v", a.Index.weights, b.Index.weights, w)
	}
	one := set("weather", "invoice", "playlist")
	if got, want := FitWeightsPooled([]FitSet{one}, ""), FitWeights(set("weather", "invoice", "playlist").Index, one.Queries, ""); !maps.Equal(got, want) {
		t.Errorf("pooled over one set %v, plain fit %v", got, want)
	}
}
