//go:build ignore

// Command wordnet_gen writes wordnet.txt.gz, the part of WordNet 3.0 that ranking uses,
// from Debian's wordnet-base package (/usr/share/wordnet):
//
//	apt-get install wordnet-base && go generate ./search/
//
// The file has one relation a line, words separated by spaces:
//
//	d multiplication multiply   derivationally related forms (WordNet's "+" pointers)
//	s cab taxi taxicab hack     the other words of a word's most frequent sense (if tagged)
//
// Only single words of lower-case letters are kept, and only nouns, verbs and adjectives.
// WordNet 3.0 is © 2006 Princeton University, under a licence that allows use, copying
// and distribution with its notice (see wordnet.LICENSE).
package main

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"log"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
)

const dir = "/usr/share/wordnet/"

// plain reports whether w is a single word of lower-case letters.
func plain(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return len(w) > 1
}

type synset struct {
	words []string
	deriv map[int][]string // word number (1-based) -> derivationally related words
}

// A derivation is a "+" pointer of a synset's word to a word of a synset
// that may be in another file, resolved once all are read.
type derivation struct {
	from        *synset
	offset, pos string // the target synset
	src, dst    int    // word numbers (1-based) in from and in the target
}

// files are the parts of speech kept.
var files = []string{"noun", "verb", "adj"}

func main() {
	all := map[string]map[string]*synset{"adv": {}} // part of speech -> offset -> synset
	var derivs []derivation
	for _, pos := range files {
		synsets, d := readData(pos)
		all[pos] = synsets
		derivs = append(derivs, d...)
	}
	for _, d := range derivs {
		target := all[posFile(d.pos)][d.offset]
		if target == nil || d.dst < 1 || d.dst > len(target.words) {
			continue
		}
		d.from.deriv[d.src] = append(d.from.deriv[d.src], target.words[d.dst-1])
	}
	write("wordnet.txt.gz", derived(all), senses(all))
}

// readData reads the synsets of data.POS by their offsets, and the
// derivations they point to.
func readData(pos string) (map[string]*synset, []derivation) {
	f, err := os.Open(dir + "data." + pos)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	out := map[string]*synset{}
	var derivs []derivation
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "  ") {
			continue // licence header
		}
		fields := strings.Fields(strings.SplitN(line, " | ", 2)[0])
		n, _ := strconv.ParseInt(fields[3], 16, 32)
		ss := &synset{deriv: map[int][]string{}}
		i := 4
		for range n {
			w := strings.ToLower(fields[i])
			if k := strings.IndexByte(w, '('); k >= 0 {
				w = w[:k] // adjective markers: (a), (p), (ip)
			}
			ss.words = append(ss.words, w)
			i += 2
		}
		pc, _ := strconv.Atoi(fields[i])
		i++
		for range pc {
			sym, off, p, st := fields[i], fields[i+1], fields[i+2], fields[i+3]
			i += 4
			if sym != "+" {
				continue
			}
			src, _ := strconv.ParseInt(st[:2], 16, 32)
			dst, _ := strconv.ParseInt(st[2:], 16, 32)
			derivs = append(derivs, derivation{ss, off, p, int(src), int(dst)})
		}
		out[fields[0]] = ss
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
	return out, derivs
}

func posFile(p string) string {
	switch p {
	case "n":
		return "noun"
	case "v":
		return "verb"
	case "a", "s":
		return "adj"
	}
	return "adv"
}

// derived maps each plain word to its derivationally related plain words.
func derived(all map[string]map[string]*synset) map[string][]string {
	deriv := map[string][]string{}
	for _, pos := range files {
		for _, ss := range all[pos] {
			for src, rel := range ss.deriv {
				if src < 1 || src > len(ss.words) {
					continue
				}
				w := ss.words[src-1]
				for _, r := range rel {
					if plain(w) && plain(r) && r != w && !slices.Contains(deriv[w], r) {
						deriv[w] = append(deriv[w], r)
					}
				}
			}
		}
	}
	return deriv
}

// senses maps each plain word seen in the tagged corpus to the other plain
// words of its most frequent sense, as index.POS lists it first.
func senses(all map[string]map[string]*synset) map[string][]string {
	syn := map[string][]string{}
	for _, pos := range files {
		f, err := os.Open(dir + "index." + pos)
		if err != nil {
			log.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "  ") {
				continue
			}
			fields := strings.Fields(line)
			w := fields[0]
			if !plain(w) {
				continue
			}
			pc, _ := strconv.Atoi(fields[3])
			tagged, _ := strconv.Atoi(fields[5+pc])
			if tagged == 0 {
				continue // no sense seen in the tagged corpus: rare words, rare senses
			}
			first := all[pos][fields[6+pc]]
			if first == nil {
				continue
			}
			for _, o := range first.words {
				if plain(o) && o != w && !slices.Contains(syn[w], o) {
					syn[w] = append(syn[w], o)
				}
			}
		}
		f.Close()
	}
	return syn
}

// write writes the relations, one a line, words sorted.
func write(name string, deriv, syn map[string][]string) {
	out, err := os.Create(name)
	if err != nil {
		log.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(out, gzip.BestCompression)
	bw := bufio.NewWriter(zw)
	for _, w := range slices.Sorted(maps.Keys(deriv)) {
		rel := deriv[w]
		slices.Sort(rel)
		fmt.Fprintf(bw, "d %s %s\n", w, strings.Join(rel, " "))
	}
	for _, w := range slices.Sorted(maps.Keys(syn)) {
		fmt.Fprintf(bw, "s %s %s\n", w, strings.Join(syn[w], " "))
	}
	if err := bw.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	if err := out.Close(); err != nil {
		log.Fatal(err)
	}
}
