package search

import (
	"fmt"
	"hash/fnv"
	"os"
	"strings"
	"testing"
)

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

// TestDevHalves reports the metrics of the current ranking on each half of the development
// split, halved by a hash of the query id, by a hash of the expected tools (so that no tool
// is a target in both halves) and by category:
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

func formatMetrics(m Metrics) string {
	return fmt.Sprintf("R@1 %.3f R@5 %.3f R@10 %.3f MRR %.3f (%d queries)", m.RecallAt1, m.RecallAt5, m.RecallAt10, m.MRR, m.Queries)
}

// TestCrossValidateDev runs the grouped cross-validation of the development split and the
// fit on all of it, which gives the shipped weights (defaultWeights). It takes a minute,
// so it runs only when asked:
//
//	SEARCH_TUNE=1 go test -run TestCrossValidateDev -v ./search/
func TestCrossValidateDev(t *testing.T) {
	if os.Getenv("SEARCH_TUNE") == "" {
		t.Skip("set SEARCH_TUNE=1 to cross-validate the dev split")
	}
	tools, qs := loadDev(t)
	ix := NewIndex()
	ix.Add(toolDocs(tools, "")...)
	t.Logf("shipped weights: %s", formatMetrics(Evaluate(ix, qs, EvalOptions{}).Metrics))
	rep, err := CrossValidate(ix, qs, 5, EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	rep.WriteText(&b, false)
	t.Logf("grouped 5-fold cross-validation:\n%s", b.String())
	w := ix.fit(qs, neutralWeights, "")
	t.Logf("fitted on all: %s: %s", w, formatMetrics(Evaluate(ix, qs, EvalOptions{}).Metrics))
}
