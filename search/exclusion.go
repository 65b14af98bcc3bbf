package search

import (
	"regexp"
	"strings"
)

// Descriptions written for models often say what a tool is not for, to steer the model to
// a sibling: "Not for listing multiple keys.", "Do not use this tool to list blobs in a
// container.", "When NOT to use: … use resource log query instead." Indexed as they stand,
// those words make the tool match exactly the requests it sends elsewhere: the tool that
// gets one key says "listing" and "keys", and outranks the one that lists them for "list
// the keys". So the sentences that exclude a use, or point to another tool instead, are
// left out of what the description contributes to the index (the description shown to
// the model keeps them). A sentence that recommends this tool over another ("Use this
// instead of 'execute_command' with ls") says what the tool is for, and stays.

// exclusionCue finds, case-insensitively, the phrases that only a sentence excluding a
// use has. It is a quick filter: most descriptions have none, and skip the sentence split.
var exclusionCue = regexp.MustCompile(`(?i)\bnot (?:for|to be used|intended|meant|suitable)\b|\b(?:do not|don't|never|should not|must not) (?:use|call)\b|\bwhen not to\b|\b(?:should not|must not) be used\b|\b(?:use|call|try|prefer)\b[^.;]*\binstead\b|\binstead,? (?:use|call|try)\b`)

// recommendsSelf is a sentence with "use … instead" that points to this tool, not away
// from it. ("Returns a dummy value instead" points nowhere, and exclusionCue does not take
// it: "instead" counts only with a verb that sends the reader somewhere.)
var recommendsSelf = regexp.MustCompile(`(?i)\buse (?:this|me)\b(?: tool| command| function)? instead\b|\binstead of\b`)

// affirmative returns description without its sentences (and ";"-separated clauses) that
// exclude a use or point to another tool. It returns description itself when there are
// none, which is the common case and allocates nothing.
func affirmative(description string) string {
	if !mayExclude(description) || !exclusionCue.MatchString(description) {
		return description
	}
	var b strings.Builder
	for rest := description; rest != ""; {
		end := clauseEnd(rest)
		clause := rest[:end]
		rest = rest[end:]
		if excludes(clause) {
			b.WriteByte(' ') // keeps the words around it apart
			continue
		}
		b.WriteString(clause)
	}
	return b.String()
}

// cuePhrases are where exclusionCue's matches start or turn: each has one of them, in
// some case. They start with "n" or "i", which mayExclude looks for.
var cuePhrases = [...]string{
	"not for", "not to", "not intended", "not meant", "not suitable", "not use", "not call",
	"not be used", "never use", "never call", "n't use", "n't call", "instead",
}

// mayExclude is a quick test that a description has none of exclusionCue's phrases, in
// one pass and without allocating: it spares most descriptions of a large catalog the
// regular expression, which took a tenth of the time to index 100,000 tools.
func mayExclude(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c != 'n' && c != 'i' {
			continue
		}
		for _, p := range cuePhrases {
			if len(s)-i >= len(p) && strings.EqualFold(s[i:i+len(p)], p) {
				return true
			}
		}
	}
	return false
}

// excludes reports whether a clause excludes a use of the tool or sends the reader to
// another tool instead.
func excludes(clause string) bool {
	loc := exclusionCue.FindStringIndex(clause)
	if loc == nil {
		return false
	}
	if strings.Contains(strings.ToLower(clause[loc[0]:loc[1]]), "instead") {
		return !recommendsSelf.MatchString(clause)
	}
	return true
}

// clauseEnd returns the length of s's first clause with its terminator: up to and including
// a ".", "!", "?" or ";" that ends a sentence (followed by a space or the end; "e.g." and
// "v1.2" go on), or a line break.
func clauseEnd(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			return i + 1
		case '.', '!', '?', ';':
			if i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n' || s[i+1] == '\r' || s[i+1] == '\t' {
				if s[i] == '.' && abbreviationBefore(s[:i]) {
					continue
				}
				return i + 1
			}
		}
	}
	return len(s)
}

// abbreviationBefore reports whether the "." after s ends an abbreviation ("e.g", "i.e",
// "etc") rather than a sentence.
func abbreviationBefore(s string) bool {
	w := s[strings.LastIndexAny(s, " \t\n(")+1:]
	switch strings.ToLower(w) {
	case "e.g", "i.e", "etc", "eg", "ie", "vs", "approx":
		return true
	}
	return false
}
