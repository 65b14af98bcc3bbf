package server

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolsearch/toolsearch/internal/utf8cut"
	"github.com/toolsearch/toolsearch/loader/catalog"
)

// MaxDescriptionShown bounds how much of one tool's description a search
// result shows in full detail: 8 KiB, some 2,000 tokens (MaxToolTokens), so
// that a description of any size leaves the result room for the tool's
// schema, which is what a call needs. A longer description is shown a page
// at a time: the item's note (ResultItem.More) gives its size and the
// select: call, with a cursor, that reads on. Without the bound, a
// description larger than the result budget turned the item into its first
// sentence and the advice to select it, which gave the same again.
const MaxDescriptionShown = 8 << 10

// descCursorPrefix marks a cursor that continues a description, as
// "offset:" marks one that continues an empty-query listing.
const descCursorPrefix = "description:"

// descriptionCursor is the cursor of the description page from byte from.
func descriptionCursor(from int) string {
	return base64.RawURLEncoding.EncodeToString([]byte(descCursorPrefix + strconv.Itoa(from)))
}

// parseDescriptionCursor returns the byte a description cursor continues
// from; query is the search it came with, for the error.
func parseDescriptionCursor(cursor string) (int, error) {
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	rest, ok := strings.CutPrefix(string(raw), descCursorPrefix)
	n, err2 := strconv.Atoi(rest)
	if err != nil || !ok || err2 != nil || n < 0 {
		return 0, fmt.Errorf("invalid cursor %q: with a query, cursor continues a tool's description; pass it unchanged with the select:NAME query its note gives", cursor)
	}
	return n, nil
}

// descriptionPage returns the part of a tool's description a result shows
// from byte from, and the note that says what part it is and how to read
// on ("" when the description is shown whole).
func descriptionPage(name, desc string, from int) (page, note string) {
	if from == 0 && len(desc) <= MaxDescriptionShown {
		return desc, ""
	}
	from = min(from, len(desc))
	page = utf8cut.Prefix(desc[from:], MaxDescriptionShown)
	if from+len(page) < len(desc) {
		// End the page at a line break in its second half, where there is one.
		if i := strings.LastIndexByte(page, '\n'); i >= MaxDescriptionShown/2 {
			page = page[:i+1]
		}
	}
	end := from + len(page)
	note = fmt.Sprintf("its description is %s bytes, more than a result shows (%d KiB): this is bytes %s-%s",
		thousands(len(desc)), MaxDescriptionShown>>10, thousands(from+1), thousands(end))
	if end >= len(desc) {
		return page, note + ", its end"
	}
	call := fmt.Sprintf(`tool_search {"query": %q, "cursor": %q}`, "select:"+name, descriptionCursor(end))
	return page, note + "; read on with " + call
}

// thousands writes n with its digits grouped by commas, as the notes the
// model reads give sizes.
func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// pageDescription shows the page of a tool's description from byte from:
// a cursor with a query continues the description of the one tool that
// select: named.
func (s *Server) pageDescription(selected bool, items []ResultItem, from int) error {
	if !selected || len(items) != 1 || items[0].entry.Kind != catalog.KindTool || items[0].Detail != DetailFull {
		return errors.New("with a query, cursor continues one tool's description: pass it with the select:NAME query of that tool, as its note gives, and detail full")
	}
	it := &items[0]
	if from >= len(it.entry.Description) {
		return fmt.Errorf("cursor is past the end of %s's description (%s bytes): it was read to its end", it.Name, thousands(len(it.entry.Description)))
	}
	it.descFrom = from
	s.setDetail(it, DetailFull)
	return nil
}

// shortenedNote is the note of a result shortened to fit the result
// budget. It advises select: only where the query was not select: already,
// for that would give the same again.
func (r *SearchResult) shortenedNote(budget int) string {
	selected := len(r.groups) > 0
	for _, g := range r.groups {
		selected = selected && g.selected
	}
	switch {
	case !selected:
		return fmt.Sprintf("Some results were shortened to fit the result budget of %d tokens; ask for one with select:<name> to see it in full.", budget)
	case len(r.Results) == 1:
		return fmt.Sprintf("%s is larger than the result budget of %d tokens even alone, so it is shortened to fit; its whole definition cannot be shown here (toolsearch's resultBudget setting raises the budget).", r.Results[0].Name, budget)
	}
	return fmt.Sprintf("Some results were shortened to fit the result budget of %d tokens: select fewer names at a time, one for a definition in full.", budget)
}
