package schema

import (
	"bytes"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
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
// unquoted as encoding/json unquotes them (jsontext's Decoder reads the
// tokens, set to take what encoding/json takes), and null and booleans stand
// for what jsonschema-go makes of them. Where encoding/json would merge (a keyword or
// a map key twice in one object), or where jsonschema-go would refuse the
// schema (a subschema that is a string, say), the light decode gives up with
// errUnsure and Check decodes in full. A schema jsonschema-go refuses has no
// cycle, whatever the light decode makes of it: Check confirms every cycle the
// light decode finds with the full one. TestLightDecodeAsJsonschemaGo and
// FuzzCheck hold the two decodes to this.

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
	d := &lightDecoder{}
	d.dec.Reset(bytes.NewBuffer(raw), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	root, err := d.schema(falseSchema, 0)
	if err != nil && err != errUnsure {
		err = errUnsure // what the decoder refused, Check decodes in full
	}
	return root, d.nodes, err
}

// A lightDecoder reads a schema's tokens with jsontext's Decoder, set to
// take what encoding/json takes (duplicate names, which the decode gives up
// on itself where they matter, and invalid UTF-8).
type lightDecoder struct {
	dec   jsontext.Decoder
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

// peek returns the kind of the next token, 0 at the end or at a fault.
func (d *lightDecoder) peek() jsontext.Kind { return d.dec.PeekKind() }

// literal consumes the next token, a literal (true, false, null) peek
// has seen.
func (d *lightDecoder) literal() error {
	_, err := d.dec.ReadToken()
	return err
}

// str reads a string and returns its bytes as encoding/json unquotes them
// (invalid UTF-8 and lone surrogates made U+FFFD). The result may alias the
// input.
func (d *lightDecoder) str() ([]byte, error) {
	if d.peek() != '"' {
		return nil, errUnsure
	}
	raw, err := d.dec.ReadValue()
	if err != nil {
		return nil, err
	}
	if inner := raw[1 : len(raw)-1]; bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return inner, nil
	}
	// The decoder checked raw: an error here is a U+FFFD made.
	v, _ := jsontext.AppendUnquote(nil, raw)
	return v, nil
}

// skip moves past one value of any kind.
func (d *lightDecoder) skip() error { return d.dec.SkipValue() }

// object calls member for each key of an object, positioned at its value.
// A null object calls nothing; anything else is refused.
// The key is valid until member reads the value.
func (d *lightDecoder) object(member func(key []byte) error) error {
	switch d.peek() {
	case 'n':
		return d.literal()
	case '{':
	default:
		return errUnsure
	}
	if _, err := d.dec.ReadToken(); err != nil {
		return err
	}
	for d.peek() != '}' {
		key, err := d.str()
		if err != nil {
			return err
		}
		if err := member(key); err != nil {
			return err
		}
	}
	_, err := d.dec.ReadToken()
	return err
}

// array calls item for each element of an array, and reports whether the
// value was an array rather than null.
func (d *lightDecoder) array(item func() error) (bool, error) {
	switch d.peek() {
	case 'n':
		return false, d.literal()
	case '[':
	default:
		return false, errUnsure
	}
	if _, err := d.dec.ReadToken(); err != nil {
		return true, err
	}
	for d.peek() != ']' {
		if err := item(); err != nil {
			return true, err
		}
	}
	_, err := d.dec.ReadToken()
	return true, err
}

// schema decodes a subschema; null decodes as ifNull() (nil where
// encoding/json sets a pointer to nil).
func (d *lightDecoder) schema(ifNull func() *jsonschema.Schema, depth int) (*jsonschema.Schema, error) {
	if depth > MaxNesting {
		return nil, errUnsure
	}
	switch d.peek() {
	case 't':
		return d.node(), d.literal()
	case 'f':
		return falseSchema(), d.literal()
	case 'n':
		if ifNull == nil {
			return nil, d.literal()
		}
		return ifNull(), d.literal()
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
		if d.peek() == '[' {
			list, err := d.list(depth)
			s.ItemsArray = list
			return err
		}
		c, err := d.schema(falseSchema, depth+1)
		s.Items = c
		return err
	case kindDependencies:
		keys := map[string]bool{}
		return d.object(func(rawKey []byte) error {
			key := string(rawKey)
			if keys[key] {
				return errUnsure
			}
			keys[key] = true
			if d.peek() == '[' { // names, not a schema
				return d.skip()
			}
			c, err := d.schema(falseSchema, depth+1)
			if s.DependencySchemas == nil {
				s.DependencySchemas = map[string]*jsonschema.Schema{}
			}
			s.DependencySchemas[key] = c
			return err
		})
	}
	return errUnsure
}

func (d *lightDecoder) stringMember(s *jsonschema.Schema, name string) error {
	if d.peek() == 'n' {
		return d.literal() // leaves the field empty
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
	isObject := d.peek() == '{'
	err := d.object(func(rawKey []byte) error {
		key := string(rawKey)
		if _, dup := m[key]; dup {
			return errUnsure
		}
		c, err := d.schema(nil, depth+1)
		m[key] = c
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
