package search

import (
	"math"
	"math/bits"
	"slices"
	"strings"
)

// BM25F parameters. Length normalization (b) is mild for names and parameter descriptions,
// whose length says little about focus. The field weights, which say how much a word
// counts where it occurs, are fitted (see weights).
var (
	bm25K1 = 1.2
	fieldB = [numFields]float64{
		fieldName: 0.3, fieldSource: 0.3, fieldTitle: 0.5, fieldDesc: 0.75,
		fieldParamName: 0.5, fieldParamDesc: 0.3, fieldEnum: 0,
		fieldHeading: 0.75, fieldBody: 0.75, fieldNamePart: 0.3,
	}
)

const (
	// synonymWeight scales a synonym's evidence relative to the word the user wrote; so do
	// derivedWeight for a derivationally related form and senseWeight for a word of the
	// same WordNet sense (see wordnetTerms).
	synonymWeight = 0.3
	derivedWeight = 0.3
	senseWeight   = 0.3
	// hintWeight scales the evidence of a value's type ("date" for "on March 5th"): as
	// much as the word written, since a value of the type is as sure a sign of a parameter
	// that takes it. (It had to be lower while hints also counted in the name fit, where a
	// name that spells the type, "weather_by_date", won on the hint alone.)
	hintWeight = 1.0
	// requiredWeight scales "+term" scores when other words rank: enough to break ties, too
	// little to dominate (a long "+prefix" taking over the ranking was a reported problem).
	requiredWeight = 0.05
	// glossWeight scales the evidence of a Chinese word's English gloss (see cedict.go):
	// a translation by dictionary, of a word cut from its sentence by guess, is weaker
	// evidence than a word the user wrote (0.5, 0.7 and 1 tried: see BENCHMARKS.md).
	glossWeight = 0.7
	// groupWeight scales the evidence that a document's server as a whole matches the query.
	groupWeight = 0.25
	// phraseWeight scales the evidence of two neighbouring query words that a name or
	// parameter name writes as one word ("current weather" for get_current_weather, "find
	// movies" for FindMovies): a phrase of the name, on top of the words' own evidence.
	phraseWeight = 0.15
)

// Tiers order hits before scores do; a hit's Score is its tier plus a text score squashed
// into [0, 1).
const (
	tierText = iota
	tierPrefix
	tierExact
)

// concept is one word of the query with its synonyms. Its terms share one BM25 saturation,
// so a tool that says both "find" and "search" is not counted twice for a query that says
// "find" (as Lucene's SynonymQuery does).
type concept struct {
	idf    float64
	weight float64     // 1 for words of the query, less for inferred ones
	terms  []queryTerm // the word itself if indexed, then its synonyms
	hint   bool        // a value's type ("date" for "on March 5th"), not a word of the query
}

// queryTerm is one indexed term of a concept with its weight within the concept.
type queryTerm struct {
	id     int32
	weight float64
	soft   bool // proposed by the soft stage, which the name fit does not count
}

// scratch holds the per-document buffers of one search, pooled so that a search allocates
// nothing in proportion to the index.
type scratch struct {
	score    []float64 // text score per slot
	tf       []float64 // weighted term frequency per slot of the concept being scored
	reqHits  []uint16  // required terms found per slot
	seen     []bool    // slot is in touched
	touched  []int32   // slots with any evidence, in order of discovery
	passed   []int32   // touched slots that pass the "+term" filter
	docs     []int32   // slots with tf set
	groupSum []float64 // text score per group
	key      []float64 // per passed slot: tier + squashed first-stage score
	base     []float64 // per passed slot: first-stage score, relative to the best text score
	heap     []float64 // for kthLargest
	cands    []candidate
	tiers    map[int32]int
}

func (ix *Index) getScratch() *scratch {
	sc, _ := ix.scratch.Get().(*scratch)
	if sc == nil {
		sc = &scratch{tiers: map[int32]int{}}
	}
	if n := len(ix.slots); len(sc.score) < n {
		n += n / 4 // room to grow before the next reallocation
		sc.score = make([]float64, n)
		sc.tf = make([]float64, n)
		sc.reqHits = make([]uint16, n)
		sc.seen = make([]bool, n)
	}
	if n := len(ix.groupSize); len(sc.groupSum) < n {
		sc.groupSum = make([]float64, n+n/4)
	}
	return sc
}

func (ix *Index) putScratch(sc *scratch) {
	for _, s := range sc.touched {
		sc.score[s], sc.reqHits[s], sc.seen[s] = 0, 0, false
	}
	sc.touched = sc.touched[:0]
	clear(sc.groupSum)
	clear(sc.tiers)
	ix.scratch.Put(sc)
}

// kthLargest returns the k-th largest of xs, or -Inf if there are no more than k.
func (sc *scratch) kthLargest(xs []float64, k int) float64 {
	if len(xs) <= k {
		return math.Inf(-1)
	}
	h := append(sc.heap[:0], xs[:k]...) // a min-heap of the k largest so far
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= len(h) {
				return
			}
			if r := l + 1; r < len(h) && h[r] < h[l] {
				l = r
			}
			if h[i] <= h[l] {
				return
			}
			h[i], h[l] = h[l], h[i]
			i = l
		}
	}
	for i := k/2 - 1; i >= 0; i-- {
		down(i)
	}
	for _, x := range xs[k:] {
		if x > h[0] {
			h[0] = x
			down(0)
		}
	}
	sc.heap = h
	return h[0]
}

func (sc *scratch) touch(s int32) {
	if !sc.seen[s] {
		sc.seen[s] = true
		sc.touched = append(sc.touched, s)
	}
}

// Search ranks the documents for a query. See Query for the query forms.
func (ix *Index) Search(q Query) Result {
	p := parseQuery(q.Text)
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	ix.searching <- struct{}{}
	defer func() { <-ix.searching }()
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	kind, ok := ix.kindFilter(q.Kind)
	if p.isSelect {
		if !ok {
			return Result{Selected: true, Unknown: p.selected}
		}
		return ix.selectNames(p.selected, kind)
	}
	res := Result{Required: p.required}
	if p.text == "" || ix.live == 0 || !ok {
		return res
	}
	res.Hits, res.Total = ix.rank(p, kind, limit)
	if needs := ix.enumeratedNeeds(p.words); len(needs) > 0 && len(res.Hits) > 0 {
		rankings := [][]Hit{res.Hits}
		for _, words := range needs {
			need := parsedQuery{text: strings.Join(words, " "), words: words, required: p.required}
			hits, _ := ix.rank(need, kind, limit)
			rankings = append(rankings, hits)
		}
		res.Hits = interleaveHits(rankings, limit)
	}
	if len(res.Hits) == 0 && len(p.required) > 0 {
		// No document has every "+term" (with the other words): rather than nothing, the
		// best matches of all the words, said to be so.
		relaxed := p
		relaxed.words = append(slices.Clip(p.words), p.required...)
		relaxed.required = nil
		res.Hits, res.Total = ix.rank(relaxed, kind, limit)
		res.Relaxed = true
	}
	if len(res.Hits) == 0 {
		// Nothing in the query matched anything (a language the catalog is not written
		// in, punctuation alone): a few entries to start from, and never an empty answer.
		res.Hits = ix.browse(kind, limit)
	}
	return res
}

// rank returns the best limit hits of a parsed query and how many documents matched.
func (ix *Index) rank(p parsedQuery, kind, limit int) ([]Hit, int) {
	if len(p.words) == 0 && len(p.required) == 0 {
		return nil, 0
	}
	p.quoted, p.openers = quotedWords(p.words), openerWords(p.words)
	if !ix.ablate.on(RuleQuoted) {
		clear(p.quoted)
	}
	if !ix.ablate.on(RuleOpeners) {
		clear(p.openers)
	}
	optional, required, impossible := ix.queryConcepts(p)
	if impossible {
		return nil, 0
	}
	sc := ix.getScratch()
	defer ix.putScratch(sc)

	reqWeight := requiredWeight
	if len(optional) == 0 {
		reqWeight = 1 // the required terms are all there is to rank by
	}
	ix.scoreConcepts(sc, optional, kind, 1, false)
	ix.scoreConcepts(sc, required, kind, reqWeight, true)
	ix.nameTiers(sc, p, kind)

	top := ix.firstStage(sc, len(required), max(limit, rerankDepth))
	total := len(sc.passed)
	ix.secondStage(&top, p, optional)
	top.c = top.c[:min(limit, len(top.c))]
	hits := top.hits()
	sc.cands = top.c[:0]
	return hits, total
}

// browse returns limit documents of the kind for a query that matched nothing: the first of
// each server (by ID) before a second of any, so that they show the catalog's breadth.
func (ix *Index) browse(kind, limit int) []Hit {
	first := make([]int32, len(ix.groupSize)) // per group, 1 + its document with the smallest ID so far
	lead := leastIDs{ix: ix, n: limit}        // documents without a group, and the first of each group
	rest := leastIDs{ix: ix, n: limit}        // the other documents of groups
	for i := range ix.slots {
		s := int32(i)
		if !ix.kindOK(s, kind) {
			continue
		}
		g := ix.stats[s].group
		if g == noGroup {
			lead.add(s)
			continue
		}
		switch f := first[g] - 1; {
		case f < 0:
			first[g] = s + 1
		case ix.slots[s].id < ix.slots[f].id:
			rest.add(f)
			first[g] = s + 1
		default:
			rest.add(s)
		}
	}
	for _, f := range first {
		if f > 0 {
			lead.add(f - 1)
		}
	}
	ids := append(lead.least(), rest.least()...)
	hits := make([]Hit, 0, min(limit, len(ids)))
	for _, s := range ids[:min(limit, len(ids))] {
		hits = append(hits, Hit{ID: ix.slots[s].id, Match: MatchBrowse})
	}
	return hits
}

// leastIDs keeps the n documents with the smallest IDs of those added. It sorts what it
// holds only when that is twice what it keeps, and then refuses what comes after the n-th:
// sorting a whole catalog of 100,000 to show five took 25 ms.
type leastIDs struct {
	ix    *Index
	n     int
	kept  []int32
	bound string // once kept has been cut to n, the largest ID kept
	full  bool
}

func (l *leastIDs) add(s int32) {
	if l.full && l.ix.slots[s].id > l.bound {
		return
	}
	l.kept = append(l.kept, s)
	if len(l.kept) >= 2*l.n+16 {
		l.least()
	}
}

// least returns the documents kept, at most n, by ID.
func (l *leastIDs) least() []int32 {
	slices.SortFunc(l.kept, func(a, b int32) int { return strings.Compare(l.ix.slots[a].id, l.ix.slots[b].id) })
	l.kept = l.kept[:min(l.n, len(l.kept))]
	if l.n > 0 && len(l.kept) == l.n {
		l.full, l.bound = true, l.ix.slots[l.kept[l.n-1]].id
	}
	return l.kept
}

// firstStage keeps the documents that pass every "+term" (of nRequired) and returns the
// best depth of them by BM25F and server evidence, best first. Their
// scores are gathered first and only those at or above the depth-th best become
// candidates, so that the many documents that tie (replicated or near-identical tools)
// cost no name comparisons.
func (ix *Index) firstStage(sc *scratch, nRequired, depth int) ranking {
	// Drop what fails a "+term", then gather each server's evidence.
	sc.passed = sc.passed[:0]
	maxText := 0.0
	for _, s := range sc.touched {
		if nRequired > 0 && int(sc.reqHits[s]) < nRequired {
			continue
		}
		sc.passed = append(sc.passed, s)
		maxText = max(maxText, sc.score[s])
		if g := ix.stats[s].group; g != noGroup {
			sc.groupSum[g] += sc.score[s]
		}
	}
	if maxText == 0 {
		maxText = 1
	}
	sc.key, sc.base = sc.key[:0], sc.base[:0]
	for _, s := range sc.passed {
		text := sc.score[s]
		// A request about a server's domain ("my last order") lends weight to each of its
		// tools. A tool without a server counts as a server of one, so that being grouped
		// is neither rewarded nor punished as such; big servers are damped by sqrt(size).
		switch g := ix.stats[s].group; {
		case !ix.ablate.on(RuleServer):
		case g != noGroup:
			text += groupWeight * sc.groupSum[g] / math.Sqrt(float64(ix.groupSize[g]))
		default:
			text += groupWeight * text
		}
		base := text / maxText
		sc.key = append(sc.key, float64(sc.tiers[s])+squash(base))
		sc.base = append(sc.base, base)
	}
	cut := sc.kthLargest(sc.key, depth)
	top := ranking{slots: ix.slots, c: sc.cands[:0]}
	for i, s := range sc.passed {
		if sc.key[i] < cut {
			continue
		}
		c := candidate{slot: s, match: MatchText, tier: int8(sc.tiers[s]), score: sc.key[i], base: sc.base[i]}
		switch {
		case c.tier == tierExact:
			c.match = MatchExact
		case c.tier == tierPrefix:
			c.match = MatchPrefix
		}
		top.c = append(top.c, c)
	}
	top.sort()
	top.c = top.c[:min(depth, len(top.c))]
	return top
}

// secondStage reorders the first stage's candidates by how well their names fit the
// query's concepts (see rerank.go).
func (ix *Index) secondStage(top *ranking, p parsedQuery, optional []concept) {
	rr := ix.newReranker(p, optional)
	if ix.rerankHook != nil {
		ix.rerankHook(rr, top.c)
	}
	for i := range top.c {
		c := &top.c[i]
		c.score = float64(c.tier) + squash(rr.score(c))
	}
	top.sort()
}

// kindFilter turns Query.Kind into a kind id; -1 means any kind. ok is false when no
// document has that kind.
func (ix *Index) kindFilter(kind string) (id int, ok bool) {
	kind = strings.ToLower(strings.TrimSpace(kind))
	if kind == "" || kind == "any" {
		return -1, true
	}
	i := slices.Index(ix.kinds, kind)
	return i, i >= 0
}

func (ix *Index) kindOK(s int32, kind int) bool {
	st := &ix.stats[s]
	return st.live && (kind < 0 || int(st.kind) == kind)
}

// squash maps a non-negative score into [0, 1) without changing its order, so that a
// tier can be added to it and Score alone orders the hits.
func squash(x float64) float64 { return x / (x + 1) }

// queryConcepts turns the query's words into concepts. impossible reports a required word
// that no document contains.
func (ix *Index) queryConcepts(p parsedQuery) (optional, required []concept, impossible bool) {
	// Like a quotation, an opener says nothing about the tool.
	skip := func(i int) bool { return p.quoted[i] || p.openers[i] }
	var base, phrases []string
	for i, w := range p.words {
		if skip(i) {
			continue
		}
		base = terms(base, w, looksLikeIdentifier(w))
		if ix.ablate.on(RulePhrases) && i+1 < len(p.words) && !skip(i+1) {
			if t := phraseTerm(w, p.words[i+1]); t != "" {
				phrases = append(phrases, t)
			}
		}
	}
	var soft softQuery
	slices.Sort(base) // the order of words must not change the score
	base = slices.Compact(base)
	slices.Sort(phrases)
	phrases = slices.Compact(phrases)
	for _, t := range base {
		c := concept{weight: 1}
		if id, ok := ix.lookup(t); ok {
			c.idf = ix.idf(id)
			c.terms = append(c.terms, queryTerm{id: id, weight: 1})
		}
		for _, syn := range ix.synonymsOf(t) {
			if _, isBase := slices.BinarySearch(base, syn); isBase {
				continue // scored as a concept of its own
			}
			sid, ok := ix.lookup(syn)
			if !ok {
				continue
			}
			idf := ix.idf(sid)
			if c.idf == 0 {
				c.idf = idf // the word itself is unknown: its first synonym stands in
			}
			// A common synonym of a rare word is weaker evidence than the word.
			c.terms = append(c.terms, queryTerm{id: sid, weight: synonymWeight * min(1, idf/c.idf)})
		}
		c = ix.wordnetTerms(c, t, base)
		c = ix.softTerms(c, t, base, &soft)
		if len(c.terms) > 0 {
			optional = append(optional, c)
		}
	}
	if ix.ablate.on(RuleGloss) {
		optional = append(optional, ix.glossConcepts(p, skip)...)
	}
	for _, t := range phrases {
		if _, isBase := slices.BinarySearch(base, t); isBase {
			continue
		}
		if id, ok := ix.lookup(t); ok {
			optional = append(optional, concept{idf: ix.idf(id), weight: phraseWeight, terms: []queryTerm{{id: id, weight: 1}}})
		}
	}
	var hints []string
	if ix.ablate.on(RuleHints) {
		hints = valueHints(p.words)
	}
	for _, h := range hints {
		if _, isBase := slices.BinarySearch(base, h); isBase {
			continue
		}
		if id, ok := ix.lookup(h); ok {
			optional = append(optional, concept{idf: ix.idf(id), weight: hintWeight, terms: []queryTerm{{id: id, weight: 1}}, hint: true})
		}
	}
	var seen []int32
	for _, w := range p.required {
		for _, t := range terms(nil, w, false) {
			id, ok := ix.lookup(t)
			if !ok {
				return nil, nil, true
			}
			if !slices.Contains(seen, id) {
				seen = append(seen, id)
				required = append(required, concept{idf: ix.idf(id), weight: 1, terms: []queryTerm{{id: id, weight: 1}}})
			}
		}
	}
	return optional, required, false
}

// synonymsOf returns the hand-written synonyms of a query term.
func (ix *Index) synonymsOf(t string) []string {
	if !ix.ablate.on(RuleSynonyms) {
		return nil
	}
	return synonyms[t]
}

// glossConcepts returns a concept for each Chinese word of the query that the glossary
// has (see cedict.go), its English words as the concept's terms: a request written in
// Chinese then finds tools described in English. A gloss's later words count as a
// synonym of its first does, scaled by their rarity relative to it.
func (ix *Index) glossConcepts(p parsedQuery, skip func(int) bool) []concept {
	var out []concept
	var seen []string
	for i, w := range p.words {
		if skip(i) {
			continue
		}
		glosses(w, func(gl string) {
			if slices.Contains(seen, gl) {
				return
			}
			seen = append(seen, gl)
			c := concept{weight: glossWeight}
			for _, g := range strings.Fields(gl) {
				for _, t := range terms(nil, g, false) {
					if id, ok := ix.lookup(t); ok {
						ix.addRelated(&c, id, 1)
					}
				}
			}
			if len(c.terms) > 0 {
				out = append(out, c)
			}
		})
	}
	return out
}

// addRelated adds the term id to c at weight w, unless c has it: scaled by its rarity
// relative to the concept's own term, since a common relative of a rare word is weaker
// evidence than the word. A concept whose word no document has takes its first relative's
// rarity.
func (ix *Index) addRelated(c *concept, id int32, w float64) {
	if slices.ContainsFunc(c.terms, func(q queryTerm) bool { return q.id == id }) {
		return
	}
	idf := ix.idf(id)
	if c.idf == 0 {
		c.idf = idf
	}
	c.terms = append(c.terms, queryTerm{id: id, weight: w * min(1, idf/c.idf)})
}

// wordnetTerms adds to c the terms of WordNet's relations of the query term t (see
// wordnet.go): its derivationally related forms ("multiplication": multiply), and, when no
// document has the term itself, the other words of its most frequent sense ("cab": taxi).
// A sense's other words stand in only for a word the catalog does not use: for one it
// uses, they mostly fire on a sense the catalog does not mean (WordNet's first sense of
// "show" is to exhibit, of "remove" to take away).
func (ix *Index) wordnetTerms(c concept, t string, base []string) concept {
	if !ix.ablate.on(RuleWordNet) {
		return c
	}
	lx := wordnet()
	add := func(u string, w float64) {
		if _, isBase := slices.BinarySearch(base, u); isBase {
			return
		}
		if id, ok := ix.lookup(u); ok {
			ix.addRelated(&c, id, w)
		}
	}
	for _, u := range lx.derived[t] {
		add(u, derivedWeight)
	}
	if _, known := ix.lookup(t); !known {
		for _, u := range lx.sense[t] {
			add(u, senseWeight)
		}
	}
	return c
}

// softTerms adds to c the catalog terms that the soft stage relates to the query term t,
// when no document has t itself (see soft.go).
func (ix *Index) softTerms(c concept, t string, base []string, soft *softQuery) concept {
	if _, known := ix.lookup(t); known || ix.soft == nil || !ix.ablate.on(RuleSoft) {
		return c
	}
	if soft.asked++; soft.asked > softWords {
		return c
	}
	if soft.v == nil {
		soft.v = ix.softVocabulary()
	}
	for _, r := range soft.v.Related(t, softTerms) {
		if _, isBase := slices.BinarySearch(base, r.Term); isBase {
			continue
		}
		id, ok := ix.lookup(r.Term)
		if !ok || slices.ContainsFunc(c.terms, func(q queryTerm) bool { return q.id == id }) {
			continue
		}
		idf := ix.idf(id)
		if c.idf == 0 {
			c.idf = idf
		}
		c.terms = append(c.terms, queryTerm{id: id, weight: softWeight * r.Similarity * min(1, idf/c.idf), soft: true})
	}
	return c
}

// phraseTerm returns the term of two neighbouring query words written as one ("current
// weather" -> currentweath), or "" when they are not two plain words or the first is a
// stop word ("to watch" is no compound). Names index such compounds (see splitWords).
func phraseTerm(a, b string) string {
	b = strings.TrimRight(b, `.,;:!?)"'`)
	if !isLetters(a) || !isLetters(b) {
		return ""
	}
	var buf [64]byte
	w := appendLower(buf[:0], a)
	if stopWords[string(w)] {
		return ""
	}
	ts := cachedWordTerms(appendLower(w, b))
	if len(ts) != 1 {
		return ""
	}
	return ts[0]
}

// isLetters reports whether w is a non-empty run of ASCII letters.
func isLetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return w != ""
}

// lookup returns the id of a term that at least one live document contains.
func (ix *Index) lookup(t string) (int32, bool) {
	id, ok := ix.termIDs[t]
	return id, ok && ix.terms[id].df > 0
}

// idf is BM25's inverse document frequency of a term, always positive.
func (ix *Index) idf(id int32) float64 {
	n, df := float64(ix.live), float64(ix.terms[id].df)
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}

// scoreConcepts adds the BM25F scores of concepts, scaled, to sc. For required concepts it
// also counts, per document, those found in the fields that a "+term" must match.
func (ix *Index) scoreConcepts(sc *scratch, cs []concept, kind int, scale float64, required bool) {
	var norm [numFields]float64 // b / average field length
	weight := ix.weights.fieldWeights()
	for f := range norm {
		if ix.lenSum[f] > 0 {
			norm[f] = fieldB[f] * float64(ix.live) / float64(ix.lenSum[f])
		}
	}
	for _, c := range cs {
		// First the concept's weighted term frequency per document, then one saturation.
		for _, qt := range c.terms {
			r := ix.terms[qt.id].reader()
			for {
				doc, ptf, ok := r.next()
				if !ok {
					break
				}
				st := &ix.stats[doc]
				if !st.live || kind >= 0 && int(st.kind) != kind {
					continue
				}
				if required {
					if ptf&requiredTFMask == 0 {
						continue
					}
					sc.reqHits[doc]++
				}
				tfw := 0.0
				for tf := ptf; tf != 0; {
					f := bits.TrailingZeros32(tf) / tfBits
					shift := uint(f * tfBits)
					tfw += weight[f] * float64(tf>>shift&tfMax) / (1 - fieldB[f] + norm[f]*float64(st.lens[f]))
					tf &^= tfMax << shift
				}
				if sc.tf[doc] == 0 {
					sc.docs = append(sc.docs, doc)
				}
				sc.tf[doc] += qt.weight * tfw
			}
		}
		w := scale * c.weight * c.idf * (bm25K1 + 1)
		for _, d := range sc.docs {
			tfw := sc.tf[d]
			sc.tf[d] = 0
			sc.touch(d)
			sc.score[d] += w * tfw / (bm25K1 + tfw)
		}
		sc.docs = sc.docs[:0]
	}
}

// requiredTFMask selects the packed frequencies of requiredFields.
var requiredTFMask = func() uint32 {
	var m uint32
	for f := range numFields {
		if requiredFields&(1<<f) != 0 {
			m |= tfMax << (f * tfBits)
		}
	}
	return m
}()

// candidate is a document on its way into the result; its ID is looked up only when
// needed, since touching every candidate's document is the costliest part of a search.
type candidate struct {
	slot  int32
	match Match
	tier  int8
	score float64 // tier plus a squashed score: of the first stage, then of the second
	base  float64 // first-stage score (BM25F and server evidence) / the best text score
}

// ranking orders candidates: higher score first, then ID, so that ties are deterministic.
type ranking struct {
	slots []slot
	c     []candidate
}

func (t *ranking) better(a, b candidate) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return t.slots[a.slot].id < t.slots[b.slot].id
}

// sort orders the candidates best first.
func (t *ranking) sort() {
	slices.SortFunc(t.c, func(a, b candidate) int {
		if t.better(a, b) {
			return -1
		}
		if t.better(b, a) {
			return 1
		}
		return 0
	})
}

// hits returns the candidates as hits, in their order (see sort).
func (t *ranking) hits() []Hit {
	hs := make([]Hit, len(t.c))
	for i, c := range t.c {
		hs[i] = Hit{ID: t.slots[c.slot].id, Score: c.score, Match: c.match}
	}
	return hs
}
