package main

import (
	"fmt"
	"io"

	"github.com/toolsearch/toolsearch/server"
	"github.com/toolsearch/toolsearch/server/web"
)

// markOversized flags the catalog report's entries over the size limits
// measure flags (server.Oversized): "oversized" among their flags.
func markOversized(rep *web.CatalogReport, flags []server.Flag) {
	over := map[string]bool{}
	for _, f := range flags {
		over[f.Name] = true
	}
	for i := range rep.Entries {
		if over[rep.Entries[i].Name] {
			rep.Entries[i].Flags = append(rep.Entries[i].Flags, "oversized")
		}
	}
}

// writeOversized lists the definitions over the size limits, each with its
// size, and what a search shows of them.
func writeOversized(out io.Writer, flags []server.Flag) {
	if len(flags) == 0 {
		return
	}
	fmt.Fprintf(out, "\nOversized (%d): a search shows a tool's description %d KiB at a time, with the call that reads on\n", len(flags), server.MaxDescriptionShown>>10)
	for _, f := range flags {
		fmt.Fprintf(out, "  %s (%s from %s): %s\n", f.Name, f.Kind, f.Source, f)
	}
}
