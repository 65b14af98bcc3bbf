package catalog

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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
// json.Unmarshal decodes from it into an any. Its buffers are reused from
// call to call.
//
// It reads the JSON itself rather than with jsontext's Decoder (issue 46):
// on the Decoder, a digest cost 10-15 % more (BenchmarkToolDigest) and a
// tools file's load 17 % more of its digests' share (LoadToolsFile at
// 42,000 tools, medians of four runs in turn), on the path to a large
// file's first tools/list, past the start-up guard's 5 %. The golden
// digests (TestDigestGolden) hold whichever reads it.
type canonicalizer struct {
	in      []byte
	out     []byte
	members []member // the members of the objects being written, innermost last
	keys    []byte   // unescaped keys that differ from their JSON text
	scratch []byte
	depth   int
}

// member is one "key":value of an object, written at out[start:end]. Its
// unescaped key is in[keyStart:keyEnd], or keys[keyStart:keyEnd] when
// inKeys.
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

func (c *canonicalizer) reset() {
	c.out, c.members, c.keys, c.depth = c.out[:0], c.members[:0], c.keys[:0], 0
}

// json writes the canonical form of the JSON text data, which it checks as
// strictly as encoding/json does.
func (c *canonicalizer) json(data []byte) bool {
	c.in = data
	defer func() { c.in = nil }()
	i, ok := c.value(c.skipSpace(0))
	return ok && c.skipSpace(i) == len(data)
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

func (c *canonicalizer) skipSpace(i int) int {
	for i < len(c.in) && (c.in[i] == ' ' || c.in[i] == '\t' || c.in[i] == '\n' || c.in[i] == '\r') {
		i++
	}
	return i
}

// value writes the value starting at in[i] and returns where it ends.
func (c *canonicalizer) value(i int) (int, bool) {
	if i >= len(c.in) {
		return i, false
	}
	switch b := c.in[i]; {
	case b == '{':
		return c.object(i)
	case b == '[':
		return c.array(i)
	case b == '"':
		end, simple, ok := c.scanString(i)
		if !ok {
			return i, false
		}
		if simple {
			c.out = append(c.out, c.in[i:end]...)
			return end, true
		}
		c.scratch = unquote(c.scratch[:0], c.in[i:end])
		c.out = appendString(c.out, c.scratch)
		return end, true
	case b == '-' || '0' <= b && b <= '9':
		return c.number(i)
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if bytes.HasPrefix(c.in[i:], []byte(lit)) {
			c.out = append(c.out, lit...)
			return i + len(lit), true
		}
	}
	return i, false
}

func (c *canonicalizer) array(i int) (int, bool) {
	if c.depth++; c.depth > maxCanonicalDepth {
		return i, false
	}
	defer func() { c.depth-- }()
	c.out = append(c.out, '[')
	i = c.skipSpace(i + 1)
	if i < len(c.in) && c.in[i] == ']' {
		c.out = append(c.out, ']')
		return i + 1, true
	}
	for {
		var ok bool
		if i, ok = c.value(i); !ok {
			return i, false
		}
		i = c.skipSpace(i)
		if i >= len(c.in) {
			return i, false
		}
		switch c.in[i] {
		case ',':
			c.out = append(c.out, ',')
			i = c.skipSpace(i + 1)
		case ']':
			c.out = append(c.out, ']')
			return i + 1, true
		default:
			return i, false
		}
	}
}

// object writes the members as they come, then puts them in key order if
// they were not, keeping the last of equal keys as json.Unmarshal does.
func (c *canonicalizer) object(i int) (int, bool) {
	if c.depth++; c.depth > maxCanonicalDepth {
		return i, false
	}
	defer func() { c.depth-- }()
	c.out = append(c.out, '{')
	body := len(c.out)
	base := len(c.members)
	defer func() { c.members = c.members[:base] }()
	i = c.skipSpace(i + 1)
	if i < len(c.in) && c.in[i] == '}' {
		c.out = append(c.out, '}')
		return i + 1, true
	}
	sorted := true
	for {
		if i >= len(c.in) || c.in[i] != '"' {
			return i, false
		}
		end, simple, ok := c.scanString(i)
		if !ok {
			return i, false
		}
		m := member{keyStart: i + 1, keyEnd: end - 1, start: len(c.out)}
		if !simple {
			m.inKeys, m.keyStart = true, len(c.keys)
			c.keys = unquote(c.keys, c.in[i:end])
			m.keyEnd = len(c.keys)
			c.out = appendString(c.out, c.keys[m.keyStart:])
		} else {
			c.out = append(c.out, c.in[i:end]...)
		}
		c.out = append(c.out, ':')
		if i = c.skipSpace(end); i >= len(c.in) || c.in[i] != ':' {
			return i, false
		}
		if i, ok = c.value(c.skipSpace(i + 1)); !ok {
			return i, false
		}
		m.end = len(c.out)
		if n := len(c.members); n > base && bytes.Compare(c.key(c.members[n-1]), c.key(m)) >= 0 {
			sorted = false
		}
		c.members = append(c.members, m)
		i = c.skipSpace(i)
		if i >= len(c.in) {
			return i, false
		}
		if c.in[i] == '}' {
			break
		}
		if c.in[i] != ',' {
			return i, false
		}
		c.out = append(c.out, ',')
		i = c.skipSpace(i + 1)
	}
	if !sorted {
		c.reorder(body, c.members[base:])
	}
	c.out = append(c.out, '}')
	return i + 1, true
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

// scanString finds the end of the string starting at in[i] (past its
// closing quote). It is simple when json.Marshal would write back its
// decoded text exactly as it stands: printable ASCII other than the
// characters it escapes, and valid UTF-8 other than U+2028 and U+2029.
func (c *canonicalizer) scanString(i int) (end int, simple, ok bool) {
	simple = true
	for j := i + 1; j < len(c.in); {
		b := c.in[j]
		if b < utf8.RuneSelf {
			switch {
			case b == '"':
				return j + 1, simple, true
			case b == '\\':
				simple = false
				if j+1 >= len(c.in) {
					return len(c.in), false, false
				}
				switch c.in[j+1] {
				case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
					j += 2
				case 'u':
					if getu4(c.in[j:]) < 0 {
						return j, false, false
					}
					j += 6
				default:
					return j, false, false
				}
				continue
			case b < ' ':
				return j, false, false
			case !htmlSafe(b):
				simple = false
			}
			j++
			continue
		}
		r, size := utf8.DecodeRune(c.in[j:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			simple = false
		}
		j += size
	}
	return len(c.in), false, false
}

// number writes the number starting at in[i], read by JSON's grammar, as
// the float64 it decodes to.
func (c *canonicalizer) number(i int) (int, bool) {
	j := i
	digits := func() int {
		k := j
		for j < len(c.in) && '0' <= c.in[j] && c.in[j] <= '9' {
			j++
		}
		return j - k
	}
	if c.in[j] == '-' {
		j++
	}
	switch {
	case j < len(c.in) && c.in[j] == '0':
		j++
	case digits() == 0:
		return i, false
	}
	plain := true
	if j < len(c.in) && c.in[j] == '.' {
		j++
		if digits() == 0 {
			return i, false
		}
		plain = false
	}
	if j < len(c.in) && (c.in[j] == 'e' || c.in[j] == 'E') {
		j++
		if j < len(c.in) && (c.in[j] == '+' || c.in[j] == '-') {
			j++
		}
		if digits() == 0 {
			return i, false
		}
		plain = false
	}
	lit := c.in[i:j]
	if n := len(lit); plain && (n <= 15 || n == 16 && lit[0] == '-') {
		// An integer of 15 digits or fewer: a float64 holds it exactly, and
		// json.Marshal writes it back digit for digit.
		c.out = append(c.out, lit...)
		return j, true
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil {
		return i, false
	}
	c.out = appendFloat(c.out, f)
	return j, true
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

// unquote appends the text of a JSON string (quotes included) as
// json.Unmarshal decodes it: escapes resolved, a lone surrogate and each
// byte of invalid UTF-8 made U+FFFD. scanString has checked the string: an
// error of jsontext.AppendUnquote's is one of those made U+FFFD.
func unquote(dst, quoted []byte) []byte {
	dst, _ = jsontext.AppendUnquote(dst, quoted)
	return dst
}

// getu4 decodes \uXXXX from the start of s, or returns -1.
func getu4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c = c - '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
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
