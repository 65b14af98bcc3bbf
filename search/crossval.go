package search

import (
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
	ix.weights = ix.ablated(w)
	ix.mu.Unlock()
}

// fit fits the index's weights to the queries by coordinate ascent from start: each weight
// in turn takes the value of its grid that raises R@1 + R@5 most (by a margin), until a
// whole pass changes nothing. Fields that no document has are left alone. The index keeps the fitted
// weights.
func (ix *Index) fit(qs []EvalQuery, start weights, kind string) weights {
	return fitPooled([]FitSet{{Index: ix, Queries: qs}}, start, kind)
}

// FitSet is one catalog's index with its labelled queries, for fitting on several catalogs.
type FitSet struct {
	Index   *Index
	Queries []EvalQuery
}

// fitPooled is fit over several sets at once: the objective is R@1 + R@5 over all their
// queries together (each set counts by its queries), so that one set of weights serves
// catalogs of different shapes. (Counting each set alike instead let the 230 requests of
// dev-azure's one server outvote the 973 of the BFCL-heavy split: dev R@1 0.665 → 0.644.)
// Every index keeps the fitted weights.
func fitPooled(sets []FitSet, start weights, kind string) weights {
	total := 0
	for _, fs := range sets {
		total += len(fs.Queries)
	}
	eval := func(v weights) float64 {
		if len(sets) == 1 {
			// Exactly the set's objective: scaled by its queries and back, it could
			// round across minGain, and a gain of exactly two queries is common.
			sets[0].Index.setWeights(v)
			return objective(sets[0].Index.metrics(sets[0].Queries, kind))
		}
		o := 0.0
		for _, fs := range sets {
			fs.Index.setWeights(v)
			o += objective(fs.Index.metrics(fs.Queries, kind)) * float64(len(fs.Queries))
		}
		return o / float64(max(total, 1))
	}
	hasField := func(f int) bool {
		for _, fs := range sets {
			if fs.Index.lenSum[f] > 0 {
				return true
			}
		}
		return false
	}
	w := start
	best := eval(w)
	// A step must gain what two more queries found first would: on a plateau, smaller
	// gains are noise of the queries at hand, and chasing them makes fits of overlapping
	// query sets wander apart.
	minGain := 2 / float64(max(total, 1))
	try := func(v weights) {
		if o := eval(v); o > best+minGain {
			best, w = o, v
		}
	}
	for range maxFitPasses {
		before := w
		for f := range numFields {
			if !hasField(f) || f == fieldNamePart {
				continue // no document has the field, or its weight follows the name's
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
	for _, fs := range sets {
		fs.Index.setWeights(w)
	}
	return w
}

// metrics scores the queries' rankings: all that fitting looks at, without the rest
// of Evaluate's report (a search per need, the misses).
func (ix *Index) metrics(qs []EvalQuery, kind string) Metrics {
	return scoreRankings(qs, ix.rankAll(qs, kind), EvalOptions{}).Metrics
}

// FitWeights fits the ranking's weights to labelled queries, from the neutral start, and
// returns them as a report would name them; the index keeps them. The shipped weights are
// what it finds on the development split.
func FitWeights(ix *Index, qs []EvalQuery, kind string) map[string]float64 {
	return ix.fit(qs, neutralWeights, kind).Map()
}

// FitWeightsPooled fits the ranking's weights to several catalogs' queries at once, each
// set counting by its queries (see fitPooled); every index keeps them. The shipped weights
// are what it finds on the two development sets, dev and dev-azure.
func FitWeightsPooled(sets []FitSet, kind string) map[string]float64 {
	return fitPooled(sets, neutralWeights, kind).Map()
}

// FoldReport is one fold of a cross-validation: its queries scored with weights fitted on
// the other folds' queries.
type FoldReport struct {
	Fold    int                `json:"fold"`
	Tools   int                `json:"tools"` // distinct expected tools of its queries
	Weights map[string]float64 `json:"weights"`
	Metrics
}

// CVSet is one set of queries cross-validated.
type CVSet struct {
	Folds []FoldReport `json:"folds"`
	// Mean, Min and Max are over folds, each fold counting once.
	Mean Metrics `json:"mean"`
	Min  Metrics `json:"min"`
	Max  Metrics `json:"max"`
	// Pooled scores every query with the weights fitted without its fold, by category.
	Pooled EvalReport `json:"pooled"`
}

// CVReport is the result of CrossValidate: the queries the weights are fitted on, and the
// other sets scored with the same folds' weights.
type CVReport struct {
	CVSet
	Also   []CVSet   `json:"also,omitempty"`
	fitted []weights // per fold, for ReplayFolds
}

// CrossValidate scores the queries in k folds grouped by tool (see above), each fold with
// weights fitted on the other folds' queries. The queries of each set in also (such as
// other phrasings of the same requests) join the folds of their tools and are scored with
// the weights of their fold, but nothing is fitted on them. The index's weights are
// restored when it returns.
func CrossValidate(ix *Index, qs []EvalQuery, k int, opts EvalOptions, also ...[]EvalQuery) (CVReport, error) {
	return crossValidate(ix, qs, k, nil, opts, also...)
}

// ReplayFolds scores the queries as CrossValidate did for cv, in the same folds and each
// fold with the weights cv fitted for it, but ranked by ix: an index of the same documents
// with rules switched off (see Ablation) is so judged on requests that neither the
// weights nor the rules were fitted on, without a fit of its own. qs and also must be
// those of cv.
func ReplayFolds(ix *Index, cv CVReport, qs []EvalQuery, opts EvalOptions, also ...[]EvalQuery) (CVReport, error) {
	if len(cv.fitted) == 0 {
		return CVReport{}, errors.New("the cross-validation to replay has no fitted weights")
	}
	return crossValidate(ix, qs, len(cv.fitted), cv.fitted, opts, also...)
}

// crossValidate is CrossValidate, fitting each fold's weights unless fitted gives them.
func crossValidate(ix *Index, qs []EvalQuery, k int, fitted []weights, opts EvalOptions, also ...[]EvalQuery) (CVReport, error) {
	if k < 2 {
		return CVReport{}, errors.New("cross-validation needs at least 2 folds")
	}
	all := slices.Clone(qs)
	for _, a := range also {
		all = append(all, a...)
	}
	fold, groups := toolFolds(all, k)
	if groups < k {
		return CVReport{}, fmt.Errorf("the queries need %d groups of tools for %d folds, and have %d", k, k, groups)
	}
	saved := ix.weights
	defer ix.setWeights(saved)
	sets := append([][]EvalQuery{qs}, also...)
	setFold := make([][]int, len(sets))
	rankings := make([][][]string, len(sets))
	at := 0
	for i, set := range sets {
		setFold[i] = fold[at : at+len(set)]
		at += len(set)
		rankings[i] = make([][]string, len(set))
	}
	reps := make([]CVSet, len(sets))
	var ws []weights
	for f := range k {
		var train []EvalQuery
		for i := range qs {
			if fold[i] != f {
				train = append(train, qs[i])
			}
		}
		var w weights
		if fitted != nil {
			w = ix.ablated(fitted[f])
			ix.setWeights(w)
		} else {
			w = ix.fit(train, neutralWeights, opts.Kind)
		}
		ws = append(ws, w)
		for si, set := range sets {
			var test []EvalQuery
			var testAt []int
			tools := map[string]bool{}
			for i := range set {
				if setFold[si][i] != f {
					continue
				}
				test = append(test, set[i])
				testAt = append(testAt, i)
				for _, g := range set[i].groups() {
					for _, t := range g {
						tools[t] = true
					}
				}
			}
			r := ix.rankAll(test, opts.Kind)
			for j, i := range testAt {
				rankings[si][i] = r[j]
			}
			m := scoreRankings(test, r, EvalOptions{}).Metrics
			reps[si].Folds = append(reps[si].Folds, FoldReport{Fold: f + 1, Tools: len(tools), Weights: w.Map(), Metrics: m})
		}
	}
	for si, set := range sets {
		reps[si].summarize()
		reps[si].Pooled = scoreRankings(set, rankings[si], opts)
	}
	return CVReport{CVSet: reps[0], Also: reps[1:], fitted: ws}, nil
}

// summarize sets Mean, Min and Max from the folds. A fold without queries counts as none.
func (r *CVSet) summarize() {
	n := 0
	for _, fr := range r.Folds {
		m := fr.Metrics
		r.Mean.Queries += m.Queries
		if m.Queries == 0 {
			continue
		}
		if n == 0 {
			r.Min, r.Max = m, m
		}
		n++
		r.Mean.RecallAt1 += m.RecallAt1
		r.Mean.RecallAt5 += m.RecallAt5
		r.Mean.RecallAt10 += m.RecallAt10
		r.Mean.MRR += m.MRR
		r.Min = Metrics{
			Queries: min(r.Min.Queries, m.Queries), RecallAt1: min(r.Min.RecallAt1, m.RecallAt1),
			RecallAt5: min(r.Min.RecallAt5, m.RecallAt5), RecallAt10: min(r.Min.RecallAt10, m.RecallAt10), MRR: min(r.Min.MRR, m.MRR),
		}
		r.Max = Metrics{
			Queries: max(r.Max.Queries, m.Queries), RecallAt1: max(r.Max.RecallAt1, m.RecallAt1),
			RecallAt5: max(r.Max.RecallAt5, m.RecallAt5), RecallAt10: max(r.Max.RecallAt10, m.RecallAt10), MRR: max(r.Max.MRR, m.MRR),
		}
	}
	if n > 0 {
		r.Mean.RecallAt1 /= float64(n)
		r.Mean.RecallAt5 /= float64(n)
		r.Mean.RecallAt10 /= float64(n)
		r.Mean.MRR /= float64(n)
	}
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
	group := make([]string, len(qs)) // each query's, by its first tool
	count := map[string]int{}
	for i := range qs {
		group[i] = find(key(qs[i].groups()[0][0]))
		count[group[i]]++
	}
	roots := slices.Collect(maps.Keys(count))
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
		fold[i] = foldOf[group[i]]
	}
	return fold, len(roots)
}

// WriteText writes the report of one set as aligned tables: one row per fold with its
// fitted weights, the mean and spread over folds, and, if asked, the pooled figures by
// category.
func (r CVSet) WriteText(w io.Writer, byCategory bool) error {
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
	if _, err := fmt.Fprintln(w, "\npooled (each query scored with the weights fitted without its fold):"); err != nil {
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
