package search

import (
	"slices"
	"strings"
)

// A request that lists its needs one sentence each ("First, book a hotel in Rome.
// Second, what time is it in Tokyo? Lastly, …") is ranked as a whole, where the need
// with the most words, or the most look-alike tools, takes every place of the top five
// (four velocity calculators for the first need, none for the others). A model would
// send such a request as a search per need (tool_search's queries); a request that
// spells its needs out so plainly can be read the same way. Each enumerated sentence
// is ranked on its own, and the rankings are interleaved after the whole request's
// best: the first of each need, then the second of each, and so on. The whole request's
// ranking leads, so its best stays first. The cue is strict, at least two sentences
// that open with an enumerating word, because a guessed split of a request that holds
// one need costs its near-duplicate answers (see BENCHMARKS.md: splitting at "and",
// "then" or "also" anywhere cost R@5).

// enumerators open a sentence that adds a need to a request.
var enumerators = language.entries("enumerators")

// maxNeeds bounds the searches one request costs.
const maxNeeds = 8

// enumeratedNeeds is enumeratedNeeds unless the rule is switched off.
func (ix *Index) enumeratedNeeds(words []string) [][]string {
	if !ix.ablate.on(RuleNeeds) {
		return nil
	}
	return enumeratedNeeds(words)
}

// enumeratedNeeds returns the sentences of a request that enumerates its needs, each
// from an enumerating word to the next (what comes before the first says no need of
// its own), or nil when fewer than two sentences open with one.
func enumeratedNeeds(words []string) [][]string {
	var starts []int
	for i := range words {
		if i > 0 && !endsSentence(words[i-1]) {
			continue
		}
		if isListNumber(words[i]) || slices.ContainsFunc(enumerators, func(e []string) bool { return opensWith(words[i:], e) }) {
			starts = append(starts, i)
		}
	}
	if len(starts) < 2 {
		return nil
	}
	starts = starts[:min(len(starts), maxNeeds)]
	needs := make([][]string, len(starts))
	for k, s := range starts {
		end := len(words)
		if k+1 < len(starts) {
			end = starts[k+1]
		}
		needs[k] = words[s:end]
	}
	return needs
}

// isListNumber reports whether a word numbers an item of a list: "1.", "2)", "(3)".
func isListNumber(w string) bool {
	w = strings.TrimPrefix(w, "(")
	return len(w) == 2 && w[0] >= '1' && w[0] <= '9' && (w[1] == '.' || w[1] == ')')
}

// endsSentence reports whether a word ends a sentence: its last character, quotes and
// brackets aside, is ".", "!" or "?".
func endsSentence(w string) bool {
	w = strings.TrimRight(w, `"')]`+"\u201d\u2019")
	return w != "" && strings.ContainsRune(".!?", rune(w[len(w)-1]))
}

// opensWith reports whether words open with the phrase, in any case, the phrase's last
// word followed by nothing but punctuation ("First,", "Then").
func opensWith(words, phrase []string) bool {
	if len(words) < len(phrase) {
		return false
	}
	for i, p := range phrase {
		w := strings.TrimLeft(words[i], `"'(`+"\u201c\u2018")
		if i == len(phrase)-1 {
			w = strings.TrimRight(w, ",:;")
		}
		if !strings.EqualFold(w, p) {
			return false
		}
	}
	return true
}

// interleaveHits merges rankings into one of at most limit hits (interleaveBy). A hit's
// score is capped by the one before it, so that scores still fall down the list, as
// readers of a Result expect.
func interleaveHits(rankings [][]Hit, limit int) []Hit {
	out := interleaveBy(rankings, limit, func(h Hit) string { return h.ID })
	for i := 1; i < len(out); i++ {
		out[i].Score = min(out[i].Score, out[i-1].Score)
	}
	return out
}

// interleaveBy merges rankings into one of at most n items: the first of each, then the
// second of each, and so on, each key once.
func interleaveBy[T any](rankings [][]T, n int, key func(T) string) []T {
	var out []T
	seen := map[string]bool{}
	for i := 0; len(out) < n; i++ {
		more := false
		for _, r := range rankings {
			if i >= len(r) {
				continue
			}
			more = true
			if k := key(r[i]); !seen[k] && len(out) < n {
				seen[k] = true
				out = append(out, r[i])
			}
		}
		if !more {
			break
		}
	}
	return out
}
