package loader

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"math"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ToolDigest is the sha256 of a tool's canonical definition: its JSON as
// encoding/json writes it back after decoding it into plain Go values
// (object keys sorted, numbers as float64, strings re-escaped), under its
// own name.
//
// Upstream caches keep these digests across restarts (the first definition
// seen of each tool), so the bytes hashed must never change. They were first
// made by the round trip json.Marshal, json.Unmarshal into an any,
// json.Marshal; a canonicalizer writes the same bytes without building the
// maps, which made digests a third of a large catalog's start, and for a
// plain tool (a name, a title, a description and schemas kept as JSON)
// without encoding it first. A tool that does not survive the round trip
// (a number beyond float64) is hashed as first encoded, as it always was.
func ToolDigest(t *mcp.Tool) string {
	c := canonPool.Get().(*canonicalizer)
	defer canonPool.Put(c)
	if out, ok := c.plainTool(t); ok {
		sum := sha256.Sum256(out)
		return hex.EncodeToString(sum[:])
	}
	return c.digest(t)
}

// jsonDigest is the sha256 of v's canonical JSON, as ToolDigest's: the
// digest of an upstream prompt, resource or resource template.
func jsonDigest(v any) string {
	c := canonPool.Get().(*canonicalizer)
	defer canonPool.Put(c)
	return c.digest(v)
}

// digest is the sha256 of v's canonical JSON, or of its JSON as first
// encoded where the round trip fails.
func (c *canonicalizer) digest(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		data = nil
	}
	out, ok := c.canonical(data)
	if !ok {
		out = roundTrip(data)
	}
	sum := sha256.Sum256(out)
	return hex.EncodeToString(sum[:])
}

// roundTrip is the original canonical form, for what canonicalizer does not
// take: JSON that encoding/json cannot decode into an any is left as it is.
func roundTrip(data []byte) []byte {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return data
	}
	out, err := json.Marshal(v)
	if err != nil {
		return data
	}
	return out
}

var canonPool = sync.Pool{New: func() any { return new(canonicalizer) }}

// A canonicalizer rewrites compact JSON as json.Marshal writes the value
// json.Unmarshal decodes from it into an any. It reads the JSON with a
// jsontext.Decoder set to take what json.Unmarshal takes (duplicate keys,
// invalid UTF-8 and lone surrogates, each made U+FFFD when unquoted). Its
// buffers are reused from call to call.
type canonicalizer struct {
	dec     jsontext.Decoder
	src     bytes.Buffer // the JSON read: the decoder reads it in place
	in      []byte       // that JSON
	out     []byte
	members []member // the members of the objects being written, innermost last
	keys    []byte   // the unquoted keys of those members
	scratch []byte
}

// member is one "key":value of an object, written at out[start:end]. Its
// unquoted key is in[keyStart:keyEnd], or keys[keyStart:keyEnd] when
// inKeys (a key whose text is not its bytes).
type member struct {
	keyStart, keyEnd int
	inKeys           bool
	start, end       int
}

// canonical returns the canonical form of data, or false for input it does
// not take: not JSON, nested deeper than maxCanonicalDepth, or a number
// that does not fit a float64 (which makes json.Unmarshal fail). The result
// is valid until the next call.
func (c *canonicalizer) canonical(data []byte) ([]byte, bool) {
	c.reset()
	if !c.json(data) {
		return nil, false
	}
	return c.result(), true
}

// maxCanonicalDepth bounds the nesting a canonicalizer follows; deeper JSON
// goes the original way, which has its own bound.
const maxCanonicalDepth = 1000

// asUnmarshalReads are the decoder's options that take what json.Unmarshal
// takes.
var asUnmarshalReads = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}

func (c *canonicalizer) reset() {
	c.out, c.members, c.keys = c.out[:0], c.members[:0], c.keys[:0]
}

// json writes the canonical form of the JSON text data, which it checks as
// strictly as encoding/json does: one value, white space around it.
func (c *canonicalizer) json(data []byte) bool {
	c.in, c.src = data, *bytes.NewBuffer(data)
	c.dec.Reset(&c.src, asUnmarshalReads...)
	defer func() { // keep no reference to data in the pool
		c.in, c.src = nil, bytes.Buffer{}
		c.dec.Reset(&c.src)
	}()
	if !c.value() {
		return false
	}
	_, err := c.dec.ReadToken()
	return err == io.EOF
}

func (c *canonicalizer) result() []byte {
	if cap(c.out) > 1<<20 { // do not keep a huge buffer in the pool
		out := c.out
		c.out = nil
		return out
	}
	return c.out
}

// plainTool writes the canonical form of t directly when t has nothing but
// a name, a title, a description and schemas kept as JSON (or none), which
// is all that tools/list results and tool files usually hold. The keys are
// written in order; the strings as json.Marshal writes them once decoded
// (each byte of invalid UTF-8 a U+FFFD). It reports false for any other
// tool, and for a schema that is not JSON, which json.Marshal refuses.
func (c *canonicalizer) plainTool(t *mcp.Tool) ([]byte, bool) {
	if len(t.Meta) > 0 || t.Annotations != nil || len(t.Icons) > 0 {
		return nil, false
	}
	c.reset()
	c.out = append(c.out, '{')
	if t.Description != "" {
		c.out = append(c.out, `"description":`...)
		c.goString(t.Description)
		c.out = append(c.out, ',')
	}
	c.out = append(c.out, `"inputSchema":`...)
	if !c.schema(t.InputSchema) {
		return nil, false
	}
	c.out = append(c.out, `,"name":`...)
	c.goString(t.Name)
	if t.OutputSchema != nil {
		c.out = append(c.out, `,"outputSchema":`...)
		if !c.schema(t.OutputSchema) {
			return nil, false
		}
	}
	if t.Title != "" {
		c.out = append(c.out, `,"title":`...)
		c.goString(t.Title)
	}
	c.out = append(c.out, '}')
	return c.result(), true
}

// schema writes a schema kept as JSON; nil is null, as json.Marshal writes
// it.
func (c *canonicalizer) schema(s any) bool {
	switch s := s.(type) {
	case nil:
		c.out = append(c.out, "null"...)
		return true
	case json.RawMessage:
		if s == nil {
			c.out = append(c.out, "null"...)
			return true
		}
		return c.json(s)
	}
	return false
}

// goString writes a Go string as the round trip leaves it.
func (c *canonicalizer) goString(s string) {
	if utf8.ValidString(s) {
		c.out = appendString(c.out, s)
		return
	}
	c.scratch = c.scratch[:0]
	for _, r := range s { // each byte of invalid UTF-8 is utf8.RuneError
		c.scratch = utf8.AppendRune(c.scratch, r)
	}
	c.out = appendString(c.out, c.scratch)
}

// value writes the next value the decoder holds.
func (c *canonicalizer) value() bool {
	switch c.dec.PeekKind() {
	case '{':
		return c.object()
	case '[':
		return c.array()
	}
	raw, err := c.dec.ReadValue()
	if err != nil {
		return false
	}
	switch raw.Kind() {
	case '"':
		c.str(raw)
	case '0':
		return c.number(raw)
	default: // true, false, null
		c.out = append(c.out, raw...)
	}
	return true
}

// str writes a string as json.Marshal writes its decoded text: as it
// stands when that is the same (printable ASCII other than what it escapes,
// valid UTF-8 other than U+2028 and U+2029), which it reports, else
// unquoted and quoted again.
func (c *canonicalizer) str(raw jsontext.Value) (asIs bool) {
	if marshalsAsIs(raw[1 : len(raw)-1]) {
		c.out = append(c.out, raw...)
		return true
	}
	// The decoder checked raw: an error here is invalid UTF-8 or a lone
	// surrogate made U+FFFD, as json.Unmarshal makes them.
	c.scratch, _ = jsontext.AppendUnquote(c.scratch[:0], raw)
	c.out = appendString(c.out, c.scratch)
	return false
}

// marshalsAsIs reports whether a string's bytes, between its quotes, are
// what json.Marshal writes for the text they decode to.
func marshalsAsIs(s []byte) bool {
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if !asciiAsIs[b] {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			return false
		}
		i += size
	}
	return true
}

// asciiAsIs is htmlSafe by table, for marshalsAsIs's loop.
var asciiAsIs = func() (t [utf8.RuneSelf]bool) {
	for b := range t {
		t[b] = htmlSafe(byte(b))
	}
	return t
}()

// open reads the bracket of an array or object and writes it, within
// maxCanonicalDepth.
func (c *canonicalizer) open(bracket byte) bool {
	if _, err := c.dec.ReadToken(); err != nil || c.dec.StackDepth() > maxCanonicalDepth {
		return false
	}
	c.out = append(c.out, bracket)
	return true
}

func (c *canonicalizer) array() bool {
	if !c.open('[') {
		return false
	}
	for n := 0; c.dec.PeekKind() != ']'; n++ {
		if n > 0 {
			c.out = append(c.out, ',')
		}
		if !c.value() {
			return false
		}
	}
	if _, err := c.dec.ReadToken(); err != nil {
		return false
	}
	c.out = append(c.out, ']')
	return true
}

// object writes the members as they come, then puts them in key order if
// they were not, keeping the last of equal keys as json.Unmarshal does.
func (c *canonicalizer) object() bool {
	if !c.open('{') {
		return false
	}
	body := len(c.out)
	base := len(c.members)
	defer func() { c.members = c.members[:base] }()
	sorted := true
	for c.dec.PeekKind() != '}' {
		if len(c.members) > base {
			c.out = append(c.out, ',')
		}
		m := member{start: len(c.out)}
		name, err := c.dec.ReadValue()
		if err != nil {
			return false
		}
		if c.str(name) {
			// Its text is its bytes, just read: where the decoder stands.
			m.keyEnd = int(c.dec.InputOffset()) - 1
			m.keyStart = m.keyEnd - (len(name) - 2)
		} else {
			m.inKeys, m.keyStart = true, len(c.keys)
			c.keys, _ = jsontext.AppendUnquote(c.keys, name) // checked, as in str
			m.keyEnd = len(c.keys)
		}
		c.out = append(c.out, ':')
		if !c.value() {
			return false
		}
		m.end = len(c.out)
		if n := len(c.members); n > base && bytes.Compare(c.key(c.members[n-1]), c.key(m)) >= 0 {
			sorted = false
		}
		c.members = append(c.members, m)
	}
	if _, err := c.dec.ReadToken(); err != nil {
		return false
	}
	if !sorted {
		c.reorder(body, c.members[base:])
	}
	c.out = append(c.out, '}')
	return true
}

// reorder rewrites out[body:] with the members in key order, the last of
// equal keys only.
func (c *canonicalizer) reorder(body int, ms []member) {
	c.scratch = append(c.scratch[:0], c.out[body:]...)
	for k := range ms {
		ms[k].start -= body
		ms[k].end -= body
	}
	slices.SortStableFunc(ms, func(a, b member) int { return bytes.Compare(c.key(a), c.key(b)) })
	c.out = c.out[:body]
	for k, m := range ms {
		if k+1 < len(ms) && bytes.Equal(c.key(m), c.key(ms[k+1])) {
			continue // a later duplicate wins
		}
		if len(c.out) > body {
			c.out = append(c.out, ',')
		}
		c.out = append(c.out, c.scratch[m.start:m.end]...)
	}
}

func (c *canonicalizer) key(m member) []byte {
	if m.inKeys {
		return c.keys[m.keyStart:m.keyEnd]
	}
	return c.in[m.keyStart:m.keyEnd]
}

// number writes a number, which the decoder checked, as the float64 it
// decodes to.
func (c *canonicalizer) number(lit jsontext.Value) bool {
	n := len(lit)
	if bytes.IndexAny(lit, ".eE") < 0 && (n <= 15 || n == 16 && lit[0] == '-') {
		// An integer of 15 digits or fewer: a float64 holds it exactly, and
		// json.Marshal writes it back digit for digit.
		c.out = append(c.out, lit...)
		return true
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil {
		return false
	}
	c.out = appendFloat(c.out, f)
	return true
}

// appendFloat writes f as json.Marshal writes a float64.
func appendFloat(b []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// htmlSafe reports whether json.Marshal writes the ASCII byte b as it is.
func htmlSafe(b byte) bool {
	return b >= ' ' && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' && b < utf8.RuneSelf
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string the way json.Marshal does, with
// HTML escaping.
func appendString[S string | []byte](dst []byte, s S) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if htmlSafe(b) {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune([]byte(s[i:min(i+utf8.UTFMax, len(s))]))
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
