package search

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"slices"
	"strings"
	"sync"
)

//go:generate go run wordnet_gen.go

// wordnetData holds the relations between words that ranking takes from WordNet 3.0
// (Princeton University; see wordnet.LICENSE): derivationally related forms
// ("multiplication" and "multiply", "payment" and "pay", which Porter's stemmer does not
// conflate) and the other words of a word's most frequent sense ("cab": taxi). See
// wordnet_gen.go for how it is made.
//
//go:embed wordnet.txt.gz
var wordnetData []byte

// lexicon is WordNet's relations between index terms (stems): derived maps a term to the
// terms of its derivationally related forms, sense to those of its most frequent sense.
// Relations between words of one stem are left out, since the stemmer joins them already.
type lexicon struct {
	derived, sense map[string][]string
}

var wordnet = sync.OnceValue(func() *lexicon {
	lx := &lexicon{derived: map[string][]string{}, sense: map[string][]string{}}
	zr, err := gzip.NewReader(bytes.NewReader(wordnetData))
	if err != nil {
		panic("search: wordnet.txt.gz: " + err.Error()) // embedded: cannot happen
	}
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 3 {
			continue
		}
		m := lx.derived
		if fields[0] == "s" {
			m = lx.sense
		}
		t := normalize(fields[1])
		if t == "" {
			continue
		}
		for _, w := range fields[2:] {
			if u := normalize(w); u != "" && u != t && !slices.Contains(m[t], u) {
				m[t] = append(m[t], u)
			}
		}
	}
	return lx
})
