package search

import (
	"slices"
	"strings"
)

const (
	// maxCorrectedWords bounds the queries that get spelling corrections: keyword and
	// identifier queries ("gh_create_isue", "flgiht status"), not sentences, whose
	// unknown words are mostly names and places and would only cost time.
	maxCorrectedWords = 3
	// minCorrectedLen is the shortest word worth correcting; short words have too many
	// neighbours to guess from.
	minCorrectedLen = 4
	// maxCorrectedLen is the longest: a word has about 54 edits per letter, each a copy of
	// the word, so the work grows with its square (a 5,000-letter word took seconds), and
	// no word of a catalog is that long.
	maxCorrectedLen = 32
	// correctionWeight scales the evidence of a corrected word: a guess counts less than
	// what the user wrote.
	correctionWeight = 0.7
)

// corrections returns, for each word of a short query that no document contains, a
// concept of the indexed terms one edit away (a letter dropped, added, changed, or two
// letters swapped), so that a typo in a name still finds the tool. Only the most common
// candidate counts, which is the usual guess of a spelling corrector.
func (ix *Index) corrections(words []string) []concept {
	if len(words) > maxCorrectedWords {
		return nil
	}
	var out []concept
	var seen []int32
	emit := func(w []byte) {
		if len(w) < minCorrectedLen || len(w) > maxCorrectedLen || !isLowerASCII(w) {
			return
		}
		known := false
		for _, t := range cachedWordTerms(w) {
			_, ok := ix.lookup(t)
			known = known || ok
		}
		if known || stopWords[string(w)] {
			return
		}
		best, bestDF := int32(-1), int32(0)
		forEachEdit(string(w), func(v string) {
			for _, t := range wordTerms(v) {
				if id, ok := ix.lookup(t); ok && (ix.terms[id].df > bestDF || ix.terms[id].df == bestDF && id < best) {
					best, bestDF = id, ix.terms[id].df
				}
			}
		})
		if best >= 0 && !slices.Contains(seen, best) {
			seen = append(seen, best)
			out = append(out, concept{idf: ix.idf(best), weight: correctionWeight, terms: []queryTerm{{id: best, weight: 1}}})
		}
	}
	for _, w := range words {
		splitWords(w, emit, nil)
	}
	return out
}

// forEachEdit calls f with every string one Damerau-Levenshtein edit away from w, over the
// letters a-z.
func forEachEdit(w string, f func(string)) {
	var b strings.Builder
	edit := func(parts ...string) {
		b.Reset()
		for _, p := range parts {
			b.WriteString(p)
		}
		f(b.String())
	}
	for i := 0; i <= len(w); i++ {
		if i < len(w) {
			edit(w[:i], w[i+1:]) // drop
			if i+1 < len(w) && w[i] != w[i+1] {
				edit(w[:i], w[i+1:i+2], w[i:i+1], w[i+2:]) // swap
			}
		}
		for c := byte('a'); c <= 'z'; c++ {
			if i < len(w) && w[i] != c {
				edit(w[:i], string(c), w[i+1:]) // change
			}
			edit(w[:i], string(c), w[i:]) // add
		}
	}
}

func isLowerASCII(w []byte) bool {
	for _, c := range w {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}
