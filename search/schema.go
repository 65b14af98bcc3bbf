package search

import (
	"bytes"
	"encoding/json"
	"sync"
	"unicode/utf8"
)

// schemaReader reads the searchable part of a JSON Schema into a schemaNode
// straight from its bytes. It gives the node json.Unmarshal would give, for
// the schemas catalogs hold, at a fraction of the cost: json.Unmarshal
// decodes every properties object three times over (a Decoder, a raw copy,
// the node). Whatever it is not sure to read exactly as json.Unmarshal does
// (a field name in other letter case, a field given twice, a field of an
// unexpected type, null, escapes in a field name, invalid JSON) makes it
// give up, and ToolDocument reads the schema with json.Unmarshal instead.
//
// It reads the bytes itself rather than jsontext's Decoder's tokens (issue
// 46): on the Decoder, building the documents of the dev split cost 12-18 %
// more (BenchmarkToolDocument, four runs in turn), past the start-up guard's
// 5 %. Strings with escapes are decoded by encoding/json (unquote).
type schemaReader struct {
	data []byte
	i    int
	// params is scratch for ToolDocument's flattened parameters.
	params []Param
}

var readers = sync.Pool{New: func() any { return new(schemaReader) }}

// maxReadDepth bounds the nesting schemaReader follows; deeper schemas are
// left to json.Unmarshal, which has its own bound.
const maxReadDepth = 200

// readSchema reads data into n, reporting false when it gave up.
func (r *schemaReader) readSchema(data []byte, n *schemaNode) bool {
	r.data, r.i = data, 0
	defer func() { r.data = nil }()
	r.space()
	if r.peek() != '{' || !r.node(n, 0) {
		return false
	}
	r.space()
	return r.i == len(r.data)
}

func (r *schemaReader) peek() byte {
	if r.i < len(r.data) {
		return r.data[r.i]
	}
	return 0
}

func (r *schemaReader) space() {
	for r.i < len(r.data) {
		switch r.data[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// The fields of schemaNode that schemaReader reads, each a bit in a set of
// those seen.
const (
	readDescription uint8 = 1 << iota
	readTitle
	readEnum
	readProperties
	readItems
	readAnyOf
	readOneOf
	readAllOf
)

// schemaField is the field of schemaNode named key exactly, or 0 for none.
func schemaField(key []byte) uint8 {
	switch string(key) {
	case "description":
		return readDescription
	case "title":
		return readTitle
	case "enum":
		return readEnum
	case "properties":
		return readProperties
	case "items":
		return readItems
	case "anyOf":
		return readAnyOf
	case "oneOf":
		return readOneOf
	case "allOf":
		return readAllOf
	}
	return 0
}

var schemaFieldNames = []string{"description", "title", "enum", "properties", "items", "anyOf", "oneOf", "allOf"}

// node reads the object at r.i into n.
func (r *schemaReader) node(n *schemaNode, depth int) bool {
	if depth > maxReadDepth {
		return false
	}
	var seen uint8
	return r.object(func(tok []byte, simple bool) bool {
		key := tok[1 : len(tok)-1]
		field := schemaField(key)
		if field == 0 {
			if !simple || foldsToField(key) {
				return false
			}
			return r.skip(depth + 1)
		}
		if seen&field != 0 {
			return false
		}
		seen |= field
		switch field {
		case readDescription:
			return r.text(&n.Description)
		case readTitle:
			return r.text(&n.Title)
		case readEnum:
			return r.enum(&n.Enum)
		case readProperties:
			return r.properties(&n.Properties, depth+1)
		case readItems:
			if r.peek() != '{' {
				return false
			}
			n.Items = new(schemaNode)
			return r.node(n.Items, depth+1)
		case readAnyOf:
			return r.nodes(&n.AnyOf, depth+1)
		case readOneOf:
			return r.nodes(&n.OneOf, depth+1)
		default: // readAllOf
			return r.nodes(&n.AllOf, depth+1)
		}
	})
}

// foldsToField reports whether json.Unmarshal would take key for a field
// of schemaNode that it does not spell exactly (it matches names without
// regard to case).
func foldsToField(key []byte) bool {
	for _, name := range schemaFieldNames {
		if bytes.EqualFold(key, []byte(name)) {
			return true
		}
	}
	return false
}

// object reads the object at r.i, calling member with each key as written
// (simple when its text is its bytes between the quotes) with r.i at its
// value, which member must read.
func (r *schemaReader) object(member func(tok []byte, simple bool) bool) bool {
	r.i++ // {
	r.space()
	if r.peek() == '}' {
		r.i++
		return true
	}
	for {
		if r.peek() != '"' {
			return false
		}
		start := r.i
		simple, ok := r.str()
		if !ok {
			return false
		}
		tok := r.data[start:r.i]
		r.space()
		if r.peek() != ':' {
			return false
		}
		r.i++
		r.space()
		if !member(tok, simple) {
			return false
		}
		r.space()
		switch r.peek() {
		case ',':
			r.i++
			r.space()
		case '}':
			r.i++
			return true
		default:
			return false
		}
	}
}

// properties reads a properties object in the order written; a property
// whose schema is not an object counts by its name alone, as with
// json.Unmarshal, which leaves that node empty. The properties are counted
// first, so that they take one allocation of the exact size.
func (r *schemaReader) properties(props *orderedProps, depth int) bool {
	if r.peek() != '{' {
		return false
	}
	start, count := r.i, 0
	if !r.object(func([]byte, bool) bool { count++; return r.skip(depth) }) {
		return false
	}
	if count == 0 {
		return true
	}
	r.i = start
	*props = make(orderedProps, 0, count)
	return r.object(func(tok []byte, simple bool) bool {
		*props = append(*props, namedNode{})
		p := &(*props)[len(*props)-1]
		if simple {
			p.name = string(tok[1 : len(tok)-1])
		} else if !unquote(tok, &p.name) {
			return false
		}
		if r.peek() != '{' {
			return r.skip(depth)
		}
		return r.node(&p.node, depth)
	})
}

// nodes reads an array of schemas.
func (r *schemaReader) nodes(dst *[]schemaNode, depth int) bool {
	if r.peek() != '[' {
		return false
	}
	return r.array(func() bool {
		if r.peek() != '{' {
			return false
		}
		*dst = append(*dst, schemaNode{})
		return r.node(&(*dst)[len(*dst)-1], depth)
	})
}

// array reads the array at r.i, calling elem with r.i at each element,
// which elem must read.
func (r *schemaReader) array(elem func() bool) bool {
	r.i++ // [
	r.space()
	if r.peek() == ']' {
		r.i++
		return true
	}
	for {
		if !elem() {
			return false
		}
		r.space()
		switch r.peek() {
		case ',':
			r.i++
			r.space()
		case ']':
			r.i++
			return true
		default:
			return false
		}
	}
}

// text reads a string field.
func (r *schemaReader) text(dst *string) bool {
	if r.peek() != '"' {
		return false
	}
	start := r.i
	simple, ok := r.str()
	if !ok {
		return false
	}
	if simple {
		*dst = string(r.data[start+1 : r.i-1])
		return true
	}
	return json.Unmarshal(r.data[start:r.i], dst) == nil
}

// enum reads the values of an enum as json.Unmarshal reads them into
// []any. Enums of plain strings, the usual ones, are read directly.
func (r *schemaReader) enum(dst *[]any) bool {
	if r.peek() != '[' {
		return false
	}
	start := r.i
	var vals []any
	plain := true
	ok := r.array(func() bool {
		if r.peek() != '"' {
			plain = false
			return r.skip(0)
		}
		s := r.i
		simple, ok := r.str()
		if simple && plain {
			vals = append(vals, string(r.data[s+1:r.i-1]))
		}
		plain = plain && simple
		return ok
	})
	if !ok {
		return false
	}
	if plain {
		if vals == nil {
			vals = []any{}
		}
		*dst = vals
		return true
	}
	return json.Unmarshal(r.data[start:r.i], dst) == nil
}

// str reads the string at r.i (which is at its quote), strictly as JSON. It
// is simple when it holds no escape and is valid UTF-8, so that its text is
// its bytes.
func (r *schemaReader) str() (simple, ok bool) {
	r.i++
	simple = true
	ascii := true
	start := r.i
	for r.i < len(r.data) {
		c := r.data[r.i]
		switch {
		case c == '"':
			if !ascii && !utf8.Valid(r.data[start:r.i]) {
				simple = false
			}
			r.i++
			return simple, true
		case c < ' ':
			return false, false
		case c == '\\':
			simple = false
			r.i++
			switch r.peek() {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				r.i++
			case 'u':
				if r.i+5 > len(r.data) {
					return false, false
				}
				for _, h := range r.data[r.i+1 : r.i+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return false, false
					}
				}
				r.i += 5
			default:
				return false, false
			}
		default:
			if c >= utf8.RuneSelf {
				ascii = false
			}
			r.i++
		}
	}
	return false, false
}

// skip reads any JSON value, strictly.
func (r *schemaReader) skip(depth int) bool {
	if depth > maxReadDepth {
		return false
	}
	switch c := r.peek(); {
	case c == '{':
		return r.object(func([]byte, bool) bool { return r.skip(depth + 1) })
	case c == '[':
		return r.array(func() bool { return r.skip(depth + 1) })
	case c == '"':
		_, ok := r.str()
		return ok
	case c == '-' || '0' <= c && c <= '9':
		return r.number()
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if bytes.HasPrefix(r.data[r.i:], []byte(lit)) {
			r.i += len(lit)
			return true
		}
	}
	return false
}

// number reads a number by JSON's grammar.
func (r *schemaReader) number() bool {
	if r.peek() == '-' {
		r.i++
	}
	switch c := r.peek(); {
	case c == '0':
		r.i++
	case '1' <= c && c <= '9':
		r.digits()
	default:
		return false
	}
	if r.peek() == '.' {
		r.i++
		if !r.digits() {
			return false
		}
	}
	if c := r.peek(); c == 'e' || c == 'E' {
		r.i++
		if c := r.peek(); c == '+' || c == '-' {
			r.i++
		}
		if !r.digits() {
			return false
		}
	}
	return true
}

// digits reads one or more digits.
func (r *schemaReader) digits() bool {
	start := r.i
	for r.i < len(r.data) && '0' <= r.data[r.i] && r.data[r.i] <= '9' {
		r.i++
	}
	return r.i > start
}

// unquote decodes a JSON string token as json.Unmarshal does. (Passing
// dst itself to json.Unmarshal would move what holds it to the heap.)
func unquote(tok []byte, dst *string) bool {
	var s string
	if json.Unmarshal(tok, &s) != nil {
		return false
	}
	*dst = s
	return true
}
