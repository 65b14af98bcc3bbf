package search

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// schemaReader reads the searchable part of a JSON Schema into a schemaNode
// straight from its tokens. It gives the node json.Unmarshal would give, for
// the schemas catalogs hold, at a fraction of the cost: json.Unmarshal
// decodes every properties object three times over (a Decoder, a raw copy,
// the node). Whatever it is not sure to read exactly as json.Unmarshal does
// (a field name in other letter case, a field given twice, a field of an
// unexpected type, null, escapes in a field name, invalid JSON) makes it
// give up, and ToolDocument reads the schema with json.Unmarshal instead.
type schemaReader struct {
	dec  jsontext.Decoder
	src  bytes.Buffer // the schema: the decoder reads it in place
	data []byte
	// props is scratch for the properties being read, innermost last.
	props []namedNode
	// params is scratch for ToolDocument's flattened parameters.
	params []Param
}

var readers = sync.Pool{New: func() any { return new(schemaReader) }}

// maxReadDepth bounds the nesting schemaReader follows; deeper schemas are
// left to json.Unmarshal, which has its own bound.
const maxReadDepth = 200

// asUnmarshalReads are the decoder's options that take the JSON
// json.Unmarshal takes: duplicate names (the reader gives up on a field
// given twice itself), invalid UTF-8 and lone surrogates (made U+FFFD).
var asUnmarshalReads = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}

// readSchema reads data into n, reporting false when it gave up.
func (r *schemaReader) readSchema(data []byte, n *schemaNode) bool {
	r.data, r.src = data, *bytes.NewBuffer(data)
	r.dec.Reset(&r.src, asUnmarshalReads...)
	defer func() { // keep no reference to data in the pool
		r.data, r.src = nil, bytes.Buffer{}
		r.dec.Reset(&r.src)
		clear(r.props)
		r.props = r.props[:0]
	}()
	if r.dec.PeekKind() != '{' || !r.node(n, 0) {
		return false
	}
	_, err := r.dec.ReadToken()
	return err == io.EOF
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

// node reads the object at the decoder's position into n.
func (r *schemaReader) node(n *schemaNode, depth int) bool {
	if depth > maxReadDepth {
		return false
	}
	var seen uint8
	return r.object(func(name jsontext.Value, simple bool) bool {
		key := name[1 : len(name)-1]
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
			if r.dec.PeekKind() != '{' {
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

// object reads the object at the decoder's position, calling member with
// each name as written (simple when its text is its bytes between the
// quotes), positioned at its value, which member must read.
func (r *schemaReader) object(member func(name jsontext.Value, simple bool) bool) bool {
	if _, err := r.dec.ReadToken(); err != nil { // {
		return false
	}
	for r.dec.PeekKind() != '}' {
		name, err := r.dec.ReadValue()
		if err != nil || !member(name, simpleString(name)) {
			return false
		}
	}
	_, err := r.dec.ReadToken()
	return err == nil
}

// properties reads a properties object in the order written; a property
// whose schema is not an object counts by its name alone, as with
// json.Unmarshal, which leaves that node empty. The properties are gathered
// in scratch first, so that they take one allocation of the exact size.
func (r *schemaReader) properties(props *orderedProps, depth int) bool {
	if r.dec.PeekKind() != '{' {
		return false
	}
	base := len(r.props)
	defer func() {
		clear(r.props[base:])
		r.props = r.props[:base]
	}()
	ok := r.object(func(name jsontext.Value, simple bool) bool {
		var p namedNode
		if simple {
			p.name = string(name[1 : len(name)-1])
		} else {
			p.name = unquote(name)
		}
		if r.dec.PeekKind() != '{' {
			r.props = append(r.props, p)
			return r.dec.SkipValue() == nil
		}
		ok := r.node(&p.node, depth)
		r.props = append(r.props, p)
		return ok
	})
	if ok && len(r.props) > base {
		*props = slices.Clone(r.props[base:])
	}
	return ok
}

// nodes reads an array of schemas.
func (r *schemaReader) nodes(dst *[]schemaNode, depth int) bool {
	if r.dec.PeekKind() != '[' {
		return false
	}
	return r.array(func() bool {
		if r.dec.PeekKind() != '{' {
			return false
		}
		*dst = append(*dst, schemaNode{})
		return r.node(&(*dst)[len(*dst)-1], depth)
	})
}

// array reads the array at the decoder's position, calling elem at each
// element, which elem must read.
func (r *schemaReader) array(elem func() bool) bool {
	if _, err := r.dec.ReadToken(); err != nil { // [
		return false
	}
	for r.dec.PeekKind() != ']' {
		if !elem() {
			return false
		}
	}
	_, err := r.dec.ReadToken()
	return err == nil
}

// text reads a string field.
func (r *schemaReader) text(dst *string) bool {
	if r.dec.PeekKind() != '"' {
		return false
	}
	raw, err := r.dec.ReadValue()
	switch {
	case err != nil:
		return false
	case simpleString(raw):
		*dst = string(raw[1 : len(raw)-1])
	default:
		*dst = unquote(raw)
	}
	return true
}

// enum reads the values of an enum as json.Unmarshal reads them into
// []any. Enums of plain strings, the usual ones, are read directly.
func (r *schemaReader) enum(dst *[]any) bool {
	if r.dec.PeekKind() != '[' {
		return false
	}
	// The offset is past the name just read: the array starts at the
	// first bracket after it (beyond the colon).
	start := r.dec.InputOffset()
	start += int64(bytes.IndexByte(r.data[start:], '['))
	var vals []any
	plain := true
	ok := r.array(func() bool {
		if r.dec.PeekKind() != '"' {
			plain = false
			return r.dec.SkipValue() == nil
		}
		raw, err := r.dec.ReadValue()
		simple := err == nil && simpleString(raw)
		if simple && plain {
			vals = append(vals, string(raw[1:len(raw)-1]))
		}
		plain = plain && simple
		return err == nil
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
	return json.Unmarshal(r.data[start:r.dec.InputOffset()], dst) == nil
}

// simpleString reports whether a string, which the decoder read, holds no
// escape and is valid UTF-8, so that its text is its bytes between the
// quotes.
func simpleString(raw jsontext.Value) bool {
	inner := raw[1 : len(raw)-1]
	return bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner)
}

// skip reads any value, strictly, nested at most maxReadDepth.
func (r *schemaReader) skip(depth int) bool {
	if depth > maxReadDepth {
		return false
	}
	return r.dec.SkipValue() == nil
}

// unquote decodes a string the decoder read, as json.Unmarshal does: the
// decoder has checked it, so an error here is invalid UTF-8 or a lone
// surrogate made U+FFFD, which json.Unmarshal does too.
func unquote(raw jsontext.Value) string {
	b, _ := jsontext.AppendUnquote(nil, raw)
	return string(b)
}
