package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server"
)

func runMeasure(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("measure", os.Stderr)
	sf := addSourceFlags(fs, flagsCatalog|flagListingBudget|flagResultBudget|flagTokenizer, "warn")
	queries := fs.String("queries", "", "queries `FILE` for the per-search cost (JSONL, the eval format; default: one query per entry from its one-liner)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	asMarkdown := fs.Bool("markdown", false, "print the report as Markdown tables")
	codeMode := fs.Bool("code-mode", false, "measure with run_code and run_code_read listed, as serve --code-mode lists them")
	uf := addUpstreamFlags(fs, true)
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	sf.more = func(cfg *Config) { cfg.CodeMode.Enabled = cfg.CodeMode.Enabled || *codeMode }
	if *asJSON && *asMarkdown {
		return errors.New("--json and --markdown exclude each other")
	}
	opts := server.MeasureOptions{}
	if *queries != "" {
		qs, err := readQueries(*queries)
		if err != nil {
			return err
		}
		opts.Queries, opts.QuerySource = qs, *queries
	}
	a, err := openApp(sf)
	if err != nil {
		return err
	}
	defer a.close(ctx)
	a.loadUpstreams(ctx, uf)
	rep, err := a.server.Measure(ctx, opts)
	if err != nil {
		return err
	}
	switch {
	case *asJSON:
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	case *asMarkdown:
		return writeMeasureMarkdown(out, rep)
	}
	return writeMeasureText(out, rep)
}

func readQueries(file string) ([]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	eq, err := search.ReadEvalQueries(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	qs := make([]string, len(eq))
	for i, q := range eq {
		qs[i] = q.Query
	}
	return qs, nil
}

// measureTables renders a report's two tables as rows of cells, shared by
// the text and Markdown forms.
func measureTables(rep *server.Report) (sources, searches [][]string) {
	sources = [][]string{{"source", "kind", "entries", "eager", "names-only", "up-front", "saved", "saved %", "vs names-only", "SKILL.md"}}
	row := func(c server.SourceCost) []string {
		entries, eager, pct := num(c.Entries), num(c.Eager), fmt.Sprintf("%.1f %%", c.SavedPct)
		if c.Name == server.OverheadSource {
			entries, eager, pct = "", "", ""
		}
		skillBytes := ""
		if c.SkillFileBytes > 0 {
			skillBytes = server.HumanSize(c.SkillFileBytes)
		}
		return []string{c.Name, c.Kind, entries, eager, num(c.NamesOnly), num(c.UpFront), num(c.Saved), pct, num(c.SavedVsNamesOnly), skillBytes}
	}
	for _, c := range rep.Sources {
		sources = append(sources, row(c))
	}
	sources = append(sources, row(rep.Total))

	searches = [][]string{{"detail", "mean", "median", "p95", "max"}}
	for _, c := range rep.Search {
		name := c.Detail
		if c.Default {
			name += " (default)"
		}
		searches = append(searches, []string{name, num1(c.Mean), num(c.Median), num(c.P95), num(c.Max)})
	}
	return sources, searches
}

func writeMeasureText(out io.Writer, rep *server.Report) error {
	sources, searches := measureTables(rep)
	var b strings.Builder
	fmt.Fprintf(&b, "Tokens counted with %s. %s\n\n", rep.Tokenizer, rep.TokenizerNote)
	writeAligned(&b, sources, 2)
	b.WriteString("\n" + upFrontLine(rep) + "\n")
	for _, l := range baselineLines(rep) {
		b.WriteString(l + "\n")
	}
	fmt.Fprintf(&b, "\nPer tool_search result, in tokens (result budget %s), over %s queries from %s:\n\n", num(rep.ResultBudget), num(rep.Queries), rep.QuerySource)
	writeAligned(&b, searches, 1)
	b.WriteString("\n" + breakEvenLine(rep) + "\n")
	for _, l := range flagLines(rep) {
		b.WriteString(l + "\n")
	}
	for _, l := range codeModeLines(rep) {
		b.WriteString(l + "\n")
	}
	_, err := io.WriteString(out, b.String())
	return err
}

// writeAligned writes rows as columns; the first skip columns are text and
// align left, the rest are figures and align right.
func writeAligned(w io.Writer, rows [][]string, skip int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, r := range rows {
		for i, cell := range r {
			if i < skip {
				// AlignRight applies to every column: pad text cells by hand
				// so that they read left-aligned.
				cell = fmt.Sprintf("%-*s", colWidth(rows, i), cell)
			}
			fmt.Fprint(tw, cell+"\t")
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

func colWidth(rows [][]string, col int) int {
	w := 0
	for _, r := range rows {
		w = max(w, len([]rune(r[col])))
	}
	return w
}

func writeMeasureMarkdown(out io.Writer, rep *server.Report) error {
	sources, searches := measureTables(rep)
	var b strings.Builder
	writeMarkdownTable(&b, sources, 2)
	b.WriteString("\n" + upFrontLine(rep) + "\n")
	for _, l := range baselineLines(rep) {
		b.WriteString("\n" + l + "\n")
	}
	fmt.Fprintf(&b, "\nPer `tool_search` result, in tokens (result budget %s), over %s queries from %s:\n\n", num(rep.ResultBudget), num(rep.Queries), rep.QuerySource)
	writeMarkdownTable(&b, searches, 1)
	b.WriteString("\n" + breakEvenLine(rep) + "\n")
	if lines := flagLines(rep); len(lines) > 0 {
		b.WriteString("\n")
		for _, l := range lines {
			b.WriteString("- " + strings.TrimSpace(l) + "\n")
		}
	}
	fmt.Fprintf(&b, "\nTokens counted with %s. %s\n", rep.Tokenizer, rep.TokenizerNote)
	_, err := io.WriteString(out, b.String())
	return err
}

func writeMarkdownTable(b *strings.Builder, rows [][]string, skip int) {
	for i, r := range rows {
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
		if i == 0 {
			for j := range r {
				if j < skip {
					b.WriteString("| --- ")
				} else {
					b.WriteString("| ---: ")
				}
			}
			b.WriteString("|\n")
		}
	}
}

// upFrontLine says what the up-front cost is made of.
func upFrontLine(rep *server.Report) string {
	return fmt.Sprintf("Up-front: tools/list %s tokens (%s tools) + instructions %s tokens; listing budget %s tokens.",
		num(rep.ToolsList), num(rep.ListedTools), num(rep.Instructions), num(rep.ListingBudget))
}

// baselineLines say what the two baselines are, where toolsearch pays off
// against the host's own deferral, and what upstream instructions cost.
func baselineLines(rep *server.Report) []string {
	lines := []string{fmt.Sprintf("Baselines: eager sends every schema and SKILL.md body up front; names-only is a host's own deferral "+
		"(Claude Code's tool search: its search tool, %s tokens, and a name per tool, %s tokens each; schemas on demand).",
		num(rep.HostFixed), num1(rep.NameTokens))}
	if rep.PaysOffAt > 0 {
		verdict := "more"
		if rep.Total.SavedVsNamesOnly > 0 {
			verdict = "less"
		}
		lines = append(lines, fmt.Sprintf("Against names-only, toolsearch costs %s up front here (%s tokens), and costs less at any catalog of %s tools or more (its listing: one-liners while they fit in %s tokens, then a short name a tool).",
			verdict, num(abs(rep.Total.SavedVsNamesOnly)), num(rep.PaysOffAt), num(rep.ListingBudget)))
	}
	if t := rep.Total; t.Instructions > 0 {
		lines = append(lines, fmt.Sprintf("Upstream instructions: %s tokens a host connected to the servers directly sends up front (in both baselines); toolsearch sends %s of them up front, the rest with each server's search results.",
			num(t.Instructions), num(t.InstructionsUpFront)))
	}
	return lines
}

func abs(n int) int { return max(n, -n) }

func breakEvenLine(rep *server.Report) string {
	if rep.BreakEven == 0 {
		return "Break-even: none (nothing saved up front, or no searches measured)."
	}
	def := rep.Search[0]
	return fmt.Sprintf("Break-even: %s searches per session (%s tokens saved / %s per %s search) before deferring costs more than eager loading.",
		num(rep.BreakEven), num(rep.Total.Saved), num1(def.Mean), def.Detail)
}

func flagLines(rep *server.Report) []string {
	var lines []string
	for _, f := range rep.Flags {
		what := "definition"
		if f.Kind == "skill" {
			what = "SKILL.md body"
		}
		lines = append(lines, fmt.Sprintf("Flag: %s %s (%s): %s %s tokens, over %s.", f.Kind, f.Name, f.Source, what, num(f.Tokens), num(f.Limit)))
	}
	return lines
}

// num formats an integer with thousands separators.
func num(n int) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}

// num1 formats a non-negative figure with one decimal and thousands
// separators.
func num1(f float64) string {
	tenths := int(math.Round(f * 10))
	return fmt.Sprintf("%s.%d", num(tenths/10), tenths%10)
}
