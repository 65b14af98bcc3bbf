package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// maxSignatureParams bounds a signature's length; required parameters are
// always shown, whatever their number.
const maxSignatureParams = 10

// Signature renders a tool as one line, name(param: type, optional?: type),
// from its JSON input schema: enough for a model to call it, at a fraction
// of the schema's tokens. Required parameters come first and are never
// dropped.
func Signature(name string, inputSchema any) string {
	raw, err := json.Marshal(inputSchema)
	if err != nil {
		return name + "(…)"
	}
	var schema struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	_ = json.Unmarshal(raw, &schema)
	order := propertyOrder(raw)

	var required, optional []string
	for _, p := range order {
		param := p + ": " + typeOf(schema.Properties[p], 0)
		if slices.Contains(schema.Required, p) {
			required = append(required, param)
		} else {
			optional = append(optional, strings.Replace(param, ":", "?:", 1))
		}
	}
	return joinParams(name, required, optional)
}

// joinParams renders name(required, optional): every required parameter,
// and optional ones while the signature holds fewer than
// maxSignatureParams, the rest counted.
func joinParams(name string, required, optional []string) string {
	params := required
	room := max(0, maxSignatureParams-len(required))
	if len(optional) > room {
		params = append(params, optional[:room]...)
		params = append(params, fmt.Sprintf("…%d more optional", len(optional)-room))
	} else {
		params = append(params, optional...)
	}
	return name + "(" + strings.Join(params, ", ") + ")"
}

// typeOf renders a property schema as a short type: string, integer[],
// "a"|"b", object, or a union.
func typeOf(raw json.RawMessage, depth int) string {
	var s struct {
		Type  any               `json:"type"`
		Enum  []any             `json:"enum"`
		Const any               `json:"const"`
		Items json.RawMessage   `json:"items"`
		AnyOf []json.RawMessage `json:"anyOf"`
		OneOf []json.RawMessage `json:"oneOf"`
		Ref   string            `json:"$ref"`
	}
	if json.Unmarshal(raw, &s) != nil {
		return "any"
	}
	if len(s.Enum) > 0 && len(s.Enum) <= 6 {
		vals := make([]string, len(s.Enum))
		for i, v := range s.Enum {
			b, _ := json.Marshal(v)
			vals[i] = string(b)
		}
		return strings.Join(vals, "|")
	}
	if s.Const != nil {
		b, _ := json.Marshal(s.Const)
		return string(b)
	}
	if alts := append(s.AnyOf, s.OneOf...); len(alts) > 0 && depth < 2 {
		var types []string
		for _, a := range alts {
			if t := typeOf(a, depth+1); !slices.Contains(types, t) {
				types = append(types, t)
			}
		}
		return strings.Join(types, "|")
	}
	var types []string
	switch t := s.Type.(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			if str, ok := x.(string); ok {
				types = append(types, str)
			}
		}
	}
	if len(types) == 0 {
		if s.Ref != "" {
			return s.Ref[strings.LastIndexByte(s.Ref, '/')+1:]
		}
		return "any"
	}
	for i, t := range types {
		if t == "array" {
			item := "any"
			if s.Items != nil && depth < 2 {
				item = typeOf(s.Items, depth+1)
			}
			if strings.Contains(item, "|") {
				item = "(" + item + ")"
			}
			types[i] = item + "[]"
		}
	}
	return strings.Join(types, "|")
}

// propertyOrder returns the keys of the schema's "properties" object in the
// order written, which authors usually choose with care. Maps lose it.
func propertyOrder(raw []byte) []string {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil || top["properties"] == nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(top["properties"]))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys
		}
		key, _ := t.(string)
		keys = append(keys, key)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
	}
	return keys
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
