package search

import (
	"bytes"
	"slices"
	"sync"
)

// A name often writes two words as one: `bicepschema_get`, `virtualdesktop_hostpool_list`,
// `appservice_webapp_get`. Its humps and underscores cut nothing there, so a request's
// "Bicep", "host pool" or "app service" cannot match it. splitCompounds cuts such a word
// where both parts are words of the catalog itself, seen as tokens of their own somewhere
// (a description's "Bicep schema"), and indexes the parts in a field of their own. Cutting
// at the catalog's words rather than a dictionary's keeps a name's word whole where the
// catalog never uses its parts ("jackson" stays whole unless the catalog speaks of jacks
// and sons).

// namePartWeight scales a compound's part against a word of the name proper, so that a
// name that has the word whole still comes first: `pool_list` before `hostpool_list` for
// "pool list". It follows the fitted name weight rather than being fitted itself: the dev
// sets hold too few compounds to fit it. At 0.5 or 1 the parts cost dev-azure's
// cross-validated R@1 (0.783 to 0.774).
const namePartWeight = 0.25

// minCompoundPart is the shortest part a compound is cut into: "app" of "appservice", but
// not "re" of "restore".
const minCompoundPart = 3

// termID returns the id of a term, creating it.
func (ix *Index) termID(t string) int32 {
	id, ok := ix.termIDs[t]
	if !ok {
		id = int32(len(ix.terms))
		ix.termIDs[t] = id
		ix.terms = append(ix.terms, termStats{})
	}
	return id
}

// register gives every term of a batch an id before any of it is inserted, so that the
// batch's own words are vocabulary for its compounds whatever order its documents come in.
// (A term stays known after the documents that had it are removed: its id is never freed.)
func (ix *Index) register(batch []analyzedDoc) {
	for i := range batch {
		for _, t := range batch[i].terms {
			ix.termID(t.term)
		}
	}
}

// compoundWords appends to dst the words of a name that may be compounds: runs of letters
// long enough for two parts that are no English word (of the word-vector table, whose
// 40,000 words take in "jackson"; "hostpool" and "bicepschema" are not among them).
func compoundWords(dst []string, name string) []string {
	english := englishWords()
	splitWords(name, func(w []byte) {
		if len(w) < 2*minCompoundPart || !isLetters(string(w)) {
			return
		}
		if _, ok := english[string(w)]; !ok && !slices.Contains(dst, string(w)) {
			dst = append(dst, string(w))
		}
	}, nil)
	return dst
}

// englishWords are the words of the embedded word-vector table, read from its word list
// alone (a few milliseconds): indexing needs to know a word, not its vector, and reading the
// whole table would cost the first listing 170 ms.
var englishWords = sync.OnceValue(func() map[string]struct{} {
	rest, _ := bytes.CutPrefix(wordvecData, []byte("TSWV1\n"))
	line, rest, _ := bytes.Cut(rest, []byte("\n"))
	n, _, err := parseCounts(string(line))
	if err != nil {
		panic("search: wordvec.bin: " + err.Error()) // embedded: cannot happen
	}
	m := make(map[string]struct{}, n)
	for range n {
		var w []byte
		w, rest, _ = bytes.Cut(rest, []byte("\n"))
		m[string(w)] = struct{}{}
	}
	return m
})

// splitCompounds adds to a document the parts of its name's compound words (see
// compoundParts), in fieldNamePart, unless the name has them as words already.
func (ix *Index) splitCompounds(a *analyzedDoc) {
	const nameMask = tfMax << (fieldName * tfBits)
	for _, w := range a.compounds {
		l, r := ix.compoundParts(w)
		if l != "" {
			a.parts = append(a.parts, compoundCut{w, l, r})
		}
		for _, p := range [2]string{l, r} {
			if p == "" {
				continue
			}
			j := 0
			for j < len(a.terms) && a.terms[j].term != p {
				j++
			}
			if j == len(a.terms) {
				a.terms = append(a.terms, termFreq{term: p})
			} else if a.terms[j].tf&(nameMask|tfMax<<(fieldNamePart*tfBits)) != 0 {
				continue
			}
			a.terms[j].tf += 1 << (fieldNamePart * tfBits)
			a.lens[fieldNamePart] = satAdd16(a.lens[fieldNamePart], 1)
		}
	}
}

// A compoundCut is a name's compound word and the terms of its two parts.
type compoundCut struct{ word, left, right string }

// compoundParts cuts a word in two where both parts are words the index knows, returning
// their terms; of several cuts, the most even ("appservice": app + servic, the stem of
// "service").
func (ix *Index) compoundParts(w string) (string, string) {
	var bl, br string
	best := len(w)
	for i := minCompoundPart; i <= len(w)-minCompoundPart; i++ {
		if d := abs(len(w) - 2*i); d < best {
			if l, r := ix.knownPart(w[:i]), ix.knownPart(w[i:]); l != "" && r != "" {
				bl, br, best = l, r, d
			}
		}
	}
	return bl, br
}

// knownPart returns the term of a compound's part if the index knows it.
func (ix *Index) knownPart(p string) string {
	ts := cachedWordTerms([]byte(p))
	if len(ts) != 1 {
		return "" // a stop word, or an abbreviation of several words
	}
	if _, ok := ix.termIDs[ts[0]]; ok {
		return ts[0]
	}
	return ""
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
