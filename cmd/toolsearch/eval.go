package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server"
)

func runEval(_ context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("eval", os.Stderr)
	var catalogs stringList
	fs.Var(&catalogs, "catalog", "tool catalog `FILE` (JSON array of tools or a tools/list result), repeatable")
	queries := fs.String("queries", "", "queries `FILE` (JSONL with query and expected tool names)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	byCategory := fs.Bool("by-category", false, "break the figures down by query category")
	misses := fs.Int("misses", 0, "list the `N` worst queries")
	folds := fs.Int("folds", 0, "also cross-validate in `K` folds grouped by tool, refitting the ranking's weights for each")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	if len(catalogs) == 0 || *queries == "" {
		fs.Usage()
		return errUsage
	}
	docs, err := evalDocuments(catalogs, os.Stderr)
	if err != nil {
		return err
	}
	ix := search.NewIndex()
	ix.Add(docs...)
	f, err := os.Open(*queries)
	if err != nil {
		return err
	}
	defer f.Close()
	qs, err := search.ReadEvalQueries(f)
	if err != nil {
		return fmt.Errorf("%s: %w", *queries, err)
	}
	rep := search.Evaluate(ix, qs, search.EvalOptions{Misses: *misses})
	if *folds == 0 {
		if *asJSON {
			return writeJSON(out, rep)
		}
		return rep.WriteText(out, *byCategory)
	}
	cv, err := search.CrossValidate(ix, qs, *folds, search.EvalOptions{Misses: *misses})
	if err != nil {
		return fmt.Errorf("--folds %d: %w", *folds, err)
	}
	if *asJSON {
		return writeJSON(out, struct {
			Dev search.EvalReport `json:"dev"`
			CV  search.CVReport   `json:"cv"`
		}{rep, cv})
	}
	rep.Misses = nil // the pooled cross-validation lists them
	fmt.Fprintln(out, "dev, shipped weights:")
	if err := rep.WriteText(out, *byCategory); err != nil {
		return err
	}
	fmt.Fprintf(out, "\ncross-validation, %d folds grouped by tool:\n", *folds)
	if err := cv.WriteText(out, *byCategory); err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "\ndev -> cross-validation mean: R@1 %+.3f, R@5 %+.3f, R@10 %+.3f, MRR %+.3f\n",
		cv.Mean.RecallAt1-rep.RecallAt1, cv.Mean.RecallAt5-rep.RecallAt5, cv.Mean.RecallAt10-rep.RecallAt10, cv.Mean.MRR-rep.MRR)
	return err
}

func writeJSON(out io.Writer, v any) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// evalDocuments builds the search documents of the tools files as serve
// would: through a catalog, which refuses names that collide (ignoring case)
// or are toolsearch's own, and through server.Document. Problems and refusals
// are written to warn.
func evalDocuments(files []string, warn io.Writer) ([]search.Document, error) {
	c := loader.NewCatalog(server.ReservedNames...)
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
	listed := snap.Listed()
	docs := make([]search.Document, len(listed))
	for i, e := range listed {
		docs[i] = server.Document(e)
	}
	return docs, nil
}
