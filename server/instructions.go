package server

import (
	"fmt"
	"slices"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/scan"
)

// MaxShownInstructions bounds a server's own instructions as tool_search
// results show them, in bytes (about 250 tokens): enough for the usage
// notes servers give (which tool to call first, how to page), too little
// for a server to spend the result budget on.
const MaxShownInstructions = 1024

// ShownInstructions returns a server's own instructions (those of its
// initialize result) as tool_search results show them with its tools, or
// "" when it gave none. Only instructions that were trusted reach the
// catalog (new ones wait for a person, see loader/upstream's held.go), and
// they are still the server's words, so they are taken as hostile: its
// secrets were taken out when they were received, and they go through the
// one screening path of every upstream text shown (scan.Clean: normalized,
// every character that hides text dropped, whitespace runs made one
// space, clipped at MaxShownInstructions bytes). measure counts them with
// this function.
func ShownInstructions(src *catalog.Source) string {
	if src == nil || src.Kind != catalog.SourceServer || src.Instructions == "" {
		return ""
	}
	return scan.Clean(src.Instructions, MaxShownInstructions)
}

// heldInstructionsNote tells the model that a server's instructions wait
// for a person, without a word of them.
func heldInstructionsNote(server, reason string) string {
	return fmt.Sprintf("the instructions of server %s wait for a person's review (%s) and are not shown until approved: ask the user to run toolsearch review", server, reason)
}

// instructionsLine is how a result's text shows a server's instructions,
// marked as the server's, not toolsearch's.
func instructionsLine(server, text string) string {
	return fmt.Sprintf("Instructions of server %s (its own words): %s", server, text)
}

// addInstructions gives the result the instructions of each server whose
// tools it shows in full: the ones the model is about to call.
func addInstructions(snap *catalog.Snapshot, res *SearchResult) {
	for _, it := range res.Results {
		if it.Detail != DetailFull || it.Kind != string(catalog.KindTool) {
			continue
		}
		if _, ok := res.Instructions[it.Source]; ok {
			continue
		}
		src, _ := snap.Source(it.Source)
		if src != nil && src.Kind == catalog.SourceServer && src.InstructionsHeld != "" {
			// The reason is toolsearch's own words (loader/trust).
			if note := heldInstructionsNote(it.Source, src.InstructionsHeld); !slices.Contains(res.Notes, note) {
				res.Notes = append(res.Notes, note)
			}
		}
		if text := ShownInstructions(src); text != "" {
			if res.Instructions == nil {
				res.Instructions = map[string]string{}
			}
			res.Instructions[it.Source] = text
		}
	}
}
