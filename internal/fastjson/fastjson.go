// Package fastjson decodes JSON as encoding/json does, three times as fast:
// with the decoder the go-sdk decodes every message with
// (github.com/segmentio/encoding/json, a drop-in replacement tested against
// the standard library's own tests), which is linked in anyway. encoding/json
// runs its scanner over a value in full before decoding it, then decodes it
// field by field through reflection; at a start with 100,000 tools that was
// over a second of CPU spent on the last known catalog alone.
//
// Where the two could part, encoding/json decides: text nested beyond
// encoding/json's limit (which the other decoder, recursing, does not have),
// and every failure, so that errors read as encoding/json words them.
// FuzzUnmarshal holds the rest to encoding/json: whatever the other decoder
// accepts, encoding/json accepts, as the same value.
package fastjson

import (
	"bytes"
	"encoding/json"
	"reflect"

	segment "github.com/segmentio/encoding/json"
)

// maxDepth is encoding/json's limit on nesting: a text nested deeper is
// refused there, and would recurse that deep here.
const maxDepth = 10000

// Unmarshal decodes data into v as json.Unmarshal does, but for two things.
// A json.RawMessage in v holds data's own bytes, not a copy of them, so data
// must stay as it is while they are in use: the callers copy a tool's
// schemas as they pack them, and a copy made here first, dropped at once,
// was 40 MB more garbage for 100,000 tools, which raised the peak of a
// start. And where the faster decoder fails, the value v points to is set
// to its zero value and decoded again by encoding/json (for its verdict and
// its words), so v no longer holds what it held before, as it would where
// json.Unmarshal merges into it; nor does it hold data's bytes, which
// encoding/json would write over as it decoded them.
func Unmarshal(data []byte, v any) error {
	if nestsBeyond(data, maxDepth) {
		return json.Unmarshal(data, v)
	}
	// What follows the value is left to encoding/json to word as an error.
	if rest, err := segment.Parse(data, v, segment.DontCopyRawMessage); err == nil && len(rest) == 0 {
		return nil
	}
	if p := reflect.ValueOf(v); p.Kind() == reflect.Pointer && !p.IsNil() {
		p.Elem().SetZero()
	}
	return json.Unmarshal(data, v)
}

// nestsBeyond reports whether data opens more than limit arrays or objects
// at once, outside strings. It does not check the text otherwise. A text
// with no more than limit opening brackets in all (a tool's JSON, mostly)
// is not walked byte by byte: the walk took as long as the decoding.
func nestsBeyond(data []byte, limit int) bool {
	if len(data) <= limit || bytes.Count(data, []byte{'['})+bytes.Count(data, []byte{'{'}) <= limit {
		return false
	}
	depth, inString, escaped := 0, false, false
	for _, c := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			if depth++; depth > limit {
				return true
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return false
}
