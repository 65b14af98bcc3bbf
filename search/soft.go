package search

import (
	"cmp"
	"slices"
	"sync"
)

// The soft stage finds, for a request's word that no document shares, the words of the
// catalog that mean about the same ("postal" for a catalog that says "zip", "painting" for
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
	return v
}

type vectorVocabulary struct {
	t    *wordVectors
	rows []int32 // words of the table whose terms the catalog has
}

var relatedPool = sync.Pool{New: func() any { return new([]RelatedTerm) }}

func (v *vectorVocabulary) Related(term string, n int) []RelatedTerm {
	q, ok := v.t.byStem[term]
	if !ok || n <= 0 {
		return nil
	}
	buf := relatedPool.Get().(*[]RelatedTerm)
	best := (*buf)[:0]
	for _, r := range v.rows {
		if r == q {
			continue
		}
		c := v.t.cosine(q, r)
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
	out := slices.Clone(best)
	*buf = best
	relatedPool.Put(buf)
	return out
}
