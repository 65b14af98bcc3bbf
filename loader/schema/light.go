package schema

import (
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// The light decode behind Check.
//
// jsonschema-go decodes a schema with encoding/json twice at every level of
// nesting (into its struct, then into a map for the keywords it does not
// know), which costs a few hundred microseconds for a typical schema with
// references: half a minute of start-up for a persisted catalog of 100,000
// pydantic-style tools. The cycle analysis reads only a few keywords of each
// subschema: the references, the identifiers and anchors they resolve
// against, and the keywords that hold subschemas. lightDecode reads exactly
// those in one pass over the JSON, skipping the values of every other
// keyword, and builds the tree of jsonschema.Schema values jsonschema-go
// would build, with only those fields set; the analysis then runs on it
// unchanged.
//
// The tree is the same as jsonschema-go's whenever jsonschema-go decodes the
// schema at all, because the decode follows encoding/json wherever the two
// could differ: a keyword matches a key whatever its case (encoding/json
// matches struct fields case-insensitively, so "$REF" is a $ref), strings are
// unquoted by encoding/json itself, and null and booleans stand for what
// jsonschema-go makes of them. Where encoding/json would merge (a keyword or
// a map key twice in one object), or where jsonschema-go would refuse the
// schema (a subschema that is a string, say), the light decode gives up with
// errUnsure and Check decodes in full. A schema jsonschema-go refuses has no
// cycle, whatever the light decode makes of it: Check confirms every cycle the
// light decode finds with the full one. TestLightDecodeAsJsonschemaGo and
// FuzzCheck hold the two decodes to this.
//
// It reads the bytes itself rather than jsontext's Decoder's tokens (issue
// 46): on the Decoder, BenchmarkLightDecode took 19.2 µs against 12.1 (a
// pydantic-style schema with references), and a last known catalog of such
// tools light-decodes every schema on the way to its first tools/list; the
// start-up guard allows 5 %.

// errUnsure stops a light decode that cannot be sure to read the schema as
// jsonschema-go does.
var errUnsure = errors.New("the light decode cannot tell")

// lightCycle reports whether raw may hold a cycle: a cycle the light
// analysis found, or a schema it could not read for certain. Check
// confirms either with the full analysis.
func lightCycle(raw []byte) bool {
	root, nodes, err := lightDecode(raw)
	if err != nil {
		return true
	}
	_, err = newGraph(root, nodes)
	var ce *CycleError
	return errors.As(err, &ce)
}

// lightDecode decodes the keywords the cycle analysis reads, and returns
// about how many subschemas it decoded.
func lightDecode(raw []byte) (*jsonschema.Schema, int, error) {
	d := &lightDecoder{data: raw}
	root, err := d.schema(falseSchema, 0)
	return root, d.nodes, err
}

type lightDecoder struct {
	data  []byte
	pos   int
	free  []jsonschema.Schema // allocated in blocks: a schema is 792 bytes
	nodes int                 // subschemas decoded
}

// node returns a new, empty subschema.
func (d *lightDecoder) node() *jsonschema.Schema {
	if len(d.free) == 0 {
		d.free = make([]jsonschema.Schema, 16)
	}
	s := &d.free[0]
	d.free = d.free[1:]
	d.nodes++
	return s
}

// What a keyword holds, for the light decode.
type lightKind uint8

const (
	kindString       lightKind = iota + 1 // a string: a reference, identifier or anchor
	kindSingle                            // a subschema
	kindList                              // an array of subschemas
	kindMap                               // an object of subschemas
	kindItems                             // a subschema or an array of them
	kindDependencies                      // an object of subschemas and arrays of names
)

// lightKeywords are the keywords the cycle analysis reads, by their JSON
// names in jsonschema.Schema; the index is the keyword's bit in an object's
// set of keywords seen. TestEverySubschemaField keeps the list complete.
var lightKeywords = []struct {
	name string
	kind lightKind
}{
	{"$id", kindString}, {"$schema", kindString}, {"$ref", kindString},
	{"$anchor", kindString}, {"$dynamicAnchor", kindString}, {"$dynamicRef", kindString},
	{"allOf", kindList}, {"anyOf", kindList}, {"oneOf", kindList}, {"prefixItems", kindList},
	{"not", kindSingle}, {"if", kindSingle}, {"then", kindSingle}, {"else", kindSingle},
	{"additionalItems", kindSingle}, {"contains", kindSingle}, {"unevaluatedItems", kindSingle},
	{"additionalProperties", kindSingle}, {"propertyNames", kindSingle},
	{"unevaluatedProperties", kindSingle}, {"contentSchema", kindSingle},
	{"properties", kindMap}, {"patternProperties", kindMap}, {"$defs", kindMap},
	{"definitions", kindMap}, {"dependentSchemas", kindMap},
	{"items", kindItems}, {"dependencies", kindDependencies},
}

// lightIndex finds keywords by name, and by their ASCII lower case for the
// keys that differ from them in case only.
var lightIndex, lightFolded = func() (map[string]int, map[string]int) {
	exact, folded := map[string]int{}, map[string]int{}
	for i, kw := range lightKeywords {
		exact[kw.name] = i
		folded[strings.ToLower(kw.name)] = i
	}
	return exact, folded
}()

// keyword returns the index of the keyword an object key sets, as
// encoding/json matches keys to struct fields: exactly, or else
// case-insensitively; -1 for any other key.
func keyword(key []byte) int {
	if i, ok := lightIndex[string(key)]; ok {
		return i
	}
	var buf [32]byte
	if len(key) > len(buf) {
		return -1 // longer than any keyword, even with two-byte letters
	}
	lower, ascii := buf[:len(key)], true
	for i, c := range key {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	if ascii {
		if i, ok := lightFolded[string(lower)]; ok {
			return i
		}
		return -1
	}
	// Unicode folds a few other letters onto ASCII ones (K, the Kelvin
	// sign, onto k; ſ onto s).
	for i, kw := range lightKeywords {
		if strings.EqualFold(string(key), kw.name) {
			return i
		}
	}
	return -1
}

// falseSchema is what jsonschema-go makes of false, and of null where it
// decodes a subschema itself rather than through encoding/json (the root,
// items, a value of dependencies).
func falseSchema() *jsonschema.Schema { return &jsonschema.Schema{Not: &jsonschema.Schema{}} }

// skipSpace moves past white space and returns the next byte, 0 at the
// end.
func (d *lightDecoder) skipSpace() byte {
	for ; d.pos < len(d.data); d.pos++ {
		switch c := d.data[d.pos]; c {
		case ' ', '\t', '\n', '\r':
		default:
			return c
		}
	}
	return 0
}

// literal consumes the literal word (true, false, null).
func (d *lightDecoder) literal(word string) error {
	if len(d.data)-d.pos < len(word) || string(d.data[d.pos:d.pos+len(word)]) != word {
		return errUnsure
	}
	d.pos += len(word)
	return nil
}

// str reads a string and returns its bytes as encoding/json unquotes them.
// The result may alias the input.
func (d *lightDecoder) str() ([]byte, error) {
	if d.skipSpace() != '"' {
		return nil, errUnsure
	}
	start := d.pos
	end, plain, err := d.skipString()
	switch {
	case err != nil:
		return nil, err
	case plain:
		return d.data[start+1 : end-1], nil
	}
	var s string
	if json.Unmarshal(d.data[start:end], &s) != nil {
		return nil, errUnsure
	}
	return []byte(s), nil
}

// skipString moves past the string at d.pos and returns where it ends, and
// whether its bytes are its value: no escapes, nothing but printable ASCII.
func (d *lightDecoder) skipString() (end int, plain bool, err error) {
	plain = true
	for i := d.pos + 1; i < len(d.data); i++ {
		switch c := d.data[i]; {
		case c == '"':
			d.pos = i + 1
			return d.pos, plain, nil
		case c == '\\':
			plain = false
			i++ // the escaped byte; a \u escape's digits need no care
		case c < 0x20 || c >= utf8.RuneSelf:
			plain = false // encoding/json decides about these
		}
	}
	return 0, false, errUnsure
}

// skip moves past one value of any kind.
func (d *lightDecoder) skip() error {
	switch d.skipSpace() {
	case '"':
		_, _, err := d.skipString()
		return err
	case '{', '[':
		for depth := 0; d.pos < len(d.data); {
			switch d.data[d.pos] {
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			case '"':
				if _, _, err := d.skipString(); err != nil {
					return err
				}
				continue
			}
			d.pos++
			if depth == 0 {
				return nil
			}
		}
		return errUnsure
	case 0:
		return errUnsure
	}
	// A number or a literal: up to the next delimiter.
	start := d.pos
	for ; d.pos < len(d.data); d.pos++ {
		switch d.data[d.pos] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			if d.pos == start {
				return errUnsure
			}
			return nil
		}
	}
	return nil
}

// object calls member for each key of an object, positioned at its value.
// A null object calls nothing; anything else is refused.
func (d *lightDecoder) object(member func(key []byte) error) error {
	switch d.skipSpace() {
	case 'n':
		return d.literal("null")
	case '{':
	default:
		return errUnsure
	}
	d.pos++
	if d.skipSpace() == '}' {
		d.pos++
		return nil
	}
	for {
		key, err := d.str()
		if err != nil {
			return err
		}
		if d.skipSpace() != ':' {
			return errUnsure
		}
		d.pos++
		if err := member(key); err != nil {
			return err
		}
		switch d.skipSpace() {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return nil
		default:
			return errUnsure
		}
	}
}

// array calls item for each element of an array, and reports whether the
// value was an array rather than null.
func (d *lightDecoder) array(item func() error) (bool, error) {
	switch d.skipSpace() {
	case 'n':
		return false, d.literal("null")
	case '[':
	default:
		return false, errUnsure
	}
	d.pos++
	if d.skipSpace() == ']' {
		d.pos++
		return true, nil
	}
	for {
		if err := item(); err != nil {
			return true, err
		}
		switch d.skipSpace() {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return true, nil
		default:
			return true, errUnsure
		}
	}
}

// schema decodes a subschema; null decodes as ifNull() (nil where
// encoding/json sets a pointer to nil).
func (d *lightDecoder) schema(ifNull func() *jsonschema.Schema, depth int) (*jsonschema.Schema, error) {
	if depth > MaxNesting {
		return nil, errUnsure
	}
	switch d.skipSpace() {
	case 't':
		return d.node(), d.literal("true")
	case 'f':
		return falseSchema(), d.literal("false")
	case 'n':
		if ifNull == nil {
			return nil, d.literal("null")
		}
		return ifNull(), d.literal("null")
	case '{':
	default:
		return nil, errUnsure // jsonschema-go refuses it
	}
	s := d.node()
	var seen uint32
	err := d.object(func(key []byte) error {
		i := keyword(key)
		if i < 0 {
			return d.skip()
		}
		if seen&(1<<i) != 0 {
			return errUnsure // encoding/json would merge the two
		}
		seen |= 1 << i
		return d.member(s, lightKeywords[i].name, lightKeywords[i].kind, depth)
	})
	return s, err
}

// member decodes the value of one keyword into s.
func (d *lightDecoder) member(s *jsonschema.Schema, name string, kind lightKind, depth int) error {
	switch kind {
	case kindString:
		return d.stringMember(s, name)
	case kindSingle:
		c, err := d.schema(nil, depth+1)
		*singleField(s, name) = c
		return err
	case kindList:
		list, err := d.list(depth)
		*listField(s, name) = list
		return err
	case kindMap:
		m, err := d.schemas(depth)
		*mapField(s, name) = m
		return err
	case kindItems:
		if d.skipSpace() == '[' {
			list, err := d.list(depth)
			s.ItemsArray = list
			return err
		}
		c, err := d.schema(falseSchema, depth+1)
		s.Items = c
		return err
	case kindDependencies:
		keys := map[string]bool{}
		return d.object(func(key []byte) error {
			if keys[string(key)] {
				return errUnsure
			}
			keys[string(key)] = true
			if d.skipSpace() == '[' { // names, not a schema
				return d.skip()
			}
			c, err := d.schema(falseSchema, depth+1)
			if s.DependencySchemas == nil {
				s.DependencySchemas = map[string]*jsonschema.Schema{}
			}
			s.DependencySchemas[string(key)] = c
			return err
		})
	}
	return errUnsure
}

func (d *lightDecoder) stringMember(s *jsonschema.Schema, name string) error {
	if d.skipSpace() == 'n' {
		return d.literal("null") // leaves the field empty
	}
	v, err := d.str()
	if err != nil {
		return err
	}
	switch name {
	case "$id":
		s.ID = string(v)
	case "$schema":
		s.Schema = string(v)
	case "$ref":
		s.Ref = string(v)
	case "$anchor":
		s.Anchor = string(v)
	case "$dynamicAnchor":
		s.DynamicAnchor = string(v)
	case "$dynamicRef":
		s.DynamicRef = string(v)
	}
	return nil
}

// list decodes an array of subschemas (nil for null; a null item is nil).
func (d *lightDecoder) list(depth int) ([]*jsonschema.Schema, error) {
	list := []*jsonschema.Schema{}
	isArray, err := d.array(func() error {
		c, err := d.schema(nil, depth+1)
		list = append(list, c)
		return err
	})
	if !isArray {
		list = nil
	}
	return list, err
}

// schemas decodes an object of subschemas (nil for null; a null value is
// nil).
func (d *lightDecoder) schemas(depth int) (map[string]*jsonschema.Schema, error) {
	m := map[string]*jsonschema.Schema{}
	isObject := d.skipSpace() == '{'
	err := d.object(func(key []byte) error {
		if _, dup := m[string(key)]; dup {
			return errUnsure
		}
		c, err := d.schema(nil, depth+1)
		m[string(key)] = c
		return err
	})
	if !isObject {
		m = nil
	}
	return m, err
}

func singleField(s *jsonschema.Schema, name string) **jsonschema.Schema {
	switch name {
	case "not":
		return &s.Not
	case "if":
		return &s.If
	case "then":
		return &s.Then
	case "else":
		return &s.Else
	case "additionalItems":
		return &s.AdditionalItems
	case "contains":
		return &s.Contains
	case "unevaluatedItems":
		return &s.UnevaluatedItems
	case "additionalProperties":
		return &s.AdditionalProperties
	case "propertyNames":
		return &s.PropertyNames
	case "unevaluatedProperties":
		return &s.UnevaluatedProperties
	}
	return &s.ContentSchema
}

func listField(s *jsonschema.Schema, name string) *[]*jsonschema.Schema {
	switch name {
	case "allOf":
		return &s.AllOf
	case "anyOf":
		return &s.AnyOf
	case "oneOf":
		return &s.OneOf
	}
	return &s.PrefixItems
}

func mapField(s *jsonschema.Schema, name string) *map[string]*jsonschema.Schema {
	switch name {
	case "properties":
		return &s.Properties
	case "patternProperties":
		return &s.PatternProperties
	case "$defs":
		return &s.Defs
	case "definitions":
		return &s.Definitions
	}
	return &s.DependentSchemas
}
