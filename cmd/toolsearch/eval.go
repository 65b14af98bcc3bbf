package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server"
)

func runEval(_ context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("eval", os.Stderr)
	var catalogs, queries stringList
	fs.Var(&catalogs, "catalog", "tool catalog `FILE` (JSON array of tools or a tools/list result), repeatable")
	fs.Var(&queries, "queries", "queries `FILE` (JSONL with query and expected tool names), repeatable; with --folds the weights are fitted on the first")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	byCategory := fs.Bool("by-category", false, "break the figures down by query category")
	misses := fs.Int("misses", 0, "list the `N` worst queries")
	missesAt := fs.Int("misses-at", 5, "with --misses, a query is a miss when an expected tool is not in the top `K`")
	folds := fs.Int("folds", 0, "also cross-validate in `K` folds grouped by tool, refitting the ranking's weights for each")
	fit := fs.Bool("fit", false, "fit the ranking's weights on the first queries file and print them (the shipped weights are fitted so on the dev split, --fit-with the dev-azure set)")
	var fitWith stringList
	fs.Var(&fitWith, "fit-with", "with --fit, also fit on the set in `DIR` (its catalog.json and queries.jsonl, in an index of its own), pooled by queries; repeatable")
	ablate := fs.String("ablate", "", "also score with `RULES` switched off (comma-separated, \"each\" for every rule in turn, \"list\" to name them) and compare request by request")
	refit := fs.Bool("ablate-refit", false, "with --ablate and --folds, refit every fold's weights without the rule, rather than rank each fold with the weights fitted with every rule")
	baseline := fs.String("baseline", "", "score `RANKER` instead of the ranking: bm25 (plain BM25 over name, description and parameters, the evaluation sets' baseline)")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	if *ablate == "list" {
		return writeRules(out)
	}
	ablations, err := parseAblations(*ablate)
	if err != nil {
		return fmt.Errorf("--ablate: %w", err)
	}
	if len(ablations) > 0 && (*fit || *baseline != "") {
		return fmt.Errorf("--ablate compares the ranking with rules switched off: drop --fit and --baseline")
	}
	if len(catalogs) == 0 || len(queries) == 0 {
		fs.Usage()
		return errUsage
	}
	if *missesAt < 1 {
		return fmt.Errorf("--misses-at %d: the depth is at least 1", *missesAt)
	}
	if len(fitWith) > 0 && !*fit {
		return fmt.Errorf("--fit-with needs --fit")
	}
	entries, err := evalEntries(catalogs, os.Stderr)
	if err != nil {
		return err
	}
	sets := make([][]search.EvalQuery, len(queries))
	for i, file := range queries {
		if sets[i], err = readEvalQueries(file); err != nil {
			return err
		}
	}
	opts := search.EvalOptions{Misses: *misses, MissesAt: *missesAt}
	switch *baseline {
	case "":
	case "bm25":
		if *fit || *folds > 0 {
			return fmt.Errorf("--baseline %s has no weights to fit: drop --fit and --folds", *baseline)
		}
		// The baseline reads every tool as it is: without the shared parameters that
		// the ranking leaves out (see search.SharedParams).
		plain := make([]search.Document, len(entries))
		for i, e := range entries {
			plain[i] = server.Document(e)
		}
		return writeReports(out, queries, baselineReports(search.NewPlainBM25(plain), queries, sets, opts), *asJSON, *byCategory)
	default:
		return fmt.Errorf("--baseline %q: the one baseline is bm25", *baseline)
	}
	docs := server.Documents(entries)
	ix := search.NewIndex()
	ix.Add(docs...)
	if *fit {
		pool := []search.FitSet{{Index: ix, Queries: sets[0]}}
		for _, dir := range fitWith {
			set, err := evalSetDir(dir)
			if err != nil {
				return fmt.Errorf("--fit-with %s: %w", dir, err)
			}
			pool = append(pool, set)
		}
		w := search.FitWeightsPooled(pool, "")
		for _, k := range slices.Sorted(maps.Keys(w)) {
			fmt.Fprintf(out, "%s\t%.4g\n", k, w[k])
		}
		fmt.Fprintln(out)
		return search.Evaluate(ix, sets[0], opts).WriteText(out, *byCategory)
	}
	reports, cv, err := rankingReports(ix, queries, sets, opts, *folds, nil)
	if err != nil {
		return err
	}
	if len(ablations) > 0 {
		base := ablationBase{reports: reports, cv: cv, folds: *folds, refit: *refit}
		return writeAblations(out, docs, queries, sets, opts, base, ablations, *asJSON)
	}
	return writeReports(out, queries, reports, *asJSON, *byCategory)
}

// rankingReports scores every set with the index, and cross-validates in folds if asked:
// with the folds' weights of replay if given (search.ReplayFolds), else fitting them.
func rankingReports(ix *search.Index, files []string, sets [][]search.EvalQuery, opts search.EvalOptions,
	folds int, replay *search.CVReport) ([]setReport, search.CVReport, error) {
	reports := baselineReports(ix, files, sets, opts)
	if folds <= 0 {
		return reports, search.CVReport{}, nil
	}
	var cv search.CVReport
	var err error
	if replay != nil {
		cv, err = search.ReplayFolds(ix, *replay, sets[0], opts, sets[1:]...)
	} else {
		cv, err = search.CrossValidate(ix, sets[0], folds, opts, sets[1:]...)
	}
	if err != nil {
		return nil, cv, fmt.Errorf("--folds %d: %w", folds, err)
	}
	reports[0].CV = &cv.CVSet
	for i := range cv.Also {
		reports[i+1].CV = &cv.Also[i]
	}
	return reports, cv, nil
}

// evalSetDir reads an evaluation set laid out as ../shared/eval's are: catalog.json and
// queries.jsonl in one directory, indexed on their own.
func evalSetDir(dir string) (search.FitSet, error) {
	entries, err := evalEntries([]string{filepath.Join(dir, "catalog.json")}, io.Discard)
	if err != nil {
		return search.FitSet{}, err
	}
	qs, err := readEvalQueries(filepath.Join(dir, "queries.jsonl"))
	if err != nil {
		return search.FitSet{}, err
	}
	ix := search.NewIndex()
	ix.Add(server.Documents(entries)...)
	return search.FitSet{Index: ix, Queries: qs}, nil
}

// setReport is the report of one queries file: scored as shipped, and cross-validated.
type setReport struct {
	File    string            `json:"file"`
	Shipped search.EvalReport `json:"shipped"`
	CV      *search.CVSet     `json:"cv,omitempty"`
}

// baselineReports scores every set with a baseline ranker.
func baselineReports(s search.Searcher, files []string, sets [][]search.EvalQuery, opts search.EvalOptions) []setReport {
	reports := make([]setReport, len(sets))
	for i, qs := range sets {
		reports[i] = setReport{File: files[i], Shipped: search.Evaluate(s, qs, opts)}
	}
	return reports
}

func writeReports(out io.Writer, queries []string, reports []setReport, asJSON, byCategory bool) error {
	folds := 0
	if len(reports) > 0 && reports[0].CV != nil {
		folds = len(reports[0].CV.Folds)
	}
	if asJSON {
		if len(reports) == 1 && reports[0].CV == nil {
			return writeJSON(out, reports[0].Shipped) // the shape before --folds
		}
		return writeJSON(out, reports)
	}
	for i, r := range reports {
		if len(reports) > 1 || r.CV != nil {
			if i > 0 {
				fmt.Fprintln(out)
			}
			fmt.Fprintf(out, "%s, shipped weights:\n", r.File)
		}
		if r.CV != nil {
			r.Shipped.Misses = nil // the pooled cross-validation lists them
		}
		if err := r.Shipped.WriteText(out, byCategory); err != nil {
			return err
		}
		if r.CV == nil {
			continue
		}
		fit := "fitted on the other folds"
		if i > 0 {
			fit = "fitted on the other folds of " + queries[0]
		}
		fmt.Fprintf(out, "\n%s, cross-validation in %d folds grouped by tool, weights %s:\n", r.File, folds, fit)
		if err := r.CV.WriteText(out, byCategory); err != nil {
			return err
		}
		fmt.Fprintf(out, "\nshipped -> cross-validation mean: R@1 %+.3f, R@5 %+.3f, R@10 %+.3f, MRR %+.3f\n",
			r.CV.Mean.RecallAt1-r.Shipped.RecallAt1, r.CV.Mean.RecallAt5-r.Shipped.RecallAt5,
			r.CV.Mean.RecallAt10-r.Shipped.RecallAt10, r.CV.Mean.MRR-r.Shipped.MRR)
	}
	return nil
}

func readEvalQueries(file string) ([]search.EvalQuery, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	qs, err := search.ReadEvalQueries(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return qs, nil
}

func writeJSON(out io.Writer, v any) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// evalEntries reads the tools files as serve would: through a catalog, which
// refuses names that collide (ignoring case) or are toolsearch's own. Their
// documents are server.Documents', as serve indexes them. Problems and refusals
// are written to warn.
func evalEntries(files []string, warn io.Writer) ([]*catalog.Entry, error) {
	c := catalog.New(server.ReservedNames...)
	for _, spec := range files {
		src, err := loader.LoadToolsFile(spec)
		if err != nil {
			return nil, fmt.Errorf("--catalog %s: %w", spec, err)
		}
		for _, p := range src.Problems {
			fmt.Fprintln(warn, p)
		}
		c.Put(src)
	}
	snap := c.Snapshot()
	for _, r := range snap.Refused {
		fmt.Fprintf(warn, "%s: not indexed, as serve refuses it: %s\n", r.Entry.Name, r.Reason)
	}
	return snap.Listed(), nil
}
