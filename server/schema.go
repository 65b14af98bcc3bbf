package server

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Each meta-tool's input schema is derived from the Go type its arguments
// are decoded into: property names and types from the fields, which ones
// are required from their omitempty, descriptions from their `jsonschema`
// tags. What a Go type cannot say (bounds, enums, defaults) is added by
// the tool, and the help text an invalid call gets is read off the result:
// nothing about the arguments is written twice.

// schemaTypes are the schemas of field types whose inferred schema says
// more than the meta-tools accept: a list that is absent is left out
// rather than sent as null, and call_tool's arguments are an object.
var schemaTypes = map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[[]string]():        {Type: "array", Items: &jsonschema.Schema{Type: "string"}},
	reflect.TypeFor[json.RawMessage](): {Type: "object"},
}

// inputSchema derives the input schema of a meta-tool from T, then lets
// constrain add what the type cannot say, property by property.
func inputSchema[T any](constrain func(props map[string]*jsonschema.Schema)) *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: schemaTypes})
	if err != nil {
		panic(err) // a programming error in T, which every test that lists the tools catches
	}
	if constrain != nil {
		constrain(s.Properties)
	}
	return s
}

// wireKeys is the order of keywords in every object of a meta-tool's schema
// on the wire: what a value is, its bounds and default, then what it
// means. jsonschema-go writes them in its own order; keeping the one
// toolsearch has always sent keeps tools/list byte for byte what hosts
// have cached (a changed tool list costs them their prompt cache) and what
// the published token counts measured. Other keys, property names among
// them, keep their order after these.
var wireKeys = []string{"type", "items", "properties", "enum", "default", "description", "required"}

// checkedOnArrival are the keywords a meta-tool's schema keeps off the wire:
// bounds and the refusal of other properties. Every session pays for the
// schemas up front, a model that keeps within them gains nothing from
// reading them, and the arguments are checked against the whole schema
// when they arrive, the refusal naming the bounds (acceptedArgs).
var checkedOnArrival = []string{"minimum", "maximum", "exclusiveMinimum", "maxLength", "maxItems", "additionalProperties"}

// wireSchema renders a schema as it goes on the wire: compact JSON with
// keywords in wireKeys order, less those checkedOnArrival.
func wireSchema(s *jsonschema.Schema) json.RawMessage {
	data, err := json.Marshal(s)
	if err != nil {
		panic(err) // a programming error, as in inputSchema
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var buf bytes.Buffer
	if err := writeOrdered(dec, &buf, false); err != nil {
		panic(err) // json.Marshal wrote it: it parses
	}
	return buf.Bytes()
}

// writeOrdered copies the next JSON value from dec to buf, with each
// schema object's keys in wireKeys order and without those checkedOnArrival.
// names says the value is an object of properties, whose keys are names.
func writeOrdered(dec *json.Decoder, buf *bytes.Buffer, names bool) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		v, err := json.Marshal(tok)
		buf.Write(v)
		return err
	}
	type member struct {
		key string
		val []byte
	}
	var members []member
	for dec.More() {
		var key string
		if delim == '{' {
			k, err := dec.Token()
			if err != nil {
				return err
			}
			key = k.(string)
		}
		var val bytes.Buffer
		if err := writeOrdered(dec, &val, delim == '{' && !names && key == "properties"); err != nil {
			return err
		}
		if delim == '{' && !names && slices.Contains(checkedOnArrival, key) {
			continue
		}
		members = append(members, member{key, val.Bytes()})
	}
	if _, err := dec.Token(); err != nil { // the closing delimiter
		return err
	}
	rank := func(key string) int {
		if i := slices.Index(wireKeys, key); i >= 0 {
			return i
		}
		return len(wireKeys)
	}
	if delim == '{' && !names {
		slices.SortStableFunc(members, func(a, b member) int { return cmp.Compare(rank(a.key), rank(b.key)) })
	}
	open, end := byte('['), byte(']')
	if delim == '{' {
		open, end = '{', '}'
	}
	buf.WriteByte(open)
	for i, m := range members {
		if i > 0 {
			buf.WriteByte(',')
		}
		if delim == '{' {
			k, _ := json.Marshal(m.key)
			buf.Write(k)
			buf.WriteByte(':')
		}
		buf.Write(m.val)
	}
	buf.WriteByte(end)
	return nil
}

// acceptedArgs describes what a schema accepts in one line, for an invalid
// call's error: each property with its type or values and bounds, and
// whether it is required.
func acceptedArgs(s *jsonschema.Schema) string {
	var props []string
	for _, name := range s.PropertyOrder {
		p := s.Properties[name]
		parts := []string{valuesOf(p)}
		if p.Minimum != nil && p.Maximum != nil {
			parts = append(parts, number(*p.Minimum)+"-"+number(*p.Maximum))
		} else if p.Minimum != nil {
			parts = append(parts, "at least "+number(*p.Minimum))
		}
		if p.ExclusiveMinimum != nil {
			parts = append(parts, "more than "+number(*p.ExclusiveMinimum))
		}
		if p.MaxLength != nil {
			parts = append(parts, fmt.Sprintf("at most %d characters", *p.MaxLength))
		}
		if p.MaxItems != nil {
			parts = append(parts, fmt.Sprintf("at most %d", *p.MaxItems))
		}
		for _, r := range s.Required {
			if r == name {
				parts = append(parts, "required")
			}
		}
		props = append(props, fmt.Sprintf("%s (%s)", name, strings.Join(parts, ", ")))
	}
	return strings.Join(props, ", ")
}

// valuesOf names what a property takes: its values when it has an enum, its
// type otherwise.
func valuesOf(p *jsonschema.Schema) string {
	if len(p.Enum) > 0 {
		values := make([]string, len(p.Enum))
		for i, v := range p.Enum {
			values[i] = fmt.Sprintf("%q", v)
		}
		return orList(values)
	}
	if p.Type == "array" && p.Items != nil && p.Items.Type != "" {
		return "array of " + p.Items.Type + "s"
	}
	return p.Type
}

// orList joins words as a sentence does: "a", "a or b", "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

func number(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// enum is the enum keyword of a list of strings.
func enum(values []string) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}

// jsonString is a string as a JSON value, for a default.
func jsonString(v string) json.RawMessage {
	data, _ := json.Marshal(v)
	return data
}
