// Package tokens counts context tokens with a real BPE tokenizer, so that
// budgets and savings are measured rather than guessed. Both vocabularies
// ship inside the tokenizer module: counting never touches the network.
//
// Claude's own tokenizer is not public and differs; o200k_base and
// cl100k_base are close, documented stand-ins.
package tokens

import (
	"fmt"
	"sync"

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
}

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
	c := &Counter{name: encoding, codec: codec}
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
func (c *Counter) Count(s string) int {
	if s == "" {
		return 0
	}
	n, err := c.codec.Count(s)
	if err != nil {
		// Only strict mode reports errors, and counters never use it; a
		// byte-length estimate is still better than zero.
		return len(s) / 4
	}
	return n
}
