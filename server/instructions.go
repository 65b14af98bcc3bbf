package server

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/toolsearch/toolsearch/internal/utf8cut"
	"github.com/toolsearch/toolsearch/loader"
)

// MaxShownInstructions bounds a server's own instructions as tool_search
// results show them, in bytes (about 250 tokens): enough for the usage
// notes servers give (which tool to call first, how to page), too little
// for a server to spend the result budget on.
const MaxShownInstructions = 1024

// ShownInstructions returns a server's own instructions (those of its
// initialize result) as tool_search results show them with its tools, or
// "" when it gave none. They are the server's words, so they are taken as
// hostile: its secrets were taken out when they were received (see
// loader/upstream), characters that hide text from a reader (controls,
// format characters such as zero-width spaces and bidirectional overrides,
// private use) are dropped, whitespace runs become one space, and what is
// left is clipped at MaxShownInstructions bytes. measure counts them with
// this function.
func ShownInstructions(src *loader.Source) string {
	if src == nil || src.Kind != loader.SourceServer || src.Instructions == "" {
		return ""
	}
	var b strings.Builder
	space := false
	// A server may send megabytes of spaces or hidden characters before
	// its text: reading a bounded prefix bounds the work of every search.
	for _, r := range utf8cut.Prefix(src.Instructions, 16*MaxShownInstructions) {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co) || r == unicode.ReplacementChar:
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
		if b.Len() > MaxShownInstructions {
			break
		}
	}
	text := b.String()
	if len(text) > MaxShownInstructions {
		text = strings.TrimRightFunc(utf8cut.Prefix(text, MaxShownInstructions), unicode.IsSpace) + " […]"
	}
	return text
}

// instructionsLine is how a result's text shows a server's instructions,
// marked as the server's, not toolsearch's.
func instructionsLine(server, text string) string {
	return fmt.Sprintf("Instructions of server %s (its own words): %s", server, text)
}

// addInstructions gives the result the instructions of each server whose
// tools it shows in full: the ones the model is about to call.
func addInstructions(snap *loader.Snapshot, res *SearchResult) {
	for _, it := range res.Results {
		if it.Detail != DetailFull || it.Kind != string(loader.KindTool) {
			continue
		}
		if _, ok := res.Instructions[it.Source]; ok {
			continue
		}
		src, _ := snap.Source(it.Source)
		if text := ShownInstructions(src); text != "" {
			if res.Instructions == nil {
				res.Instructions = map[string]string{}
			}
			res.Instructions[it.Source] = text
		}
	}
}
