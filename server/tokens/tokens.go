// Package tokens counts context tokens with a real BPE tokenizer, so that
// budgets and savings are measured rather than guessed. Both vocabularies
// ship inside the tokenizer module: counting never touches the network.
//
// Claude's own tokenizer is not public and differs; o200k_base and
// cl100k_base are close, documented stand-ins.
package tokens

import (
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// Encodings that can be asked for by name.
const (
	O200kBase  = "o200k_base"
	Cl100kBase = "cl100k_base"
	Default    = O200kBase
)

// Counter counts the tokens of text in one encoding. It is safe for
// concurrent use.
type Counter struct {
	name  string
	codec tokenizer.Codec

	mu     sync.Mutex
	pieces map[string]int // token counts of recent pieces (see Count)
	bytes  int            // the length of those pieces, to bound the cache
}

// The cache of piece counts keeps pieces up to maxCachedPiece bytes and at most
// maxCacheBytes of them, each counted with pieceOverhead for its place in the map
// (pieces of JSON are mostly a few bytes long); when full it starts over, which is
// cheaper than tracking what is least recently used and fine for text that repeats.
const (
	maxCachedPiece = 8 << 10
	maxCacheBytes  = 4 << 20
	pieceOverhead  = 48
)

var (
	mu       sync.Mutex
	counters = map[string]*Counter{}
)

// Get returns the counter for an encoding, building its vocabulary once per
// process (it takes a noticeable fraction of a second).
func Get(encoding string) (*Counter, error) {
	if encoding == "" {
		encoding = Default
	}
	mu.Lock()
	defer mu.Unlock()
	if c, ok := counters[encoding]; ok {
		return c, nil
	}
	var enc tokenizer.Encoding
	switch encoding {
	case O200kBase:
		enc = tokenizer.O200kBase
	case Cl100kBase:
		enc = tokenizer.Cl100kBase
	default:
		return nil, fmt.Errorf("unknown tokenizer %q: want %s or %s", encoding, O200kBase, Cl100kBase)
	}
	codec, err := tokenizer.Get(enc)
	if err != nil {
		return nil, err
	}
	c := &Counter{name: encoding, codec: codec, pieces: map[string]int{}}
	counters[encoding] = c
	return c, nil
}

// MustGet is Get for encodings known to exist.
func MustGet(encoding string) *Counter {
	c, err := Get(encoding)
	if err != nil {
		panic(err)
	}
	return c
}

// Name is the encoding's name, e.g. o200k_base.
func (c *Counter) Name() string { return c.name }

// Count returns the number of tokens in s.
//
// The text is counted in pieces, cut only where the tokenizer's own pre-split also cuts,
// so the sum is the exact count of the whole: each line with its line break, and within a
// line before every double quote that follows a letter or a digit (see pieceEnd). The
// counts of recent pieces are remembered: results and listings repeat the same
// descriptions, signatures and schemas line for line, a definition's JSON repeats its
// keys and types and its server's parameters key by key, and a tokenizer pass allocates
// far more than the text it reads (37 KB for each of the dev split's definitions, whose JSON
// is 600 bytes on average).
func (c *Counter) Count(s string) int {
	n := 0
	for s != "" {
		i := pieceEnd(s)
		n += c.countPiece(s[:i])
		s = s[i:]
	}
	return n
}

// pieceEnd returns where the first piece of s ends: before a double quote that follows
// an ASCII letter or digit, after a line break that is followed by neither white space
// (a blank line or an indent is one pre-split chunk with the break) nor "/" (o200k_base
// keeps punctuation, line breaks and slashes together), or at the end of s.
//
// Both encodings' pre-split ends a run of letters, or of digits, at the first character
// of another class, unless it is the apostrophe of a contraction; a letter or a digit is
// in no other kind of chunk; and a chunk depends on nothing before it, nor, when it ends
// in a letter or a digit, on anything after it. So a chunk ends between the letter or
// digit and the quote, and the text on either side splits alone as it does in the
// whole. (In JSON that is where most keys and string values end.)
func pieceEnd(s string) int {
	// One scan for both: the next quote or line break, whichever comes first, so that
	// neither a long line with many quotes nor many lines with none cost more than
	// their length.
	for i := 0; ; {
		j := strings.IndexAny(s[i:], "\"\n")
		if j < 0 {
			return len(s)
		}
		i += j
		if s[i] == '"' {
			if i > 0 && isAlnum(s[i-1]) {
				return i
			}
			i++
			continue
		}
		i++ // past the line break
		if i == len(s) {
			return i
		}
		switch s[i] {
		case ' ', '\t', '\n', '\r', '\v', '\f', '/':
			continue
		}
		if r, _ := utf8.DecodeRuneInString(s[i:]); !unicode.IsSpace(r) {
			return i
		}
	}
}

func isAlnum(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

func (c *Counter) countPiece(p string) int {
	if len(p) > maxCachedPiece {
		return c.count(p)
	}
	c.mu.Lock()
	n, ok := c.pieces[p]
	c.mu.Unlock()
	if ok {
		return n
	}
	n = c.count(p)
	c.mu.Lock()
	if c.bytes+len(p)+pieceOverhead > maxCacheBytes {
		clear(c.pieces)
		c.bytes = 0
	}
	if _, ok := c.pieces[p]; !ok {
		// A copy: p is usually a slice of a much longer text.
		c.pieces[strings.Clone(p)] = n
		c.bytes += len(p) + pieceOverhead
	}
	c.mu.Unlock()
	return n
}

// count runs the tokenizer.
func (c *Counter) count(s string) int {
	n, err := c.codec.Count(s)
	if err != nil {
		// Only strict mode reports errors, and counters never use it; a
		// byte-length estimate is still better than zero.
		return len(s) / 4
	}
	return n
}
