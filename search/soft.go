package search

import (
	"cmp"
	"slices"
)

// The soft stage finds, for a request's word that no document shares, the words of the
// catalog that mean about the same ("film" for a catalog that says "movie", "painting" for
// one that says "artwork"), and lets them stand in at a lower weight. It sits below exact
// and stemmed matches, synonyms and WordNet, and comes into play only where they are weak:
// for a word the catalog does not have at all. (Adding the nearest catalog words to every
// request lowered R@5 from 0.825 to 0.783: a word the catalog has is better evidence than
// any neighbour of it.)
//
// It is pluggable: a SoftStage prepares what it knows about a catalog's vocabulary, and
// that preparation answers for query words. The shipped one compares GloVe word vectors
// (see wordvec.go); a sentence encoder could take its place, or join it, by the same
// interface.

// SoftStage proposes related catalog terms for query words that no document shares.
type SoftStage interface {
	// Prepare returns what the stage needs to answer for a catalog whose terms are those
	// for which has reports true. It is called again when the catalog has new terms.
	Prepare(has func(term string) bool) SoftVocabulary
}

// SoftVocabulary answers for one catalog's vocabulary.
type SoftVocabulary interface {
	// Related returns up to n terms of the catalog related to the query term (a stem; see
	// normalize), best first, each with a similarity in (0, 1].
	Related(term string, n int) []RelatedTerm
}

// RelatedTerm is a catalog term with its similarity to a query term.
type RelatedTerm struct {
	Term       string
	Similarity float64
}

// Soft stage settings: a neighbour must be at least softFloor similar (GloVe puts words of
// one topic at 0.5 to 0.6 and near-synonyms above 0.7), at most softTerms of them stand
// in for a word, and each counts softWeight times its similarity, below a synonym's 0.3.
const (
	softFloor  = 0.65
	softTerms  = 3
	softWeight = 0.25
)

// softWords is how many words of a query the soft stage answers for: comparing a word
// with the catalog's vocabulary costs a few tenths of a millisecond at 10,000 tools (3,330
// words with vectors), and the words a catalog lacks are few in a request about it.
const softWords = 2

// softQuery is the soft stage's state during one query: the vocabulary, prepared on the
// first word that needs it, and how many words asked.
type softQuery struct {
	v     SoftVocabulary
	asked int
}

// SetSoftStage replaces the index's soft stage; nil turns it off.
func (ix *Index) SetSoftStage(s SoftStage) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.soft = s
	ix.softVocab = nil
}

// softVocabulary returns the soft stage's vocabulary of the catalog, prepared again when
// the index has gained terms since. Callers hold ix.mu for reading.
func (ix *Index) softVocabulary() SoftVocabulary {
	if ix.soft == nil {
		return nil
	}
	ix.softMu.Lock()
	defer ix.softMu.Unlock()
	if ix.softVocab == nil || ix.softAt != len(ix.terms) {
		ix.softVocab = ix.soft.Prepare(func(t string) bool { _, ok := ix.lookup(t); return ok })
		ix.softAt = len(ix.terms)
	}
	return ix.softVocab
}

// WordVectors is the shipped soft stage: the cosine of GloVe word vectors (wordvec.go).
type WordVectors struct{}

// Prepare keeps the words of the table whose terms the catalog has, one per term (the most
// frequent word with that stem).
func (WordVectors) Prepare(has func(string) bool) SoftVocabulary {
	t := shippedVectors()
	v := &vectorVocabulary{t: t}
	for stem, i := range t.byStem {
		if has(stem) {
			v.rows = append(v.rows, i)
		}
	}
	slices.Sort(v.rows) // so that ties between neighbours go the same way every time
	// The catalog's vectors side by side, to be read in one sweep.
	v.mat = make([]int8, 0, len(v.rows)*t.dim)
	for _, r := range v.rows {
		for _, x := range t.vector(r) {
			v.mat = append(v.mat, int8(x))
		}
	}
	return v
}

type vectorVocabulary struct {
	t    *wordVectors
	rows []int32 // words of the table whose terms the catalog has
	mat  []int8  // their vectors, row after row
}

func (v *vectorVocabulary) Related(term string, n int) []RelatedTerm {
	q, ok := v.t.byStem[term]
	if !ok || n <= 0 {
		return nil
	}
	best := make([]RelatedTerm, 0, n+1)
	dim := v.t.dim
	qv := make([]int8, dim)
	for i, x := range v.t.vector(q) {
		qv[i] = int8(x)
	}
	qn := float64(v.t.norms[q])
	for k, r := range v.rows {
		if r == q || qn == 0 || v.t.norms[r] == 0 {
			continue
		}
		c := float64(dot8(qv, v.mat[k*dim:(k+1)*dim])) / (qn * float64(v.t.norms[r]))
		if c < softFloor || len(best) == n && c <= best[n-1].Similarity {
			continue
		}
		rt := RelatedTerm{Term: normalize(v.t.words[r]), Similarity: c}
		at, _ := slices.BinarySearchFunc(best, c, func(x RelatedTerm, c float64) int { return cmp.Compare(c, x.Similarity) })
		best = slices.Insert(best, at, rt)
		if len(best) > n {
			best = best[:n]
		}
	}
	return best
}

// dot8 is the dot product of two vectors of equal length, four components at a time.
func dot8(a, b []int8) int32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 int32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += int32(a[i]) * int32(b[i])
		s1 += int32(a[i+1]) * int32(b[i+1])
		s2 += int32(a[i+2]) * int32(b[i+2])
		s3 += int32(a[i+3]) * int32(b[i+3])
	}
	for ; i < len(a); i++ {
		s0 += int32(a[i]) * int32(b[i])
	}
	return s0 + s1 + s2 + s3
}
