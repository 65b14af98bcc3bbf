// Package utf8cut cuts text at a byte count between characters, so that a
// bound on what is repeated, logged or kept of a string (or JSON) somebody
// else sent never splits a UTF-8 sequence: the cut string stays valid
// where the whole was.
package utf8cut

import "unicode/utf8"

// Prefix returns at most n bytes of s, cut before the character that would
// cross n. The caller marks the cut as its message needs.
func Prefix[T ~string | ~[]byte](s T, n int) T {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
