package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/toolsearch/toolsearch/server"
)

func runSearch(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("search", os.Stderr)
	sf := addSourceFlags(fs, flagsCatalog|flagResultBudget|flagTokenizer, "warn")
	limit := fs.Int("limit", server.DefaultLimit, "most results (1-20)")
	kind := fs.String("kind", "any", strings.Join(server.SearchKinds(), ", "))
	detail := fs.String("detail", server.DetailFull, "full, compact or names")
	asJSON := fs.Bool("json", false, "print the structured result as JSON instead of the text")
	var queries stringList
	fs.Var(&queries, "query", "one more `QUERY`, searched on its own, for a request of several needs (repeatable, up to 5 in all)")
	uf := addUpstreamFlags(fs, true)
	a, rest, err := parseAndOpen(fs, sf, args)
	if err != nil {
		return err
	}
	defer a.close(ctx)
	a.loadUpstreams(ctx, uf)
	res, err := a.server.Search(server.SearchArgs{Query: strings.Join(rest, " "), Queries: queries, Limit: *limit, Kind: *kind, Detail: *detail})
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	_, err = fmt.Fprintln(out, res.Text())
	return err
}
