package search

import (
	"encoding/binary"
	"iter"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// Fields of a document that text ranking tells apart. Their term frequencies are packed three
// bits each into one uint32 per posting, so there can be at most ten.
const (
	fieldName      = iota // the tool's own name, ID and AltNames, split into words
	fieldSource           // server or source name, and the server part of a qualified name
	fieldTitle            // human title
	fieldDesc             // description
	fieldParamName        // parameter names, split into words
	fieldParamDesc        // parameter descriptions
	fieldEnum             // values that parameters take (enums)
	fieldHeading          // skill headings
	fieldBody             // skill body
	fieldNamePart         // the parts of a name's compound word (see splitCompounds)
	numFields
)

// requiredFields are the fields a "+term" must occur in: what the tool and its server are
// called and what it says it does, but not a skill's long body, where nearly any word
// occurs somewhere. ("+slack send" must keep the slack server's tools.)
const requiredFields = 1<<fieldName | 1<<fieldNamePart | 1<<fieldSource | 1<<fieldTitle | 1<<fieldDesc |
	1<<fieldParamName | 1<<fieldParamDesc | 1<<fieldEnum | 1<<fieldHeading

const (
	tfBits = 3
	tfMax  = 1<<tfBits - 1
)

// termStats is the bookkeeping of one term. Its postings record the documents that contain
// it, each with the term's frequency in each field, three bits per field, saturating at 7
// (BM25 saturates long before that); they are coded (see postings.go). Postings of removed
// documents stay in the list until they outnumber the live ones; then the list is
// compacted. So a removal costs time proportional to the removed document's terms,
// amortized, and dead postings never take more memory than live ones.
type termStats struct {
	postings []byte
	last     int32 // the slot of the last posting, which the next one is coded against
	df       int32 // live documents containing the term
	dead     int32 // postings of removed documents still in the list
}

// docStats is what scoring reads for every posting, kept apart from the documents
// themselves so that the scoring loop stays in cache.
type docStats struct {
	lens  [numFields]uint16 // terms per field, for BM25 length normalization
	live  bool
	kind  uint8     // index into Index.kinds
	verbs nameVerbs // the kinds of verbs of the tool's own name (see action.go)
	group int32     // index into Index.groupSize, or noGroup
}

const noGroup = -1

// slot is one document position. It keeps only what ranking, name matching and removal
// need, not the document: its text lives on only as postings. A slot is reused only after
// every posting that points at it has been compacted away (refs == 0).
type slot struct {
	id, name string
	alt      []string // Document.AltNames
	terms    []byte   // the terms of the name's words, then all the document's terms (see encodeTerms)
	refs     int32    // postings that still point at this slot
	short    int32    // where the tool's own name starts in name (see splitQualified)
}

// Index is an in-memory search index of tools and skills. Search may be called
// concurrently; as many searches run at once as there are CPUs, and the rest
// wait. Add and Remove take a write lock and cost time proportional to the
// documents they touch.
type Index struct {
	mu        sync.RWMutex
	slots     []slot
	stats     []docStats // parallel to slots
	free      []int32    // slots with no postings left, for reuse
	byName    nameIndex  // lower-cased ID and Name -> live slots
	byAlt     nameIndex  // lower-cased alternative names (see altKeys) -> live slots
	termIDs   map[string]int32
	terms     []termStats
	kinds     []string // lower-cased kinds seen, indexed by docStats.kind
	groupIDs  map[string]int32
	groupSize []int32          // live documents per group
	lenSum    [numFields]int64 // total field lengths of live documents
	encBuf    []byte           // for encodeTerms
	live      int
	scratch   sync.Pool // *scratch buffers for Search
	// searching admits as many searches at a time as there are CPUs. A
	// search needs buffers the size of the index (2 MB at 100,000
	// documents) and the CPU to itself; a flood of concurrent requests
	// would otherwise allocate a set each and only wait for a CPU anyway.
	searching chan struct{}

	// weights are the fitted numbers of ranking; see weights.
	weights weights
	// ablate switches rules of ranking off (see ablate.go); set once, at construction.
	ablate Ablation

	// soft is the soft stage (see soft.go); softVocab is its vocabulary of this catalog,
	// prepared when the index had softAt terms, under softMu.
	soft      SoftStage
	softMu    sync.Mutex
	softVocab SoftVocabulary
	softAt    int

	// rerankHook, when set, sees every query's candidates before the
	// second stage, for tests that look at the features or at how many
	// searches run at once.
	rerankHook func(rr *reranker, cands []candidate)
}

// NewIndex returns an empty index.
func NewIndex() *Index {
	return &Index{
		byName:    newNameIndex(),
		byAlt:     newNameIndex(),
		termIDs:   map[string]int32{},
		groupIDs:  map[string]int32{},
		searching: make(chan struct{}, runtime.GOMAXPROCS(0)),
		weights:   defaultWeights,
		soft:      WordVectors{},
	}
}

// Len returns the number of documents in the index.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.live
}

// Add inserts documents, replacing any with the same ID. Documents without an ID are
// ignored. Its cost is proportional to the size of the documents added.
func (ix *Index) Add(docs ...Document) {
	// Analysis is the expensive part; it needs no lock and runs in parallel for big batches.
	analyzed := make([]analyzedDoc, len(docs))
	workers := min(runtime.GOMAXPROCS(0), len(docs)/minDocsPerWorker)
	if workers <= 1 {
		an := newAnalyzer(ix.ablate)
		for i := range docs {
			analyzed[i] = an.analyze(&docs[i])
		}
	} else {
		var wg sync.WaitGroup
		chunk := (len(docs) + workers - 1) / workers
		for lo := 0; lo < len(docs); lo += chunk {
			hi := min(lo+chunk, len(docs))
			wg.Go(func() {
				an := newAnalyzer(ix.ablate)
				for i := lo; i < hi; i++ {
					analyzed[i] = an.analyze(&docs[i])
				}
			})
		}
		wg.Wait()
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.register(analyzed)
	for i := range docs {
		if docs[i].ID != "" {
			if ix.ablate.on(RuleCompound) {
				ix.splitCompounds(&analyzed[i])
			}
			ix.insert(docs[i], &analyzed[i])
		}
	}
}

// Trim packs the postings lists side by side, dropping the room that
// appending leaves them. Built by appending, a large index holds up to
// twice the postings it uses, scattered over the heap among the garbage of
// analysis. The lists are packed into chunks of about a megabyte rather
// than one allocation, so that the collector can free the old lists while
// Trim runs: a bulk load peaks here. The slot tables keep their room (a
// quarter at most, for tables this large). Trim costs time in proportion to
// the whole index, so it belongs after a bulk load, not after each change;
// later additions grow lists as before.
func (ix *Index) Trim() {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	var chunk []byte
	for i := range ix.terms {
		ts := &ix.terms[i]
		if cap(chunk)-len(chunk) < len(ts.postings) {
			chunk = make([]byte, 0, max(len(ts.postings), trimChunk))
		}
		lo := len(chunk)
		chunk = append(chunk, ts.postings...)
		// Capped, so that a list that grows again moves out rather than
		// over its neighbour.
		ts.postings = chunk[lo:len(chunk):len(chunk)]
	}
}

// trimChunk is how many bytes of postings Trim packs together: a megabyte.
// (Tests make it smaller.)
var trimChunk = 1 << 20

// Remove deletes the documents with the given IDs; unknown IDs are ignored.
func (ix *Index) Remove(ids ...string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for _, id := range ids {
		if s, ok := ix.slotOf(id); ok {
			ix.remove(s)
		}
	}
}

func (ix *Index) insert(d Document, a *analyzedDoc) {
	if old, ok := ix.slotOf(d.ID); ok {
		ix.remove(old)
	}
	var s int32
	if n := len(ix.free); n > 0 {
		s, ix.free = ix.free[n-1], ix.free[:n-1]
	} else {
		s = int32(len(ix.slots))
		ix.slots = append(ix.slots, slot{})
		ix.stats = append(ix.stats, docStats{})
	}
	_, short := splitQualified(d.Name)
	sl := &ix.slots[s]
	*sl = slot{
		id: d.ID, name: d.Name, alt: slices.Clip(slices.Clone(d.AltNames)),
		refs: int32(len(a.terms)), short: int32(len(d.Name) - len(short)),
	}
	ix.stats[s] = docStats{lens: a.lens, live: true, kind: ix.kindID(d.Kind), verbs: a.verbs, group: ix.joinGroup(groupKey(d.Name))}
	for _, k := range nameKeys(sl) {
		ix.byName.add(k, s)
	}
	for _, k := range altKeys(sl) {
		ix.byAlt.add(k, s)
	}
	ids := make([]int32, len(a.terms))
	for i, t := range a.terms {
		id := ix.termID(t.term)
		ts := &ix.terms[id]
		ts.add(s, t.tf)
		ts.df++
		ids[i] = id
	}
	sl.terms = ix.encodeTerms(d.Name[len(d.Name)-len(short):], ids, a.parts)
	for f, n := range a.lens {
		ix.lenSum[f] += int64(n)
	}
	ix.live++
}

func (ix *Index) remove(s int32) {
	sl, st := &ix.slots[s], &ix.stats[s]
	for _, k := range nameKeys(sl) {
		ix.byName.remove(k, s)
	}
	for _, k := range altKeys(sl) {
		ix.byAlt.remove(k, s)
	}
	for f, n := range st.lens {
		ix.lenSum[f] -= int64(n)
	}
	if st.group != noGroup {
		ix.groupSize[st.group]--
	}
	ix.live--
	terms := sl.terms
	// Drop the document's strings now; the slot stays until no posting points at it.
	*sl = slot{refs: sl.refs}
	*st = docStats{group: noGroup}
	if sl.refs == 0 {
		ix.free = append(ix.free, s)
	}
	for id := range docTermIDs(terms) {
		ts := &ix.terms[id]
		ts.df--
		ts.dead++
		if ts.dead > 8 && ts.dead > ts.df {
			ix.compact(ts)
		}
	}
}

// compact drops the postings of removed documents from one term's list.
func (ix *Index) compact(ts *termStats) {
	// The kept postings are written over the list as it is read: a posting coded against
	// an earlier one than before never takes more bytes than it and the postings dropped
	// between them took, so the writing never overtakes the reading.
	r := ts.reader()
	kept := termStats{postings: ts.postings[:0], df: ts.df}
	for {
		s, tf, ok := r.next()
		if !ok {
			break
		}
		if ix.stats[s].live {
			kept.add(s, tf)
			continue
		}
		if sl := &ix.slots[s]; sl.refs > 0 {
			if sl.refs--; sl.refs == 0 {
				ix.free = append(ix.free, s)
			}
		}
	}
	kept.postings = slices.Clip(kept.postings)
	*ts = kept
}

// kindID interns a document kind.
func (ix *Index) kindID(kind string) uint8 {
	kind = strings.ToLower(strings.TrimSpace(kind))
	if i := slices.Index(ix.kinds, kind); i >= 0 {
		return uint8(i)
	}
	if len(ix.kinds) == 255 {
		return 255 // absurdly many kinds: the rest share one id, and a filter on them matches none
	}
	ix.kinds = append(ix.kinds, kind)
	return uint8(len(ix.kinds) - 1)
}

// joinGroup counts a document into its group and returns the group's id.
func (ix *Index) joinGroup(key string) int32 {
	if key == "" {
		return noGroup
	}
	g, ok := ix.groupIDs[key]
	if !ok {
		g = int32(len(ix.groupSize))
		ix.groupIDs[key] = g
		ix.groupSize = append(ix.groupSize, 0)
	}
	ix.groupSize[g]++
	return g
}

// groupKey names the server a document belongs to: the server part of its qualified name
// ("github" for "github__create_issue"). Source is not used: it may name a whole tools
// file or skills folder, whose entries have nothing more in common than where they were
// read from. Documents without a server part stand alone.
func groupKey(name string) string {
	prefix, _ := splitQualified(name)
	return strings.ToLower(prefix)
}

// splitQualified splits "server__tool" at its last "__"; a name without one has no prefix.
func splitQualified(name string) (prefix, short string) {
	if i := strings.LastIndex(name, "__"); i > 0 && i+2 < len(name) {
		return name[:i], name[i+2:]
	}
	return "", name
}

// nameIndex maps names to the slots of the documents that have them. Nearly every name
// belongs to one document, which costs a single map entry; the few names that several
// documents share keep a list on the side.
type nameIndex struct {
	one  map[string]int32
	many map[string][]int32
}

// slotOf returns the slot of the live document with the given ID. The document is
// known by its lower-cased ID (nameKeys), so byName finds it among those that share
// that: a map by exact ID would repeat nearly all of byName (2 MB of BenchmarkMemory's
// index of 100,000).
func (ix *Index) slotOf(id string) (int32, bool) {
	k := strings.ToLower(id)
	if s, ok := ix.byName.one[k]; ok {
		return s, ix.slots[s].id == id
	}
	for _, s := range ix.byName.many[k] {
		if ix.slots[s].id == id {
			return s, true
		}
	}
	return 0, false
}

func newNameIndex() nameIndex {
	return nameIndex{one: map[string]int32{}, many: map[string][]int32{}}
}

func (n nameIndex) add(k string, s int32) {
	if l, ok := n.many[k]; ok {
		n.many[k] = append(l, s)
	} else if o, ok := n.one[k]; ok {
		delete(n.one, k)
		n.many[k] = []int32{o, s}
	} else {
		n.one[k] = s
	}
}

func (n nameIndex) remove(k string, s int32) {
	if o, ok := n.one[k]; ok {
		if o == s {
			delete(n.one, k)
		}
		return
	}
	l := slices.DeleteFunc(n.many[k], func(x int32) bool { return x == s })
	switch len(l) {
	case 0:
		delete(n.many, k)
	case 1:
		delete(n.many, k)
		n.one[k] = l[0]
	default:
		n.many[k] = l
	}
}

// get returns the slots of the documents named k.
func (n nameIndex) get(k string) []int32 {
	if s, ok := n.one[k]; ok {
		return []int32{s}
	}
	return n.many[k]
}

// nameKeys are the lower-cased names a document is known by exactly: its ID and Name.
func nameKeys(sl *slot) []string {
	keys := []string{strings.ToLower(sl.id)}
	if n := strings.ToLower(sl.name); n != "" && n != keys[0] {
		keys = append(keys, n)
	}
	return keys
}

// altKeys are the lower-cased alternative names of a document: its AltNames and, for a
// server-qualified name like "github__create_issue", the part after the last "__", which is
// how the upstream server itself calls the tool.
func altKeys(sl *slot) []string {
	var keys []string
	id, name := strings.ToLower(sl.id), strings.ToLower(sl.name)
	add := func(k string) {
		k = strings.ToLower(strings.TrimSpace(k))
		if k != "" && k != id && k != name && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	for _, a := range sl.alt {
		add(a)
	}
	_, short := splitQualified(sl.name)
	add(short)
	return keys
}

// encodeTerms packs what a slot keeps of a document's terms into one byte slice of
// unsigned varints: first the number of words of the tool's own name that count for
// nameFit, and for each the number of its terms and their ids (a compound's with its
// parts': "hostpool" names a pool); then all the document's term ids (what remove needs),
// sorted, as differences, so that most take one or two bytes.
func (ix *Index) encodeTerms(short string, ids []int32, parts []compoundCut) []byte {
	var names []byte
	words := 0
	splitWords(short, func(w []byte) {
		ts := cachedWordTerms(w)
		if len(ts) == 0 || isDigits(w) {
			return // stop words, and numbers such as versions ("Movies_3_FindMovies"), say nothing
		}
		words++
		i := slices.IndexFunc(parts, func(c compoundCut) bool { return c.word == string(w) })
		n := len(ts)
		if i >= 0 {
			n += 2
		}
		names = binary.AppendUvarint(names, uint64(n))
		for _, t := range ts {
			names = binary.AppendUvarint(names, uint64(ix.termIDs[t])) // indexed with the name
		}
		if i >= 0 {
			for _, t := range [2]string{parts[i].left, parts[i].right} {
				names = binary.AppendUvarint(names, uint64(ix.termIDs[t])) // known: compoundParts checked
			}
		}
	}, nil)
	buf := binary.AppendUvarint(ix.encBuf[:0], uint64(words))
	buf = append(buf, names...)
	slices.Sort(ids)
	prev := int32(0)
	for _, id := range ids {
		buf = binary.AppendUvarint(buf, uint64(id-prev))
		prev = id
	}
	ix.encBuf = buf
	return slices.Clone(buf) // of exactly the size needed: there is one per document
}

// nameWords calls f with the term ids of each word of the tool's own name, as packed by
// encodeTerms, and returns the rest of b.
func nameWords(b []byte, f func(ids []byte)) []byte {
	words, n := binary.Uvarint(b)
	b = b[n:]
	for range words {
		terms, n := binary.Uvarint(b)
		start := n
		for range terms {
			_, m := binary.Uvarint(b[n:])
			n += m
		}
		if f != nil {
			f(b[start:n])
		}
		b = b[n:]
	}
	return b
}

// docTermIDs yields all the term ids of a document, as packed by encodeTerms.
func docTermIDs(b []byte) iter.Seq[int32] {
	b = nameWords(b, nil)
	return func(yield func(int32) bool) {
		id := int32(0)
		for len(b) > 0 {
			d, n := binary.Uvarint(b)
			b = b[n:]
			id += int32(d)
			if !yield(id) {
				return
			}
		}
	}
}

// analyzedDoc is a document reduced to what the index stores: its distinct terms with their
// per-field frequencies, and its field lengths.
type analyzedDoc struct {
	terms     []termFreq
	lens      [numFields]uint16
	compounds []string      // words of the name that may be compounds (see compoundWords)
	parts     []compoundCut // how splitCompounds cut them
	verbs     nameVerbs
}

type termFreq struct {
	term string
	tf   uint32
}

// minDocsPerWorker is the smallest share of an Add worth a goroutine of its own.
const minDocsPerWorker = 256

// analyzer splits documents into terms. It numbers the terms it meets itself and caches
// each word's term numbers, so that most of the work per word is one map lookup without
// contention on the shared cache; a document's term frequencies then gather in slices
// indexed by those numbers. It is not safe for concurrent use.
type analyzer struct {
	ablate Ablation           // the index's (see ablate.go)
	cache  map[string][]int32 // word -> local term numbers
	ids    map[string]int32   // term -> local term number
	terms  []string           // local term number -> term
	pos    []int32            // local term number -> index in the current analyzedDoc.terms
	posDoc []uint32           // local term number -> the document pos is valid for
	doc    uint32             // number of the current document, from 1
	buf    []int32
}

func newAnalyzer(ablate Ablation) *analyzer {
	return &analyzer{cache: map[string][]int32{}, ids: map[string]int32{}, ablate: ablate}
}

// appendIDs appends the local term numbers of s to dst (see terms).
func (an *analyzer) appendIDs(dst []int32, s string, joined bool) []int32 {
	emit := func(w []byte) {
		ids, ok := an.cache[string(w)]
		if !ok {
			for _, t := range cachedWordTerms(w) {
				id, ok := an.ids[t]
				if !ok {
					id = int32(len(an.terms))
					an.ids[t] = id
					an.terms = append(an.terms, t)
					an.pos = append(an.pos, 0)
					an.posDoc = append(an.posDoc, 0)
				}
				ids = append(ids, id)
			}
			an.cache[string(w)] = ids
		}
		dst = append(dst, ids...)
	}
	var j func([]byte)
	if joined {
		j = emit
		// In an identifier a number alone is a version or a variant ("Movies_3_FindMovies"),
		// not a word: indexed, it matches any number in a request.
		words := emit
		emit = func(w []byte) {
			if !isDigits(w) {
				words(w)
			}
		}
	}
	splitWords(s, emit, j)
	return dst
}

// analyze splits a document's fields into terms. Documents without an ID have none.
func (an *analyzer) analyze(d *Document) analyzedDoc {
	var a analyzedDoc
	if d.ID == "" {
		return a
	}
	an.doc++
	a.terms = make([]termFreq, 0, 64)
	has := func(id int32) bool { return an.posDoc[id] == an.doc }
	addIDs := func(f int, ids []int32) {
		shift := uint(f * tfBits)
		for _, id := range ids {
			if !has(id) {
				an.posDoc[id], an.pos[id] = an.doc, int32(len(a.terms))
				a.terms = append(a.terms, termFreq{term: an.terms[id]})
			}
			if tf := &a.terms[an.pos[id]].tf; (*tf>>shift)&tfMax < tfMax {
				*tf += 1 << shift
			}
		}
		a.lens[f] = satAdd16(a.lens[f], len(ids))
	}
	addField := func(f int, text string, joined bool) {
		an.buf = an.appendIDs(an.buf[:0], text, joined)
		addIDs(f, an.buf)
	}

	// A server-qualified name ("github__create_issue") says two things: the server, which
	// is source evidence, and the tool's own name. The ID and alternative names add only
	// words the name lacks, so that repeating a name does not inflate its frequencies.
	prefix, short := splitQualified(d.Name)
	addField(fieldName, short, true)
	var extra []int32
	for _, n := range append([]string{d.ID}, d.AltNames...) {
		_, n = splitQualified(n)
		an.buf = an.appendIDs(an.buf[:0], n, true)
		for _, id := range an.buf {
			if !has(id) && !slices.Contains(extra, id) {
				extra = append(extra, id)
			}
		}
	}
	addIDs(fieldName, extra)
	a.compounds = compoundWords(nil, short)
	a.verbs = verbsOfName(d.Name)
	addField(fieldSource, d.Source, false)
	if !strings.EqualFold(prefix, d.Source) {
		addField(fieldSource, prefix, true)
	}
	addField(fieldTitle, d.Title, false)
	addField(fieldDesc, d.Description, false)
	if an.ablate.on(RuleGloss) && describedInChinese(d.Description) {
		// An English request shares no word with such a document: the English words of
		// its Chinese ones count too, in the parameter descriptions' field, at half the
		// description's weight. A dictionary's words for a guessed cut are weaker evidence
		// than words written; in the description's own field they cost English requests
		// for English tools more than they gained (see BENCHMARKS.md).
		addGlosses := func(text string) {
			glosses(text, func(g string) { addField(fieldParamDesc, g, false) })
		}
		addGlosses(d.Description)
		for _, p := range d.Params {
			addGlosses(p.Description)
		}
	}
	for _, p := range d.Params {
		addField(fieldParamName, p.Name, true)
		addField(fieldParamDesc, p.Description, false)
		for _, v := range p.Enum {
			addField(fieldEnum, v, false)
		}
	}
	for _, h := range d.Headings {
		addField(fieldHeading, h, false)
	}
	addField(fieldBody, d.Body, false)
	return a
}

func satAdd16(a uint16, n int) uint16 {
	if int(a)+n > 0xFFFF {
		return 0xFFFF
	}
	return a + uint16(n)
}
