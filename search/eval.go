package search

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
)

// EvalQuery is one labelled request of a retrieval test set (one line of queries.jsonl).
type EvalQuery struct {
	ID       string   `json:"id"`
	Query    string   `json:"query"`
	Category string   `json:"category,omitempty"`
	Source   string   `json:"source,omitempty"`
	Expected []string `json:"expected"`
	// ExpectedGroups lists the tools the request needs; each group holds interchangeable
	// alternatives and is satisfied by any one of them.
	ExpectedGroups [][]string `json:"expected_groups,omitempty"`
	// Queries, when a request holds several needs, are the searches for each need, as a
	// model would send them in one call (see SplitReport).
	Queries []string `json:"queries,omitempty"`
}

// groups returns the expected groups, one per expected name when none are given.
func (q *EvalQuery) groups() [][]string {
	if len(q.ExpectedGroups) > 0 {
		return q.ExpectedGroups
	}
	gs := make([][]string, len(q.Expected))
	for i, e := range q.Expected {
		gs[i] = []string{e}
	}
	return gs
}

// ReadEvalQueries reads JSON Lines of EvalQuery. Blank lines are skipped; a bad line is
// reported with its line number.
func ReadEvalQueries(r io.Reader) ([]EvalQuery, error) {
	var qs []EvalQuery
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var q EvalQuery
		if err := json.Unmarshal(b, &q); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if len(q.groups()) == 0 {
			return nil, fmt.Errorf("line %d: query %q has no expected tools", line, q.ID)
		}
		qs = append(qs, q)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return qs, nil
}

// EvalOptions tune Evaluate.
type EvalOptions struct {
	Kind   string // Query.Kind for every query
	Misses int    // how many of the worst queries to report
	// MissesAt is the depth a query's every expected group must be found within not to
	// count as a miss: 5 if zero, 1 to read what keeps the right tool from the top.
	MissesAt int
}

// Metrics are retrieval scores averaged over queries. RecallAtK is the share of a query's
// expected groups found in the top k; MRR is the mean reciprocal rank of the first expected
// tool within the top 10 (0 when none is there).
type Metrics struct {
	Queries    int     `json:"queries"`
	RecallAt1  float64 `json:"recall_at_1"`
	RecallAt5  float64 `json:"recall_at_5"`
	RecallAt10 float64 `json:"recall_at_10"`
	MRR        float64 `json:"mrr"`
}

// CategoryReport holds the metrics of one query category.
type CategoryReport struct {
	Category string `json:"category"`
	Metrics
}

// Miss is a query that did badly: an expected group was not in the top 5.
type Miss struct {
	ID        string     `json:"id"`
	Query     string     `json:"query"`
	Category  string     `json:"category,omitempty"`
	Expected  [][]string `json:"expected"`
	Rank      int        `json:"rank"` // rank of the first expected tool, 0 if not in the top 10
	RecallAt5 float64    `json:"recall_at_5"`
	Got       []string   `json:"got"` // the top 5
}

// EvalReport is the result of Evaluate.
type EvalReport struct {
	Metrics
	ByCategory []CategoryReport `json:"by_category"`
	Misses     []Miss           `json:"misses,omitempty"`
	MissesAt   int              `json:"misses_at,omitempty"` // the depth Misses are judged at
	// PerQuery are the metrics of each query, in the order of the queries, for paired
	// comparisons (see `toolsearch eval --ablate`).
	PerQuery []Metrics `json:"-"`
	// Split compares, for the requests that hold several needs, one search for all of them
	// with a search per need; nil when no query lists its needs.
	Split *SplitReport `json:"split,omitempty"`
}

// SplitReport scores the requests that list a search per need (EvalQuery.Queries) two
// ways: as one search (Query), and as one search per need whose rankings are interleaved
// (the first hit of each need, then the second of each, …, each tool once), which is what
// a result grouped per need shows within one budget.
type SplitReport struct {
	AsOne Metrics `json:"as_one"`
	Split Metrics `json:"split"`
}

// evalDepth is how deep each query's ranking is read: R@10 and MRR@10 need ten hits.
const evalDepth = 10

// Searcher is what Evaluate scores: the Index, or a baseline such as PlainBM25.
type Searcher interface {
	Search(Query) Result
}

// Evaluate runs every query against the searcher and scores the rankings.
func Evaluate(ix Searcher, qs []EvalQuery, opts EvalOptions) EvalReport {
	rankings := rankAll(ix, qs, opts.Kind)
	rep := scoreRankings(qs, rankings, opts)
	var multi []EvalQuery
	var asOne [][]string
	for i := range qs {
		if len(qs[i].Queries) > 0 {
			multi = append(multi, qs[i])
			asOne = append(asOne, rankings[i])
		}
	}
	if len(multi) > 0 {
		// Every need's search, as its own query.
		var needs []EvalQuery
		for _, q := range multi {
			for _, text := range q.Queries {
				needs = append(needs, EvalQuery{Query: text})
			}
		}
		perNeed := rankAll(ix, needs, opts.Kind)
		split := make([][]string, len(multi))
		for i, q := range multi {
			split[i] = interleave(perNeed[:len(q.Queries)], evalDepth)
			perNeed = perNeed[len(q.Queries):]
		}
		rep.Split = &SplitReport{
			AsOne: scoreRankings(multi, asOne, EvalOptions{}).Metrics,
			Split: scoreRankings(multi, split, EvalOptions{}).Metrics,
		}
	}
	return rep
}

// interleave merges rankings of IDs into one of at most n (interleaveBy).
func interleave(rankings [][]string, n int) []string {
	return interleaveBy(rankings, n, func(id string) string { return id })
}

// rankAll returns the IDs of the best evalDepth hits of every query, searching on every
// CPU.
func (ix *Index) rankAll(qs []EvalQuery, kind string) [][]string { return rankAll(ix, qs, kind) }

func rankAll(ix Searcher, qs []EvalQuery, kind string) [][]string {
	out := make([][]string, len(qs))
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(qs); i += workers {
				res := ix.Search(Query{Text: qs[i].Query, Limit: evalDepth, Kind: kind})
				ids := make([]string, len(res.Hits))
				for j, h := range res.Hits {
					ids[j] = h.ID
				}
				out[i] = ids
			}
		})
	}
	wg.Wait()
	return out
}

// scoreRankings scores the rankings of the queries (rankings[i] for qs[i]).
func scoreRankings(qs []EvalQuery, rankings [][]string, opts EvalOptions) EvalReport {
	var rep EvalReport
	cats := map[string]*Metrics{}
	var misses []Miss
	missesAt := cmp.Or(opts.MissesAt, 5)
	rep.PerQuery = make([]Metrics, len(qs))
	for i := range qs {
		q := &qs[i]
		groups := q.groups()
		if len(groups) == 0 {
			continue
		}
		ids := rankings[i]
		m, first := scoreRanking(ids, groups)
		rep.add(m)
		rep.PerQuery[i] = m
		c := cats[q.Category]
		if c == nil {
			c = &Metrics{}
			cats[q.Category] = c
		}
		c.add(m)
		if opts.Misses > 0 && !foundWithin(ids, groups, missesAt) { // fits ask for none
			misses = append(misses, Miss{
				ID: q.ID, Query: q.Query, Category: q.Category, Expected: groups,
				Rank: first, RecallAt5: m.RecallAt5, Got: ids[:min(5, len(ids))],
			})
		}
	}
	rep.average()
	for name, c := range cats {
		c.average()
		rep.ByCategory = append(rep.ByCategory, CategoryReport{Category: name, Metrics: *c})
	}
	slices.SortFunc(rep.ByCategory, func(a, b CategoryReport) int { return cmp.Compare(a.Category, b.Category) })
	// Worst first: nothing found at all, then the expected tool furthest down.
	slices.SortStableFunc(misses, func(a, b Miss) int {
		return cmp.Or(
			cmp.Compare(reciprocal(a.Rank), reciprocal(b.Rank)),
			cmp.Compare(a.RecallAt5, b.RecallAt5),
			cmp.Compare(a.ID, b.ID),
		)
	})
	rep.Misses = misses[:min(max(opts.Misses, 0), len(misses))]
	if len(rep.Misses) > 0 {
		rep.MissesAt = missesAt
	}
	return rep
}

// foundWithin reports whether every group has a member among the first k ids.
func foundWithin(ids []string, groups [][]string, k int) bool {
	top := ids[:min(k, len(ids))]
	for _, g := range groups {
		if !slices.ContainsFunc(top, func(id string) bool { return slices.Contains(g, id) }) {
			return false
		}
	}
	return true
}

// scoreRanking scores one ranking against the expected groups (Queries is 1) and returns
// the rank of the first expected tool, 0 if none is in ids.
func scoreRanking(ids []string, groups [][]string) (Metrics, int) {
	m := Metrics{Queries: 1}
	first := 0
	for _, g := range groups {
		rank := 0
		for j, id := range ids {
			if slices.Contains(g, id) {
				rank = j + 1
				break
			}
		}
		if rank == 0 {
			continue
		}
		if first == 0 || rank < first {
			first = rank
		}
		n := float64(len(groups))
		if rank <= 1 {
			m.RecallAt1 += 1 / n
		}
		if rank <= 5 {
			m.RecallAt5 += 1 / n
		}
		if rank <= 10 {
			m.RecallAt10 += 1 / n
		}
	}
	m.MRR = reciprocal(first)
	return m, first
}

func reciprocal(rank int) float64 {
	if rank <= 0 {
		return 0
	}
	return 1 / float64(rank)
}

// add sums o into m; average turns the sums into means.
func (m *Metrics) add(o Metrics) {
	m.Queries += o.Queries
	m.RecallAt1 += o.RecallAt1
	m.RecallAt5 += o.RecallAt5
	m.RecallAt10 += o.RecallAt10
	m.MRR += o.MRR
}

func (m *Metrics) average() {
	if m.Queries == 0 {
		return
	}
	n := float64(m.Queries)
	m.RecallAt1 /= n
	m.RecallAt5 /= n
	m.RecallAt10 /= n
	m.MRR /= n
}

// WriteText writes the report as aligned tables for people: the overall metrics, the
// categories if asked, and the misses.
func (r EvalReport) WriteText(w io.Writer, byCategory bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "category\tqueries\tR@1\tR@5\tR@10\tMRR\t")
	row := func(name string, m Metrics) {
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t\n", name, m.Queries, m.RecallAt1, m.RecallAt5, m.RecallAt10, m.MRR)
	}
	if byCategory {
		for _, c := range r.ByCategory {
			row(c.Category, c.Metrics)
		}
	}
	row("all", r.Metrics)
	if r.Split != nil {
		row("several needs, one search", r.Split.AsOne)
		row("several needs, a search each", r.Split.Split)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.Misses) == 0 {
		return nil
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "\nworst %d queries (expected group not in the top %d):\n", len(r.Misses), r.MissesAt)
	for _, m := range r.Misses {
		rank := "-"
		if m.Rank > 0 {
			rank = fmt.Sprint(m.Rank)
		}
		fmt.Fprintf(bw, "\n%s [%s] rank %s, R@5 %.2f\n  query:    %s\n  expected: %s\n  got:      %s\n",
			m.ID, m.Category, rank, m.RecallAt5, oneLine(m.Query, 200), formatGroups(m.Expected), strings.Join(m.Got, ", "))
	}
	return bw.Flush()
}

func formatGroups(gs [][]string) string {
	parts := make([]string, len(gs))
	for i, g := range gs {
		parts[i] = strings.Join(g, " | ")
	}
	return strings.Join(parts, ", ")
}

// oneLine shortens s to n runes on a single line.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
