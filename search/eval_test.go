package search

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"
)

const evalJSONL = `{"id":"q1","query":"weather in Paris","expected":["weather_get"],"category":"a"}
{"id":"q2","query":"send an email and check the weather","expected":["send_email","weather_get"],"expected_groups":[["send_email"],["weather_get"]],"category":"a"}

{"id":"q3","query":"play a song","expected":["play_music"],"category":"b"}
{"id":"q4","query":"translate this sentence","expected":["stock_price"],"expected_groups":[["stock_price","translate_text"]],"category":"b"}
`

func evalIndex() *Index {
	ix := NewIndex()
	ix.Add(
		Document{ID: "weather_get", Name: "weather_get", Kind: KindTool, Description: "Get the current weather for a city."},
		Document{ID: "stock_price", Name: "stock_price", Kind: KindTool, Description: "Get the stock price of a company."},
		Document{ID: "send_email", Name: "send_email", Kind: KindTool, Description: "Send an email message to a recipient."},
		Document{ID: "translate_text", Name: "translate_text", Kind: KindTool, Description: "Translate text into another language."},
	)
	return ix
}

func TestEvaluate(t *testing.T) {
	qs, err := ReadEvalQueries(strings.NewReader(evalJSONL))
	if err != nil {
		t.Fatal(err)
	}
	rep := Evaluate(evalIndex(), qs, EvalOptions{Misses: 5})
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	// q1 and q4 are found first; q2 finds both tools in the top 5 but only one first; q3's
	// tool is not in the catalog.
	if rep.Queries != 4 {
		t.Errorf("Queries = %d, want 4", rep.Queries)
	}
	near("R@1", rep.RecallAt1, (1+0.5+0+1)/4.0)
	near("R@5", rep.RecallAt5, 0.75)
	near("R@10", rep.RecallAt10, 0.75)
	near("MRR", rep.MRR, 0.75)
	if len(rep.ByCategory) != 2 || rep.ByCategory[0].Category != "a" || rep.ByCategory[1].Category != "b" {
		t.Fatalf("ByCategory = %+v", rep.ByCategory)
	}
	a, b := rep.ByCategory[0], rep.ByCategory[1]
	near("a R@1", a.RecallAt1, 0.75)
	near("a R@5", a.RecallAt5, 1)
	near("a MRR", a.MRR, 1)
	near("b R@1", b.RecallAt1, 0.5)
	near("b R@5", b.RecallAt5, 0.5)
	near("b MRR", b.MRR, 0.5)
	if b.Queries != 2 {
		t.Errorf("b Queries = %d, want 2", b.Queries)
	}
	if len(rep.Misses) != 1 || rep.Misses[0].ID != "q3" || rep.Misses[0].Rank != 0 {
		t.Fatalf("Misses = %+v, want only q3", rep.Misses)
	}

	var out bytes.Buffer
	if err := rep.WriteText(&out, true); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"R@5", "all", "0.750", "q3 [b]", "play_music"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, out.String())
		}
	}
	if rep := Evaluate(evalIndex(), qs, EvalOptions{}); len(rep.Misses) != 0 {
		t.Errorf("Misses = %d without asking", len(rep.Misses))
	}
	// At depth 1, q2 (one of its two tools is second) is a miss as well.
	at1 := Evaluate(evalIndex(), qs, EvalOptions{Misses: 5, MissesAt: 1})
	var ids []string
	for _, m := range at1.Misses {
		ids = append(ids, m.ID)
	}
	if slices.Sort(ids); !slices.Equal(ids, []string{"q2", "q3"}) || at1.MissesAt != 1 {
		t.Errorf("misses at 1 = %v (depth %d), want q2, q3 at 1", ids, at1.MissesAt)
	}
	out.Reset()
	if err := at1.WriteText(&out, false); err != nil || !strings.Contains(out.String(), "not in the top 1") {
		t.Errorf("text report at depth 1 = %q, %v", out.String(), err)
	}
}

func TestScoreRanking(t *testing.T) {
	m, first := scoreRanking([]string{"x", "b", "y", "a"}, [][]string{{"a"}, {"b", "c"}, {"d"}})
	if first != 2 || m.MRR != 0.5 || m.RecallAt1 != 0 || math.Abs(m.RecallAt5-2.0/3) > 1e-9 {
		t.Errorf("got %+v, first %d", m, first)
	}
}

func TestReadEvalQueriesErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"{\"id\":\"a\",\"query\":\"q\",\"expected\":[\"x\"]}\n\n{bad json\n", "line 3"},
		{"{\"id\":\"a\",\"query\":\"q\"}\n", "line 1: query \"a\" has no expected tools"},
	} {
		_, err := ReadEvalQueries(strings.NewReader(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("error = %v, want it to mention %q", err, tt.want)
		}
	}
}

// TestEvaluateSplit scores a request that lists its needs both as one search and as a
// search per need, interleaved.
func TestEvaluateSplit(t *testing.T) {
	ix := evalIndex()
	qs := []EvalQuery{{
		ID: "two", Query: "weather email", Queries: []string{"current weather city", "send email message"},
		ExpectedGroups: [][]string{{"weather_get"}, {"send_email"}},
	}, {ID: "one", Query: "stock price", Expected: []string{"stock_price"}}}
	rep := Evaluate(ix, qs, EvalOptions{})
	if rep.Split == nil {
		t.Fatal("no split report")
	}
	if rep.Split.Split.Queries != 1 || rep.Split.AsOne.Queries != 1 {
		t.Errorf("split report counts %d and %d queries, want 1 each", rep.Split.AsOne.Queries, rep.Split.Split.Queries)
	}
	if rep.Split.Split.RecallAt5 != 1 || rep.Split.Split.RecallAt1 != 0.5 {
		t.Errorf("split: R@1 %v R@5 %v, want 0.5 and 1", rep.Split.Split.RecallAt1, rep.Split.Split.RecallAt5)
	}
	if rep := Evaluate(ix, qs[1:], EvalOptions{}); rep.Split != nil {
		t.Errorf("split report without any query listing needs: %+v", rep.Split)
	}
}

func TestInterleave(t *testing.T) {
	got := interleave([][]string{{"a", "b", "c"}, {"b", "d"}, {}}, 4)
	if want := []string{"a", "b", "d", "c"}; !slices.Equal(got, want) {
		t.Errorf("interleave = %v, want %v", got, want)
	}
	if got := interleave([][]string{{"a", "b"}, {"c", "d"}}, 3); !slices.Equal(got, []string{"a", "c", "b"}) {
		t.Errorf("interleave to 3 = %v", got)
	}
}
