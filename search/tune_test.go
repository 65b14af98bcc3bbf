package search

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"os"
	"slices"
	"testing"
)

// The second stage's weights are fitted here by coordinate ascent on the development
// split, and checked on queries the fit did not see. It runs only when asked:
//
//	SEARCH_TUNE=1 go test -run TestFitRerank -v ./search/
//
// For each way of halving the queries (by a hash of the query id, by a hash of the expected
// tools so that no tool is a target in both halves, by category) it fits on one half and
// scores the other, both ways round; then it fits on all queries.

type tuneQuery struct {
	id, category string
	groups       [][]string
	cands        []tuneCand
}

type tuneCand struct {
	id   string
	tier int
	f    [numFeatures]float64
}

// collectTune runs every query once and keeps its first-stage candidates with their features.
func collectTune(ix *Index, qs []EvalQuery) []tuneQuery {
	defer func() { ix.rerankHook = nil }()
	var cur *tuneQuery
	ix.rerankHook = func(rr *reranker, cs []candidate) {
		for i := range cs {
			c := &cs[i]
			cur.cands = append(cur.cands, tuneCand{id: ix.slots[c.slot].id, tier: int(c.tier), f: rr.features(c)})
		}
	}
	out := make([]tuneQuery, len(qs))
	for i, q := range qs {
		cur = &out[i]
		*cur = tuneQuery{id: q.ID, category: q.Category, groups: q.groups()}
		ix.Search(Query{Text: q.Query, Limit: evalDepth})
	}
	return out
}

// evalWeights scores the rankings that weights w give.
func evalWeights(tqs []tuneQuery, w [numFeatures]float64) Metrics {
	var m Metrics
	type scored struct {
		id    string
		tier  int
		score float64
	}
	var buf []scored
	ids := make([]string, 0, evalDepth)
	for i := range tqs {
		q := &tqs[i]
		buf = buf[:0]
		for _, c := range q.cands {
			x := 0.0
			for j := range w {
				x += w[j] * c.f[j]
			}
			buf = append(buf, scored{c.id, c.tier, x})
		}
		slices.SortFunc(buf, func(a, b scored) int {
			return cmp.Or(cmp.Compare(b.tier, a.tier), cmp.Compare(b.score, a.score), cmp.Compare(a.id, b.id))
		})
		ids = ids[:0]
		for _, s := range buf[:min(evalDepth, len(buf))] {
			ids = append(ids, s.id)
		}
		r, _ := scoreRanking(ids, q.groups)
		m.add(r)
	}
	m.average()
	return m
}

func objective(m Metrics) float64 { return m.RecallAt1 + m.RecallAt5 }

// fitWeights improves w by coordinate ascent: each weight but the first (which fixes the
// scale) in turn takes the value of a grid around it that scores best, until no step helps.
func fitWeights(tqs []tuneQuery, w [numFeatures]float64) [numFeatures]float64 {
	steps := []float64{-1, -0.5, -0.25, -0.1, -0.05, 0.05, 0.1, 0.25, 0.5, 1}
	best := objective(evalWeights(tqs, w))
	for range 20 {
		improved := false
		for i := 1; i < numFeatures; i++ {
			for _, d := range steps {
				v := w
				v[i] += d
				if o := objective(evalWeights(tqs, v)); o > best+1e-9 {
					best, w, improved = o, v, true
				}
			}
		}
		if !improved {
			break
		}
	}
	return w
}

func formatMetrics(m Metrics) string {
	return fmt.Sprintf("R@1 %.3f R@5 %.3f R@10 %.3f MRR %.3f (%d queries)", m.RecallAt1, m.RecallAt5, m.RecallAt10, m.MRR, m.Queries)
}

// categoryHalf puts about half the queries, by category, in half A: the categories of
// BFCL's single-turn sets with many near-duplicate tools on one side, multi-turn and
// multi-tool requests mostly on the other.
func categoryHalf(c string) bool {
	switch c {
	case "live_multiple", "simple_python", "parallel", "simple_java", "live_parallel":
		return true
	}
	return false
}

func hashHalf(s string) bool {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()%2 == 0
}

func TestFitRerank(t *testing.T) {
	if os.Getenv("SEARCH_TUNE") == "" {
		t.Skip("set SEARCH_TUNE=1 to fit the rerank weights")
	}
	tools, qs := loadDev(t)
	ix := NewIndex()
	ix.Add(toolDocs(tools, "")...)
	tqs := collectTune(ix, qs)
	without := rerankWeights
	without[featNameFit] = 0
	t.Logf("first stage only: %s", formatMetrics(evalWeights(tqs, without)))
	t.Logf("current %.2f:  %s", rerankWeights, formatMetrics(evalWeights(tqs, rerankWeights)))
	splits := []struct {
		name string
		inA  func(q *tuneQuery) bool
	}{
		{"query id hash", func(q *tuneQuery) bool { return hashHalf(q.id) }},
		{"expected tools hash", func(q *tuneQuery) bool { return hashHalf(fmt.Sprint(q.groups)) }},
		{"category", func(q *tuneQuery) bool { return categoryHalf(q.category) }},
	}
	for _, sp := range splits {
		var a, b []tuneQuery
		for _, q := range tqs {
			if sp.inA(&q) {
				a = append(a, q)
			} else {
				b = append(b, q)
			}
		}
		for _, dir := range []struct {
			name      string
			fit, test []tuneQuery
		}{{"A->B", a, b}, {"B->A", b, a}} {
			w := fitWeights(dir.fit, without)
			t.Logf("by %s, %s: fitted %.2f", sp.name, dir.name, w)
			t.Logf("    held out, first stage: %s", formatMetrics(evalWeights(dir.test, without)))
			t.Logf("    held out, reranked:    %s", formatMetrics(evalWeights(dir.test, w)))
		}
	}
	w := fitWeights(tqs, without)
	t.Logf("fit on all: %.2f: %s", w, formatMetrics(evalWeights(tqs, w)))
}

// TestDevHalves reports the metrics of the current ranking on each half of the development
// split, for the halves TestFitRerank uses:
//
//	go test -run TestDevHalves -v ./search/
func TestDevHalves(t *testing.T) {
	tools, qs := loadDev(t)
	ix := NewIndex()
	ix.Add(toolDocs(tools, "")...)
	for _, sp := range []struct {
		name string
		inA  func(q *EvalQuery) bool
	}{
		{"query id hash", func(q *EvalQuery) bool { return hashHalf(q.ID) }},
		{"expected tools hash", func(q *EvalQuery) bool { return hashHalf(fmt.Sprint(q.groups())) }},
		{"category", func(q *EvalQuery) bool { return categoryHalf(q.Category) }},
	} {
		var a, b []EvalQuery
		for _, q := range qs {
			if sp.inA(&q) {
				a = append(a, q)
			} else {
				b = append(b, q)
			}
		}
		ra, rb := Evaluate(ix, a, EvalOptions{}), Evaluate(ix, b, EvalOptions{})
		t.Logf("by %s: A %s", sp.name, formatMetrics(ra.Metrics))
		t.Logf("by %s: B %s", sp.name, formatMetrics(rb.Metrics))
	}
}
