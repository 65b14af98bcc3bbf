package search

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
)

// Cross-validation grouped by tool answers the question a development split alone cannot:
// does what was fitted to its requests carry over to requests about other tools? A larger
// held-out split decides, and it holds tools (whole servers) that the development split has
// no request for.
//
// Folds hold tools, not queries. Tools are first joined into groups that must not be torn
// apart: the tools of one server (server__tool), and the tools that one request needs
// together (so that no request straddles two folds; a request needing a weather tool and a
// hotel tool puts both, and their servers, in one group). Groups go to the fold with the
// fewest requests so far, the groups with the most requests first, so that folds are of
// about equal size. A request belongs to the fold of its tools. Before a fold is scored,
// every fitted weight (see weights) is fitted afresh on the other folds' requests, from the
// same neutral start as the shipped weights.

// neutralWeights is where every fit starts: every field counts alike, and the second stage
// does nothing.
var neutralWeights = func() weights {
	var w weights
	for f := range w.field {
		w.field[f] = 1
	}
	w.rerank[featBase] = 1
	return w
}()

// Grids of the coordinate ascent: a field weight is multiplied, a rerank weight moved.
var (
	fieldSteps  = []float64{0.5, 0.7, 1 / 0.7, 2}
	rerankSteps = []float64{-0.2, -0.1, -0.05, 0.05, 0.1, 0.2}
)

// maxFitPasses bounds the coordinate ascent; it settles in three or four passes.
const maxFitPasses = 8

// objective is what fitting maximizes.
func objective(m Metrics) float64 { return m.RecallAt1 + m.RecallAt5 }

// setWeights changes the weights searches use from now on.
func (ix *Index) setWeights(w weights) {
	ix.mu.Lock()
	ix.weights = w
	ix.mu.Unlock()
}

// fit fits the index's weights to the queries by coordinate ascent from start: each weight
// in turn takes the value of its grid that raises R@1 + R@5 most, until a whole pass
// changes nothing. Fields that no document has are left alone. The index keeps the fitted
// weights.
func (ix *Index) fit(qs []EvalQuery, start weights, kind string) weights {
	w := start
	ix.setWeights(w)
	best := objective(Evaluate(ix, qs, EvalOptions{Kind: kind}).Metrics)
	try := func(v weights) {
		ix.setWeights(v)
		if o := objective(Evaluate(ix, qs, EvalOptions{Kind: kind}).Metrics); o > best+1e-9 {
			best, w = o, v
		}
	}
	for range maxFitPasses {
		before := w
		for f := range numFields {
			if ix.lenSum[f] == 0 {
				continue
			}
			cur := w
			for _, m := range fieldSteps {
				v := cur
				v.field[f] *= m
				try(v)
			}
		}
		for i := 1; i < numFeatures; i++ {
			cur := w
			for _, d := range rerankSteps {
				v := cur
				v.rerank[i] = math.Round((v.rerank[i]+d)*100) / 100
				try(v)
			}
		}
		if w == before {
			break
		}
	}
	ix.setWeights(w)
	return w
}

// FitWeights fits the ranking's weights to labelled queries, from the neutral start, and
// returns them as a report would name them; the index keeps them. The shipped weights are
// what it finds on the development split.
func FitWeights(ix *Index, qs []EvalQuery, kind string) map[string]float64 {
	return ix.fit(qs, neutralWeights, kind).Map()
}

// FoldReport is one fold of a cross-validation: its queries scored with weights fitted on
// the other folds' queries.
type FoldReport struct {
	Fold    int                `json:"fold"`
	Tools   int                `json:"tools"` // distinct expected tools of its queries
	Weights map[string]float64 `json:"weights"`
	Metrics
}

// CVReport is the result of CrossValidate.
type CVReport struct {
	Folds []FoldReport `json:"folds"`
	// Mean, Min and Max are over folds, each fold counting once.
	Mean Metrics `json:"mean"`
	Min  Metrics `json:"min"`
	Max  Metrics `json:"max"`
	// Pooled scores every query with the weights fitted without its fold, by category.
	Pooled EvalReport `json:"pooled"`
}

// CrossValidate scores the queries in k folds grouped by tool (see above), each fold with
// weights fitted on the others. The index's weights are restored when it returns.
func CrossValidate(ix *Index, qs []EvalQuery, k int, opts EvalOptions) (CVReport, error) {
	if k < 2 {
		return CVReport{}, errors.New("cross-validation needs at least 2 folds")
	}
	fold, groups := toolFolds(qs, k)
	if groups < k {
		return CVReport{}, fmt.Errorf("the queries need %d groups of tools for %d folds, and have %d", k, k, groups)
	}
	saved := ix.weights
	defer ix.setWeights(saved)
	var rep CVReport
	rankings := make([][]string, len(qs))
	for f := range k {
		var train, test []EvalQuery
		var testAt []int
		tools := map[string]bool{}
		for i := range qs {
			if fold[i] != f {
				train = append(train, qs[i])
				continue
			}
			test = append(test, qs[i])
			testAt = append(testAt, i)
			for _, g := range qs[i].groups() {
				for _, t := range g {
					tools[t] = true
				}
			}
		}
		w := ix.fit(train, neutralWeights, opts.Kind)
		r := ix.rankAll(test, opts.Kind)
		for j, i := range testAt {
			rankings[i] = r[j]
		}
		m := scoreRankings(test, r, EvalOptions{}).Metrics
		rep.Folds = append(rep.Folds, FoldReport{Fold: f + 1, Tools: len(tools), Weights: w.Map(), Metrics: m})
	}
	rep.Min, rep.Max = rep.Folds[0].Metrics, rep.Folds[0].Metrics
	for _, fr := range rep.Folds {
		m := fr.Metrics
		rep.Mean.RecallAt1 += m.RecallAt1 / float64(k)
		rep.Mean.RecallAt5 += m.RecallAt5 / float64(k)
		rep.Mean.RecallAt10 += m.RecallAt10 / float64(k)
		rep.Mean.MRR += m.MRR / float64(k)
		rep.Min = Metrics{
			Queries: min(rep.Min.Queries, m.Queries), RecallAt1: min(rep.Min.RecallAt1, m.RecallAt1),
			RecallAt5: min(rep.Min.RecallAt5, m.RecallAt5), RecallAt10: min(rep.Min.RecallAt10, m.RecallAt10), MRR: min(rep.Min.MRR, m.MRR),
		}
		rep.Max = Metrics{
			Queries: max(rep.Max.Queries, m.Queries), RecallAt1: max(rep.Max.RecallAt1, m.RecallAt1),
			RecallAt5: max(rep.Max.RecallAt5, m.RecallAt5), RecallAt10: max(rep.Max.RecallAt10, m.RecallAt10), MRR: max(rep.Max.MRR, m.MRR),
		}
	}
	rep.Mean.Queries = len(qs)
	rep.Pooled = scoreRankings(qs, rankings, opts)
	return rep, nil
}

// toolFolds assigns each query to one of k folds, grouped by tool (see above), and returns
// the number of groups of tools that have queries.
func toolFolds(qs []EvalQuery, k int) (fold []int, groups int) {
	parent := map[string]string{}
	var find func(string) string
	find = func(x string) string {
		p, ok := parent[x]
		if !ok {
			parent[x] = x
			return x
		}
		if p == x {
			return x
		}
		r := find(p)
		parent[x] = r
		return r
	}
	union := func(a, b string) {
		ra, rb := find(a), find(b)
		if ra != rb {
			parent[max(ra, rb)] = min(ra, rb) // the smaller name leads: the result does not depend on order
		}
	}
	// A tool is known by its server's name when it has one.
	key := func(tool string) string {
		if g := groupKey(tool); g != "" {
			return "server:" + g
		}
		return "tool:" + tool
	}
	for i := range qs {
		var first string
		for _, g := range qs[i].groups() {
			for _, t := range g {
				if first == "" {
					first = key(t)
					find(first)
				} else {
					union(first, key(t))
				}
			}
		}
	}
	count := map[string]int{}
	for i := range qs {
		count[find(key(qs[i].groups()[0][0]))]++
	}
	roots := make([]string, 0, len(count))
	for r := range count {
		roots = append(roots, r)
	}
	slices.SortFunc(roots, func(a, b string) int { return cmp.Or(cmp.Compare(count[b], count[a]), cmp.Compare(a, b)) })
	size := make([]int, k)
	foldOf := map[string]int{}
	for _, r := range roots {
		f := 0
		for i := range size {
			if size[i] < size[f] {
				f = i
			}
		}
		foldOf[r] = f
		size[f] += count[r]
	}
	fold = make([]int, len(qs))
	for i := range qs {
		fold[i] = foldOf[find(key(qs[i].groups()[0][0]))]
	}
	return fold, len(roots)
}

// WriteText writes the report as aligned tables: one row per fold with its fitted weights,
// the mean and spread over folds, and, if asked, the pooled figures by category.
func (r CVReport) WriteText(w io.Writer, byCategory bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "fold\tqueries\ttools\tR@1\tR@5\tR@10\tMRR\tweights fitted on the other folds")
	for _, f := range r.Folds {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%s\n", f.Fold, f.Queries, f.Tools,
			f.RecallAt1, f.RecallAt5, f.RecallAt10, f.MRR, formatWeights(f.Weights))
	}
	fmt.Fprintf(tw, "mean\t%d\t\t%.3f\t%.3f\t%.3f\t%.3f\n", r.Mean.Queries, r.Mean.RecallAt1, r.Mean.RecallAt5, r.Mean.RecallAt10, r.Mean.MRR)
	fmt.Fprintf(tw, "min-max\t\t\t%.3f-%.3f\t%.3f-%.3f\t%.3f-%.3f\t%.3f-%.3f\n",
		r.Min.RecallAt1, r.Max.RecallAt1, r.Min.RecallAt5, r.Max.RecallAt5,
		r.Min.RecallAt10, r.Max.RecallAt10, r.Min.MRR, r.Max.MRR)
	if err := tw.Flush(); err != nil {
		return err
	}
	if !byCategory && len(r.Pooled.Misses) == 0 {
		return nil
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "\npooled (each query scored with the weights fitted without its fold):")
	if err := bw.Flush(); err != nil {
		return err
	}
	return r.Pooled.WriteText(w, byCategory)
}

// formatWeights lists weights that differ from the neutral start, by name.
func formatWeights(m map[string]float64) string {
	neutral := neutralWeights.Map()
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if m[k] != neutral[k] {
			parts = append(parts, fmt.Sprintf("%s=%.3g", strings.TrimPrefix(strings.TrimPrefix(k, "field."), "rerank."), m[k]))
		}
	}
	return strings.Join(parts, " ")
}
