package search

import (
	"encoding/binary"
	"slices"
)

// The second stage reorders the best few candidates of the first (BM25F and server
// evidence) by how well their names fit the query. BM25F rewards a document for
// the query's words it has; it does not mind what else the name says, so among near
// duplicates the one whose name asks for something the query does not mention often won
// ("add_postgres_server" for "list the PostgreSQL servers"). Other features were tried
// (shares of the query found anywhere, in the name, in parameters, among enum values; the
// required parameters the query names; a clash of any action verbs) and did not carry over
// to held-out queries: see BENCHMARKS.md. Two that did are the request that only asks for
// a tool named for a change, and a list tool for a resource named in the plural (see
// action.go). Rules that read a name as contradicted by the request's grammar (a verb
// written only as done already, a converter the wrong way round) gained only on the set
// they were written for and are gone: see BENCHMARKS.md, "Ranking: what each rule carries
// over".

// rerankDepth is how many of the best first-stage candidates the second stage reorders (at
// least; more when the query asks for more hits). Depths of 10 to 100 score alike on the
// development split: the name rarely lifts a tool from further down.
const rerankDepth = 20

// Features of a candidate that the second stage combines linearly.
const (
	featBase        = iota // first-stage score, relative to the query's best text score
	featNameFit            // share of the words of the tool's own name that the query asks for
	featChangeAsked        // 1: the tool's name changes something, the request only asks (see action.go)
	featListsPlural        // 1: the tool's name lists what the request names in the plural
	numFeatures
)

// reranker computes the features of candidates for one query.
type reranker struct {
	ix      *Index
	qterms  []int32     // every term of the query's concepts, sorted
	action  actionClass // what the request asks to do
	plurals []int32     // terms of the words the request writes in the plural, sorted
}

func (ix *Index) newReranker(p parsedQuery, cs []concept) *reranker {
	rr := &reranker{ix: ix}
	// A feature whose weight is 0 (one a fit left out) costs nothing to leave out.
	if ix.weights.rerank[featChangeAsked] != 0 {
		rr.action = requestAction(p.words, p.quoted, p.openers)
	}
	if ix.weights.rerank[featListsPlural] != 0 {
		rr.plurals = ix.pluralTerms(p.words, p.quoted)
	}
	for _, c := range cs {
		if c.hint {
			// A value's type says what a parameter takes, not what the tool is for: "date"
			// for "on March 5th" must not make a name like weather_by_date look asked for
			// more than its near duplicate get_weather, which takes a date as well.
			continue
		}
		for _, t := range c.terms {
			if !t.soft { // a neighbour in vector space is too loose to say a name is asked for
				rr.qterms = append(rr.qterms, t.id)
			}
		}
	}
	slices.Sort(rr.qterms)
	return rr
}

func (rr *reranker) features(c *candidate) [numFeatures]float64 {
	var f [numFeatures]float64
	f[featBase] = c.base
	f[featNameFit] = rr.nameFit(c.slot)
	if rr.action == actionRead && rr.ix.stats[c.slot].verbs.action() == actionChange {
		f[featChangeAsked] = 1
	}
	if rr.ix.listsPlural(c.slot, rr.plurals) {
		f[featListsPlural] = 1
	}
	return f
}

func (rr *reranker) score(c *candidate) float64 {
	f := rr.features(c)
	x := 0.0
	for i, w := range rr.ix.weights.rerank {
		x += w * f[i]
	}
	return x
}

// nameFit is the share of the words of a document's own name (without its server part)
// that have a term among the query's words and their synonyms (not its value hints): 1
// when the query asks for everything the name says.
func (rr *reranker) nameFit(s int32) float64 {
	words, hit := rr.ix.nameWordsIn(s, rr.qterms)
	if words == 0 {
		return 0
	}
	return float64(hit) / float64(words)
}

// nameWordsIn counts the words of a document's own name, and those of them that have a
// term among sorted.
func (ix *Index) nameWordsIn(s int32, sorted []int32) (words, in int) {
	nameWords(ix.slots[s].terms, func(ids []byte) {
		words++
		for len(ids) > 0 {
			id, n := binary.Uvarint(ids)
			ids = ids[n:]
			if _, found := slices.BinarySearch(sorted, int32(id)); found {
				in++
				return
			}
		}
	})
	return words, in
}

func isDigits[W string | []byte](w W) bool {
	for i := range len(w) {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return len(w) > 0
}
