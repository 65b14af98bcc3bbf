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
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	if len(catalogs) == 0 || *queries == "" {
		fs.Usage()
		return errUsage
	}
	ix := search.NewIndex()
	for _, spec := range catalogs {
		src, err := loader.LoadToolsFile(spec)
		if err != nil {
			return fmt.Errorf("--catalog %s: %w", spec, err)
		}
		for _, p := range src.Problems {
			fmt.Fprintln(os.Stderr, p)
		}
		docs := make([]search.Document, 0, len(src.Entries))
		for _, e := range src.Entries {
			docs = append(docs, server.Document(e))
		}
		ix.Add(docs...)
	}
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
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return rep.WriteText(out, *byCategory)
}
