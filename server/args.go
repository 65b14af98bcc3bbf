package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/toolsearch/toolsearch/loader/schema"
)

// decodeArgs reads a meta-tool's arguments into v (a pointer to a struct)
// strictly, and reports every problem at once: each unknown argument and
// each argument of the wrong type, by name and with the type wanted,
// never in the decoder's Go terms.
func decodeArgs(raw json.RawMessage, v any, accepted string) error {
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return fmt.Errorf("invalid arguments: they must be a JSON object, got %s (accepted: %s)", jsonKind(raw), accepted)
	}
	target := reflect.ValueOf(v).Elem()
	known := jsonFields(target.Type())
	var probs []string
	unknown := 0
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		index, ok := known[name]
		if !ok {
			if unknown++; unknown <= maxListed {
				probs = append(probs, "unknown argument "+quoteName(name))
			}
			continue
		}
		field := target.FieldByIndex(index)
		if err := json.Unmarshal(fields[name], field.Addr().Interface()); err != nil {
			probs = append(probs, fmt.Sprintf("%s must be %s, got %s", name, jsonTypeOf(field.Type()), jsonKind(fields[name])))
		}
	}
	if unknown > maxListed {
		probs = append(probs, fmt.Sprintf("%d more unknown arguments", unknown-maxListed))
	}
	if len(probs) > 0 {
		return fmt.Errorf("invalid arguments: %s (accepted: %s)", strings.Join(probs, "; "), accepted)
	}
	return nil
}

// jsonFields maps the JSON names of a struct's fields to their indexes.
func jsonFields(t reflect.Type) map[string][]int {
	out := map[string][]int{}
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || f.Anonymous {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		out[name] = f.Index
	}
	return out
}

// jsonTypeOf names what JSON a Go type takes, for messages.
func jsonTypeOf(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array of " + strings.TrimPrefix(strings.TrimPrefix(jsonTypeOf(t.Elem()), "a "), "an ") + "s"
	}
	return "an object"
}

// jsonKind names the kind of a JSON value for messages.
func jsonKind(raw json.RawMessage) string {
	s := strings.TrimSpace(string(raw))
	if s == "" {
		return "nothing"
	}
	switch s[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// argumentProblems checks a tool call's arguments against the tool's
// resolved input schema and lists every problem: missing required
// arguments, unexpected ones (the schema forbids them, or they come with
// other problems, typos usually), and each argument whose type, enum or
// bounds its property rules out. When none of these explains it, the whole
// check (bounded by loader/schema) gives its own message; its error is
// returned when the arguments could not be checked (schema.ErrUnchecked).
func argumentProblems(rs *schema.Resolved, args map[string]any) ([]string, error) {
	root := rs.Schema()
	var probs []string
	for _, name := range root.Required {
		if _, ok := args[name]; !ok {
			probs = append(probs, fmt.Sprintf("missing required argument %q", name))
		}
	}
	var unexpected []string
	for _, name := range slices.Sorted(maps.Keys(args)) {
		prop, declared := root.Properties[name]
		if !declared {
			if len(root.Properties) > 0 && root.PatternProperties == nil {
				unexpected = append(unexpected, name)
			}
			continue
		}
		if err := validateValue(prop, args[name]); err != nil {
			probs = append(probs, fmt.Sprintf("argument %q: %s", name, err))
		}
	}
	forbidden := root.AdditionalProperties != nil && root.AdditionalProperties.Not != nil
	if len(unexpected) > 0 && (forbidden || len(probs) > 0) {
		for i, name := range unexpected {
			if i == maxListed {
				probs = append(probs, fmt.Sprintf("%d more unexpected arguments", len(unexpected)-i))
				break
			}
			probs = append(probs, "unexpected argument "+quoteName(name)+": the schema has no such property")
		}
	}
	if len(probs) > 0 {
		return probs, nil
	}
	err := rs.Validate(args)
	var ve *schema.ValidationError
	if errors.As(err, &ve) {
		return []string{ve.Error()}, nil
	}
	return nil, err
}

// validateValue checks one argument against its property's schema, saying
// what was wanted in plain words for the common cases (type, enum, bounds)
// and in the validator's words otherwise.
func validateValue(prop *jsonschema.Schema, v any) error {
	got := jsonValueKind(v)
	if want := prop.Types; prop.Type != "" || len(want) > 0 {
		if prop.Type != "" {
			want = []string{prop.Type}
		}
		if !slices.ContainsFunc(want, func(w string) bool { return w == got || w == "number" && got == "integer" }) {
			words := make([]string, len(want))
			for i, w := range want {
				words[i] = map[string]string{"string": "a string", "integer": "an integer", "number": "a number", "boolean": "true or false",
					"array": "an array", "object": "an object", "null": "null"}[w]
			}
			return fmt.Errorf("must be %s, got %s", strings.Join(words, " or "), describeValue(v))
		}
	}
	if len(prop.Enum) > 0 && !slices.ContainsFunc(prop.Enum, func(e any) bool { return jsonEqual(e, v) }) {
		options := make([]string, len(prop.Enum))
		for i, e := range prop.Enum {
			data, _ := json.Marshal(e)
			options[i] = string(data)
		}
		return fmt.Errorf("must be one of %s, got %s", strings.Join(options, ", "), describeValue(v))
	}
	if n, ok := v.(float64); ok {
		switch {
		case prop.Minimum != nil && n < *prop.Minimum:
			return fmt.Errorf("must be at least %v, got %v", *prop.Minimum, n)
		case prop.Maximum != nil && n > *prop.Maximum:
			return fmt.Errorf("must be at most %v, got %v", *prop.Maximum, n)
		}
	}
	return nil // anything else, the whole-schema check judges
}

// jsonValueKind is the JSON Schema type of a decoded JSON value.
func jsonValueKind(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case float64:
		if v == float64(int64(v)) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	}
	return "object"
}

// describeValue shows a short value with its kind ("the number 3"), a
// long one by its kind alone.
func describeValue(v any) string {
	data, _ := json.Marshal(v)
	kind := jsonValueKind(v)
	if kind == "integer" {
		kind = "number"
	}
	switch {
	case kind == "object" || kind == "array":
		return "an " + kind
	case len(data) > 40: // a string: no number is that long
		return "a " + kind
	}
	return fmt.Sprintf("the %s %s", kind, data)
}

func jsonEqual(a, b any) bool {
	da, _ := json.Marshal(a)
	db, _ := json.Marshal(b)
	return string(da) == string(db)
}
