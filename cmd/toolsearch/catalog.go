package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/problem"
	"github.com/toolsearch/toolsearch/server/web"
)

func runCatalog(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("catalog", os.Stderr)
	sf := addSourceFlags(fs, flagsCatalog, "warn")
	sf.listsProblems = true
	asJSON := fs.Bool("json", false, "print JSON")
	uf := addUpstreamFlags(fs, true)
	a, _, err := parseAndOpen(fs, sf, args)
	if err != nil {
		return err
	}
	defer a.close(ctx)
	a.loadUpstreams(ctx, uf)
	rep := web.BuildCatalogReport(a.catalog.Snapshot())
	oversized := a.server.Oversized()
	markOversized(&rep, oversized)
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	if err := writeCatalogReport(out, rep); err != nil {
		return err
	}
	writeOversized(out, oversized)
	return nil
}

func writeCatalogReport(out io.Writer, rep web.CatalogReport) error {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SOURCE\tKIND\tSTATE\tENTRIES\tLAST LISTED\tERROR")
	for _, s := range rep.Sources {
		listed := "-"
		if s.LastListed != nil {
			listed = s.LastListed.Local().Format(time.DateTime)
		}
		lastError, _, _ := strings.Cut(s.LastError, "\n")
		if last := catalog.LastLines(s.Stderr, 1); len(last) > 0 {
			lastError += "; stderr: " + last[0] // the cause, usually
		}
		if s.Kind == string(catalog.SourceConfig) && len(s.Problems) > 0 {
			lastError = plural(len(s.Problems), "problem") + ", listed below" // once, in full, there
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", s.Name, s.Kind, dash(s.State), s.Entries, listed, dash(lastError))
	}
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "NAME\tKIND\tSOURCE\tSTATE\tPOLICY\tFLAGS\tSUMMARY")
	for _, e := range rep.Entries {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Name, e.Kind, e.Source, dash(e.State), dash(e.Policy), dash(strings.Join(e.Flags, ",")), e.Summary)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	writeQuarantined(out, rep)
	for _, s := range rep.Sources {
		if lines := catalog.LastLines(s.Stderr, stderrLines); len(lines) > 0 {
			fmt.Fprintf(out, "\n%s's stderr, last lines:\n", s.Name)
			for _, l := range lines {
				fmt.Fprintf(out, "  %s\n", l)
			}
		}
	}
	if len(rep.Refused) > 0 {
		fmt.Fprintf(out, "\nRefused (%d):\n", len(rep.Refused))
		for _, e := range rep.Refused {
			fmt.Fprintf(out, "  %s (%s from %s): %s\n", e.Name, e.Kind, e.Source, e.Reason)
		}
	}
	var probs problem.Problems
	for _, s := range rep.Sources {
		probs = append(probs, s.Problems...)
	}
	if len(probs) > 0 {
		fmt.Fprintf(out, "\nProblems (%d):\n", len(probs))
		for _, p := range probs {
			fmt.Fprintf(out, "  %s\n", p)
		}
	}
	return nil
}

// stderrLines is how much of a failed server's stderr the report shows.
const stderrLines = 10

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
