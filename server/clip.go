package server

import (
	"strconv"

	"github.com/toolsearch/toolsearch/internal/utf8cut"
)

// Bounds on what the server repeats, keeps or logs of a string the client
// made up (a tool, skill or script name, a path, a query, an argument's
// name): a client may send a megabyte where a name belongs, and every
// copy of it would be sent back, tokenized, kept among the recent events
// and written to the trace.
const (
	// maxEchoed bounds a name of the client's repeated in a message to it:
	// more than any name the catalog holds (tool names 64 bytes, skill
	// names 128), enough to recognise one that is not.
	maxEchoed = 128
	// maxPath bounds a path in a skill folder (PATH_MAX on Linux): a longer
	// one cannot name a file, and is refused before anything looks for it.
	maxPath = 4096
	// maxListed bounds the unknown names one message lists.
	maxListed = 10
)

// clipName shortens a name a client made up for a log line or a label: at
// most n bytes of it, cut between characters, then "…" and its full
// length. Names of toolsearch's own making never need it.
func clipName(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return utf8cut.Prefix(s, n) + "…(" + strconv.Itoa(len(s)) + " bytes)"
}

// quoteName quotes a name or path the client sent, for a message to it:
// whole when it is at most maxEchoed bytes, else its first maxEchoed bytes,
// and a note that says it was cut.
func quoteName(s string) string {
	if len(s) <= maxEchoed {
		return strconv.Quote(s)
	}
	return strconv.Quote(utf8cut.Prefix(s, maxEchoed)) + "… (" + strconv.Itoa(len(s)) + " bytes, cut short here)"
}
