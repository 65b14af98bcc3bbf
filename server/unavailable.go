package server

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// unavailable reports whether src is an upstream server that serves no
// tools now and has none known: it failed to start, needs a login or is
// disabled, so that a search cannot find its tools and a call cannot
// reach them. A server still starting is not: it is waited for.
func unavailable(src *catalog.Source) bool {
	if src.Kind != catalog.SourceServer || len(src.Entries) > 0 {
		return false
	}
	switch src.State {
	case catalog.StateActive, catalog.StateConnecting, catalog.StateValidating:
		return false
	}
	return true
}

// unavailableNote says what became of an unavailable server and what to
// do, for a search or call that points at it: its error, and that the
// user can see why.
func unavailableNote(src *catalog.Source) string {
	var b strings.Builder
	fmt.Fprintf(&b, "server %s %s, so its tools are not known and none of them can be found or called", src.Name, stateWords(src.State))
	if src.LastError != "" { // the server's words, screened as every upstream text is
		fmt.Fprintf(&b, " (%s)", upstreamError(src.LastError))
	}
	b.WriteString("; tell the user, who sees why with toolsearch catalog")
	return b.String()
}

// stateWords says what a server's state means, as a predicate.
func stateWords(st catalog.State) string {
	switch st {
	case catalog.StateFailed:
		return "failed to start"
	case catalog.StateNeedsAuth:
		return "needs a login"
	case catalog.StateDisabled:
		return "is disabled in toolsearch.yaml"
	}
	return "is " + string(st)
}

// namesServer reports whether a query points at a server by name: one of
// its words is the server's name, or a word of it of three letters or
// more ("github issues" and "github__create_issue" point at github, and
// "drive files" at google-drive).
func namesServer(query, server string) bool {
	name := strings.ToLower(server)
	qwords := words(query)
	for _, w := range qwords {
		if w == name {
			return true
		}
	}
	for _, n := range words(name) {
		if len(n) < 3 {
			continue
		}
		for _, w := range qwords {
			if w == n {
				return true
			}
		}
	}
	return false
}

// words splits text into lowercase runs of letters and digits.
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}
