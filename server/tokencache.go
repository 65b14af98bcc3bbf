package server

import (
	"hash/maphash"
	"sync"

	"github.com/toolsearch/toolsearch/server/tokens"
)

// A countCache remembers the token counts of the long item texts of search
// results, so that a result holding a large definition (an upstream may
// describe a tool in 10 MB) does not send it through the tokenizer again
// each time a search returns it: fitBudget counts a result at least once,
// and again after each step that shortens it.
//
// What it keeps: for each item text of at least minCachedText bytes
// counted lately, a 128-bit fingerprint of the text (two 64-bit maphash
// sums with random seeds, which a text cannot be made to collide with)
// and its count; never the text. Shorter texts are not kept here: the
// counter remembers their lines itself.
//
// Why it is bounded: the texts come from definitions upstream servers and
// skill authors control, and change when they do; at most maxCachedTexts
// counts are kept (some 100 KB), and when full the cache starts over, which
// costs one count per text still in use.
type countCache struct {
	tok   *tokens.Counter
	seeds [2]maphash.Seed

	mu     sync.Mutex
	counts map[countKey]int
}

type countKey struct {
	sum   [2]uint64
	blank bool // counted with the blank line that follows it
}

const (
	minCachedText  = 8 << 10
	maxCachedTexts = 4096
)

// countCaches holds one countCache per tokenizer: counts depend on nothing
// else, and the counters themselves are shared by the whole process.
var countCaches sync.Map // *tokens.Counter → *countCache

// textCounts returns the countCache of a tokenizer.
func textCounts(tok *tokens.Counter) *countCache {
	if c, ok := countCaches.Load(tok); ok {
		return c.(*countCache)
	}
	c, _ := countCaches.LoadOrStore(tok, newCountCache(tok))
	return c.(*countCache)
}

func newCountCache(tok *tokens.Counter) *countCache {
	return &countCache{
		tok:    tok,
		seeds:  [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()},
		counts: map[countKey]int{},
	}
}

// count returns the tokens of text, followed by a blank line (itemSep) if
// blank is set.
func (c *countCache) count(text string, blank bool) int {
	counted := func() string {
		if blank {
			return text + itemSep
		}
		return text
	}
	if len(text) < minCachedText {
		return c.tok.Count(counted())
	}
	key := countKey{[2]uint64{maphash.String(c.seeds[0], text), maphash.String(c.seeds[1], text)}, blank}
	c.mu.Lock()
	n, ok := c.counts[key]
	c.mu.Unlock()
	if ok {
		return n
	}
	n = c.tok.Count(counted())
	c.remember(key, n)
	return n
}

// remember keeps a count, starting over when the cache is full.
func (c *countCache) remember(key countKey, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.counts) >= maxCachedTexts {
		clear(c.counts)
	}
	c.counts[key] = n
}
