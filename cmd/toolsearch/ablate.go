package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/toolsearch/toolsearch/search"
)

// `eval --ablate` scores each set twice, as the ranking ships and with rules switched off,
// and compares the two request by request: a rule's worth is the requests it gains and
// loses, and a two-sided sign test over the requests whose outcome changes says how
// likely so lopsided a split would be if the rule made no difference. With --folds the
// compared figures are the cross-validation's (every fitted weight refitted without the
// rule), so that a rule developed on one set is judged on the others.

// parseAblations reads --ablate: "" for none, "each" for every rule in turn, else one
// comma-separated list switched off together.
func parseAblations(spec string) ([]search.Ablation, error) {
	switch spec {
	case "":
		return nil, nil
	case "each":
		var out []search.Ablation
		for _, r := range search.Rules() {
			out = append(out, search.Ablation{}.Off(r.Rule))
		}
		return out, nil
	}
	a, err := search.ParseAblation(spec)
	if err != nil {
		return nil, err
	}
	if a.Empty() {
		return nil, fmt.Errorf("%q names no rule: `toolsearch eval --ablate list` names them", spec)
	}
	return []search.Ablation{a}, nil
}

// writeRules lists the rules --ablate switches.
func writeRules(out io.Writer) error {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	for _, r := range search.Rules() {
		fmt.Fprintf(tw, "%s\t%s\n", r.Name, r.What)
	}
	return tw.Flush()
}

// paired compares one set's per-request metrics with a rule and without it.
type paired struct {
	File    string  `json:"file"`
	Ablate  string  `json:"ablate"`
	With    metric2 `json:"with"`
	Without metric2 `json:"without"`
	At1     change  `json:"at_1"`
	At5     change  `json:"at_5"`
}

type metric2 struct {
	RecallAt1 float64 `json:"recall_at_1"`
	RecallAt5 float64 `json:"recall_at_5"`
}

// change counts the requests that the rule gains and loses at one depth, and the sign
// test's p over them.
type change struct {
	Gained int     `json:"gained"`
	Lost   int     `json:"lost"`
	P      float64 `json:"p"`
}

// compareReports pairs the queries of two reports of the same set.
func compareReports(with, without search.EvalReport) (c1, c5 change) {
	for i := range min(len(with.PerQuery), len(without.PerQuery)) {
		a, b := with.PerQuery[i], without.PerQuery[i]
		count(&c1, a.RecallAt1, b.RecallAt1)
		count(&c5, a.RecallAt5, b.RecallAt5)
	}
	c1.P, c5.P = signTest(c1.Gained, c1.Lost), signTest(c5.Gained, c5.Lost)
	return c1, c5
}

func count(c *change, with, without float64) {
	switch {
	case with > without:
		c.Gained++
	case with < without:
		c.Lost++
	}
}

// signTest is the two-sided exact sign test: the probability, if gains and losses were
// equally likely, of a split of gained+lost requests at least as lopsided as this one.
func signTest(gained, lost int) float64 {
	n, k := gained+lost, min(gained, lost)
	if n == 0 {
		return 1
	}
	// P(X <= k) for X ~ Binomial(n, 1/2), summed in logs: C(n, i) / 2^n underflows past n ≈ 1,000.
	lgN, _ := math.Lgamma(float64(n + 1))
	tail := 0.0
	for i := 0; i <= k; i++ {
		lgI, _ := math.Lgamma(float64(i + 1))
		lgR, _ := math.Lgamma(float64(n - i + 1))
		tail += math.Exp(lgN - lgI - lgR - float64(n)*math.Ln2)
	}
	return min(1, 2*tail)
}

// compared returns the figures a set is judged by: its cross-validation's when it has one.
func compared(r setReport) search.EvalReport {
	if r.CV != nil {
		return r.CV.Pooled
	}
	return r.Shipped
}

// ablationBase is what the ablations are compared with: the ranking's reports and, with
// folds, its cross-validation, whose folds' weights the ablations are ranked with unless
// refit.
type ablationBase struct {
	reports []setReport
	cv      search.CVReport
	folds   int
	refit   bool
}

// writeAblations scores the sets once per ablation, each in an index of its own built
// from docs, and writes each set's paired comparison with the ranking as it ships (base).
func writeAblations(out io.Writer, docs []search.Document, files []string, sets [][]search.EvalQuery,
	opts search.EvalOptions, base ablationBase, ablations []search.Ablation, asJSON bool) error {
	var replay *search.CVReport
	if !base.refit {
		replay = &base.cv
	}
	var rows []paired
	for _, a := range ablations {
		ix := search.NewIndexWith(search.Options{Ablate: a})
		ix.Add(docs...)
		reports, _, err := rankingReports(ix, files, sets, opts, base.folds, replay)
		if err != nil {
			return err
		}
		for i := range reports {
			with, without := compared(base.reports[i]), compared(reports[i])
			c1, c5 := compareReports(with, without)
			rows = append(rows, paired{
				File: files[i], Ablate: a.String(),
				With:    metric2{with.RecallAt1, with.RecallAt5},
				Without: metric2{without.RecallAt1, without.RecallAt5},
				At1:     c1, At5: c5,
			})
		}
	}
	if asJSON {
		return writeJSON(out, rows)
	}
	return writePaired(out, rows, base)
}

// writePaired writes the comparisons as a table: what each rule adds to R@1 and R@5, with
// the requests it gains and loses and the sign test's p.
func writePaired(out io.Writer, rows []paired, base ablationBase) error {
	how := "shipped weights"
	switch {
	case base.folds > 0 && base.refit:
		how = fmt.Sprintf("cross-validation in %d folds, every fold refitted without the rule", base.folds)
	case base.folds > 0:
		how = fmt.Sprintf("cross-validation in %d folds, each fold ranked with the weights fitted on the others with every rule", base.folds)
	}
	fmt.Fprintf(out, "what each rule adds (with minus without; %s; requests gained/lost, two-sided sign test):\n", how)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "rule off\tset\tR@1 with\tR@1 without\tΔR@1\t+/−\tp\tR@5 with\tR@5 without\tΔR@5\t+/−\tp")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%.4f\t%.4f\t%+.4f\t+%d/−%d\t%s\t%.4f\t%.4f\t%+.4f\t+%d/−%d\t%s\n",
			r.Ablate, shortFile(r.File),
			r.With.RecallAt1, r.Without.RecallAt1, r.With.RecallAt1-r.Without.RecallAt1, r.At1.Gained, r.At1.Lost, formatP(r.At1.P),
			r.With.RecallAt5, r.Without.RecallAt5, r.With.RecallAt5-r.Without.RecallAt5, r.At5.Gained, r.At5.Lost, formatP(r.At5.P))
	}
	return tw.Flush()
}

func formatP(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return fmt.Sprintf("%.3f", p)
}

// shortFile names a queries file by its last two elements (dev/queries.jsonl).
func shortFile(f string) string {
	parts := strings.Split(strings.ReplaceAll(f, "\\", "/"), "/")
	if len(parts) > 2 {
		parts = parts[len(parts)-2:]
	}
	return strings.Join(parts, "/")
}
