package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/toolsearch/toolsearch/loader"
)

// catalogReport is `toolsearch catalog --json`.
type catalogReport struct {
	Sources []sourceReport `json:"sources"`
	Entries []entryReport  `json:"entries"`
	Refused []entryReport  `json:"refused,omitempty"`
}

type sourceReport struct {
	Name       string          `json:"name"`
	Kind       string          `json:"kind"`
	State      string          `json:"state,omitempty"`
	Entries    int             `json:"entries"`
	LastListed *time.Time      `json:"lastListed,omitempty"`
	LastError  string          `json:"lastError,omitempty"`
	Problems   loader.Problems `json:"problems,omitempty"`
}

type entryReport struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"`
	Source  string   `json:"source"`
	State   string   `json:"state,omitempty"`
	Policy  string   `json:"policy,omitempty"`
	Flags   []string `json:"flags,omitempty"`
	Summary string   `json:"summary"`
	Reason  string   `json:"reason,omitempty"` // why it was refused
}

func runCatalog(_ context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("catalog", os.Stderr)
	sf := addSourceFlags(fs)
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	a, err := openApp(sf)
	if err != nil {
		return err
	}
	defer a.close()
	rep := buildCatalogReport(a.catalog.Snapshot())
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return writeCatalogReport(out, rep)
}

func buildCatalogReport(snap *loader.Snapshot) catalogReport {
	var rep catalogReport
	states := map[string]string{}
	for _, src := range snap.Sources {
		sr := sourceReport{Name: src.Name, Kind: string(src.Kind), State: string(src.State), Entries: len(src.Entries), LastError: src.LastError, Problems: src.Problems}
		if !src.LastListed.IsZero() {
			t := src.LastListed
			sr.LastListed = &t
		}
		states[src.Name] = string(src.State)
		rep.Sources = append(rep.Sources, sr)
	}
	entry := func(e *loader.Entry) entryReport {
		er := entryReport{Name: e.Name, Kind: string(e.Kind), Source: e.Source, State: states[e.Source], Summary: e.Summary}
		if e.Kind == loader.KindTool {
			er.Policy = string(e.Policy)
		}
		if e.AlwaysLoad {
			er.Flags = append(er.Flags, "alwaysLoad")
		}
		if e.Changed {
			er.Flags = append(er.Flags, "changed")
		}
		if e.Skill != nil && !e.Skill.Valid() {
			er.Flags = append(er.Flags, "invalid")
		}
		return er
	}
	for _, e := range snap.Entries {
		rep.Entries = append(rep.Entries, entry(e))
	}
	for _, r := range snap.Refused {
		er := entry(r.Entry)
		er.Reason = r.Reason
		rep.Refused = append(rep.Refused, er)
	}
	return rep
}

func writeCatalogReport(out io.Writer, rep catalogReport) error {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SOURCE\tKIND\tSTATE\tENTRIES\tLAST LISTED\tERROR")
	for _, s := range rep.Sources {
		listed := "-"
		if s.LastListed != nil {
			listed = s.LastListed.Local().Format(time.DateTime)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", s.Name, s.Kind, dash(s.State), s.Entries, listed, dash(firstLineOf(s.LastError)))
	}
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "NAME\tKIND\tSOURCE\tSTATE\tPOLICY\tFLAGS\tSUMMARY")
	for _, e := range rep.Entries {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Name, e.Kind, e.Source, dash(e.State), dash(e.Policy), dash(joinNonEmpty(",", e.Flags...)), e.Summary)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(rep.Refused) > 0 {
		fmt.Fprintf(out, "\nRefused (%d):\n", len(rep.Refused))
		for _, e := range rep.Refused {
			fmt.Fprintf(out, "  %s (%s from %s): %s\n", e.Name, e.Kind, e.Source, e.Reason)
		}
	}
	var probs loader.Problems
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

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func firstLineOf(s string) string {
	for i, c := range s {
		if c == '\n' {
			return s[:i]
		}
	}
	return s
}
