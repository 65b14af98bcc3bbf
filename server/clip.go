package server

import (
	"strconv"
	"unicode/utf8"
)

// clipName shortens a name a client made up for a log line or a label: at
// most n bytes of it, cut between characters, then "…" and its full
// length. Names of toolsearch's own making never need it.
func clipName(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…(" + strconv.Itoa(len(s)) + " bytes)"
}
