// Package suggest finds the word somebody probably meant: the known key
// closest to a mistyped one ("comand" for command), the command closest to
// an unknown one ("serch" for search). One helper, so that every
// did-you-mean of toolsearch means the same distance.
package suggest

import (
	"strings"
	"unicode/utf8"
)

// maxWord bounds the words compared: a typo is in a name, and a name of
// several hundred characters is no typo of any of them (the distance's
// work grows with the product of the lengths).
const maxWord = 64

// Closest returns the candidate nearest to word, and whether one is near
// enough to be what was meant: at most two edits away (an insertion,
// deletion, substitution or swap of neighbours, letters compared without
// case) and fewer than half of word's letters. Of candidates at the same
// distance, the first wins.
func Closest(word string, candidates []string) (string, bool) {
	if word == "" || len(word) > maxWord {
		return "", false
	}
	best, bestDist := "", -1
	for _, c := range candidates {
		if c == "" || len(c) > maxWord {
			continue
		}
		d := distance(strings.ToLower(word), strings.ToLower(c))
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	n := utf8.RuneCountInString(word)
	if bestDist < 0 || bestDist > 2 || 2*bestDist >= n {
		return "", false
	}
	return best, true
}

// Hint is ` (did you mean "X"?)` for the candidate Closest finds, or "".
func Hint(word string, candidates []string) string {
	if c, ok := Closest(word, candidates); ok {
		return ` (did you mean "` + c + `"?)`
	}
	return ""
}

// distance is the optimal string alignment distance between a and b, in
// characters: the edits of Levenshtein's distance, and a swap of two
// neighbouring characters counted as one, the commonest typo.
func distance(a, b string) int {
	s, t := []rune(a), []rune(b)
	// Three rows: the one before the previous is needed for swaps.
	prev2 := make([]int, len(t)+1)
	prev := make([]int, len(t)+1)
	cur := make([]int, len(t)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(s); i++ {
		cur[0] = i
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(t)]
}
