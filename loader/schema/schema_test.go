package schema

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// Schemas that apply themselves to the same input without end overflowed
// the validator's stack, a fatal error for the whole process.
func TestResolveRefusesCycles(t *testing.T) {
	tests := []struct {
		name, schema string
		path         string // the cycle, as CycleError prints it
	}{
		{"self", `{"$ref":"#"}`, "# → #"},
		{"allOf", `{"type":"object","allOf":[{"$ref":"#"}]}`, "# → #/allOf/0 → #"},
		{"two-step $defs", `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`, "#/$defs/a → #/$defs/b → #/$defs/a"},
		{"anyOf", `{"anyOf":[{"type":"string"},{"$ref":"#"}]}`, "# → #/anyOf/1 → #"},
		{"oneOf", `{"oneOf":[{"$ref":"#"}]}`, "# → #/oneOf/0 → #"},
		{"not", `{"not":{"$ref":"#"}}`, "# → #/not → #"},
		{"then", `{"if":{"type":"string"},"then":{"$ref":"#"}}`, "# → #/then → #"},
		{"dependentSchemas", `{"dependentSchemas":{"x":{"$ref":"#"}}}`, "# → #/dependentSchemas/x → #"},
		{"draft-07 dependencies", `{"$schema":"http://json-schema.org/draft-07/schema#","dependencies":{"x":{"$ref":"#"}}}`, "# → #/dependencies/x → #"},
		{"behind a property", `{"properties":{"p":{"$ref":"#/definitions/x"}},"definitions":{"x":{"not":{"$ref":"#/definitions/x"}}}}`, "#/definitions/x → #/definitions/x/not → #/definitions/x"},
		{"anchor", `{"$defs":{"a":{"$anchor":"loop","if":{"$ref":"#loop"}}},"$ref":"#loop"}`, "#/$defs/a → #/$defs/a/if → #/$defs/a"},
		{"draft-07 anchor", `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"a":{"$id":"#loop","allOf":[{"$ref":"#loop"}]}},"allOf":[{"$ref":"#loop"}]}`, "#/definitions/a → #/definitions/a/allOf/0 → #/definitions/a"},
		{"dynamic", `{"$dynamicAnchor":"node","oneOf":[{"$dynamicRef":"#node"}]}`, "# → #/oneOf/0 → #"},
		{"escaped pointer", `{"$defs":{"a/b c":{"$ref":"#/$defs/a~1b%20c"}},"$ref":"#/$defs/a~1b%20c"}`, "#/$defs/a~1b c → #/$defs/a~1b c"},
		{"escaped key", `{"\u0024ref":"#"}`, "# → #"},
		{"root $id", `{"$id":"https://example.com/s.json","allOf":[{"$ref":"https://example.com/s.json"}]}`, "# → #/allOf/0 → #"},
		// encoding/json matches keys to fields whatever their case, and
		// merges a keyword given twice: so does jsonschema-go.
		{"capitals", `{"$REF":"#"}`, "# → #"},
		{"an escaped capital", `{"$r\u0045f":"#"}`, "# → #"},
		{"a keyword in capitals", `{"ALLOF":[{"$Ref":"#"}]}`, "# → #/allOf/0 → #"},
		{"a keyword twice", `{"allOf":[{"$ref":"#"}],"allOf":[{}]}`, "# → #/allOf/0 → #"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Resolve(json.RawMessage(tt.schema))
			var ce *CycleError
			if !errors.As(err, &ce) {
				t.Fatalf("Resolve: %v, want a cycle", err)
			}
			if !strings.Contains(ce.Error(), "("+tt.path+")") {
				t.Errorf("error %q does not show the cycle %s", ce, tt.path)
			}
			if err := Check(json.RawMessage(tt.schema)); !errors.As(err, &ce) {
				t.Errorf("Check: %v, want a cycle", err)
			}
		})
	}
}

// Recursion that consumes input is how trees are described; it is checked.
func TestRecursiveSchemas(t *testing.T) {
	tree := `{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}}},"required":["name"]}`
	tests := []struct {
		name, schema, instance string
		valid                  bool
	}{
		{"tree", tree, `{"name":"a","children":[{"name":"b","children":[{"name":"c"}]}]}`, true},
		{"tree, a name missing deep down", tree, `{"name":"a","children":[{"name":"b","children":[{}]}]}`, false},
		{"pointer into properties", `{"type":"object","properties":{"data":{"type":"object","properties":{"kids":{"type":"array","items":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/properties/data/properties/kids/items"}}}}}}}}}`,
			`{"data":{"kids":[{"kids":[{"kids":[{"kids":"no"}]}]}]}}`, false},
		{"$defs", `{"$defs":{"n":{"type":"integer"}},"properties":{"x":{"$ref":"#/$defs/n"}}}`, `{"x":1}`, true},
		{"$defs, wrong type", `{"$defs":{"n":{"type":"integer"}},"properties":{"x":{"$ref":"#/$defs/n"}}}`, `{"x":"1"}`, false},
		{"draft-07 definitions", `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"n":{"type":"integer"}},"properties":{"x":{"$ref":"#/definitions/n"}}}`, `{"x":1.5}`, false},
		{"anchor", `{"$defs":{"n":{"$anchor":"num","type":"number"}},"properties":{"x":{"$ref":"#num"}}}`, `{"x":2}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := Resolve(json.RawMessage(tt.schema))
			if err != nil {
				t.Fatal(err)
			}
			if err := Check(json.RawMessage(tt.schema)); err != nil {
				t.Errorf("Check: %v", err)
			}
			err = rs.Validate(decode(t, tt.instance))
			if errors.Is(err, ErrUnchecked) {
				t.Fatalf("not checked: %v", err)
			}
			if valid := err == nil; valid != tt.valid {
				t.Errorf("valid = %v (%v), want %v", valid, err, tt.valid)
			}
		})
	}
}

// Whatever the schema and the arguments, one validation stays within its
// bounds: work that would exceed them is not done.
func TestValidateBounds(t *testing.T) {
	nest := func(open, close string, n int, inner string) string {
		return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
	}
	big := `"` + strings.Repeat("x", 1<<20) + `"`
	tests := []struct {
		name, schema, instance string
	}{
		// Three branches that each recurse on the items: 3^depth steps.
		{"exponential", `{"anyOf":[{"items":{"$ref":"#"}},{"items":{"$ref":"#"}},{"items":{"$ref":"#"}}]}`, nest("[", "]", 30, "1")},
		{"deep arguments", `{"items":{"$ref":"#"}}`, nest("[", "]", 1000, "1")},
		{"a long chain of references", chain(MaxDepth + 10), `{}`},
		{"wide arguments", `{"type":"object","additionalProperties":{"type":"string"}}`, wide(MaxSteps + 1)},
		// Every item compared with every enum value: 2·10⁸ comparisons
		// in 20,000 steps.
		{"a large enum on many items", `{"items":{"enum":[` + seq(10_000) + `]}}`, "[" + strings.Repeat("9999,", 19_999) + "9999]"},
		{"counting the properties of a large object again and again", `{"allOf":[` + strings.TrimSuffix(strings.Repeat(`{"minProperties":1},`, 100), ",") + `]}`, wide(MaxSteps / 50)},
		{"printing a large value again and again", `{"items":{"enum":[1]},"contains":{"type":"string"}}`, "[" + strings.Repeat(big+",", 40) + big + "]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := Resolve(json.RawMessage(tt.schema))
			if err != nil {
				t.Fatal(err)
			}
			if err := rs.Validate(decode(t, tt.instance)); !errors.Is(err, ErrUnchecked) {
				t.Errorf("Validate: %v, want ErrUnchecked", err)
			}
		})
	}
}

// seq returns the numbers 0 to n-1, comma-separated.
func seq(n int) string {
	nums := make([]string, n)
	for i := range nums {
		nums[i] = strconv.Itoa(i)
	}
	return strings.Join(nums, ",")
}

// chain returns a schema whose root refers through n definitions, each to
// the next.
func chain(n int) string {
	var b strings.Builder
	b.WriteString(`{"$ref":"#/$defs/d0","$defs":{`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		if i == n-1 {
			b.WriteString(`"d` + strconv.Itoa(i) + `":{"type":"object"}`)
		} else {
			b.WriteString(`"d` + strconv.Itoa(i) + `":{"$ref":"#/$defs/d` + strconv.Itoa(i+1) + `"}`)
		}
	}
	b.WriteString("}}")
	return b.String()
}

func wide(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":"v"`)
	}
	b.WriteString("}")
	return b.String()
}

// Schemas this package does not analyze are not checked, never refused.
func TestUnchecked(t *testing.T) {
	for name, s := range map[string]string{
		"another document":             `{"properties":{"a":{"$ref":"other.json#/x"}}}`,
		"draft-04":                     `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object"}`,
		"an $id inside":                `{"$defs":{"a":{"$id":"https://example.com/a","type":"string"}}}`,
		"nested deeper than the bound": strings.Repeat(`{"items":`, MaxNesting) + "{}" + strings.Repeat("}", MaxNesting),
		"larger than the bound":        `{"description":"` + strings.Repeat("x", MaxSchemaBytes) + `"}`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Resolve(json.RawMessage(s)); !errors.Is(err, ErrUnchecked) {
				t.Errorf("Resolve: %v, want ErrUnchecked", err)
			}
			if err := Check(json.RawMessage(s)); err != nil {
				t.Errorf("Check: %v, want nil", err)
			}
		})
	}
}

// A tool without an input schema takes any object: the protocol's reading,
// where a null schema decoded as "false" refused every call.
func TestMissingSchema(t *testing.T) {
	for _, s := range []any{nil, json.RawMessage(nil), json.RawMessage(" null "), []byte("")} {
		if !Missing(s) {
			t.Errorf("Missing(%#v) = false", s)
		}
		if got, _ := json.Marshal(OrDefault(s)); string(got) != `{"type":"object"}` {
			t.Errorf("OrDefault(%#v) = %s", s, got)
		}
		rs, err := Resolve(s)
		if err != nil {
			t.Fatalf("Resolve(%#v): %v", s, err)
		}
		if err := rs.Validate(map[string]any{"any": "thing"}); err != nil {
			t.Errorf("Validate: %v", err)
		}
		if err := rs.Validate("not an object"); err == nil {
			t.Error("a string validated against the default schema")
		}
	}
	if Missing(json.RawMessage(`{}`)) || Missing(map[string]any{}) {
		t.Error("an empty schema is not a missing one")
	}
}

// Messages go to the model with the schema: a long one is cut.
func TestValidationMessageIsCut(t *testing.T) {
	rs, err := Resolve(json.RawMessage(`{"properties":{"a":{"type":"integer"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	err = rs.Validate(map[string]any{"a": strings.Repeat("é", 10_000)})
	var ve *ValidationError
	if !errors.As(err, &ve) || len(err.Error()) > maxMessage+40 || !strings.Contains(err.Error(), "more bytes)") {
		t.Errorf("error of %d bytes: %.100v", len(err.Error()), err)
	}
}

// children must know every field of jsonschema.Schema that holds
// subschemas; a field it missed would be a path the cycle check never sees.
func TestEverySubschemaField(t *testing.T) {
	typ := reflect.TypeFor[jsonschema.Schema]()
	schemaPtr := reflect.TypeFor[*jsonschema.Schema]()
	var s jsonschema.Schema
	v := reflect.ValueOf(&s).Elem()
	var want []*jsonschema.Schema
	for i := range typ.NumField() {
		f := v.Field(i)
		sub := &jsonschema.Schema{Title: typ.Field(i).Name}
		switch f.Type() {
		case schemaPtr:
			f.Set(reflect.ValueOf(sub))
		case reflect.SliceOf(schemaPtr):
			f.Set(reflect.ValueOf([]*jsonschema.Schema{sub}))
		case reflect.MapOf(reflect.TypeFor[string](), schemaPtr):
			f.Set(reflect.ValueOf(map[string]*jsonschema.Schema{"k": sub}))
		default:
			continue
		}
		want = append(want, sub)
	}
	var got []*jsonschema.Schema
	for _, c := range children(&s) {
		got = append(got, c.s)
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("children misses the field %s", w.Title)
		}
	}
	kws := slices.Concat(inPlaceKeywords, partKeywords, unusedKeywords)
	for _, c := range children(&s) {
		if !slices.Contains(kws, c.keyword) {
			t.Errorf("keyword %s is in no list", c.keyword)
		}
		if c.inPlace != slices.Contains(inPlaceKeywords, c.keyword) {
			t.Errorf("keyword %s: inPlace = %v", c.keyword, c.inPlace)
		}
	}
}

// The references this package follows are the ones the validator follows.
// jsonschema-go keeps its resolution to itself; the test reads it.
func TestReferencesAsTheValidatorResolvesThem(t *testing.T) {
	for name, raw := range corpus(t) {
		t.Run(name, func(t *testing.T) { sameReferences(t, raw) })
	}
}

// sameReferences checks, for a schema both resolve, that every reference
// leads where jsonschema-go's does.
func sameReferences(t *testing.T, raw []byte) {
	t.Helper()
	r, err := Resolve(json.RawMessage(raw))
	if err != nil {
		return
	}
	lib := libraryTargets(r.rs)
	for s, tg := range r.g.refs {
		if s.Ref != "" && lib[s].ref != tg.ref {
			t.Errorf("$ref %q at #%s: here %s, jsonschema-go %s", s.Ref, r.g.paths[s], r.g.paths[tg.ref], r.g.paths[lib[s].ref])
		}
		if s.DynamicRef != "" && lib[s].dynamic != tg.dynamic {
			t.Errorf("$dynamicRef %q at #%s: here %s, jsonschema-go %s", s.DynamicRef, r.g.paths[s], r.g.paths[tg.dynamic], r.g.paths[lib[s].dynamic])
		}
	}
	for s, tg := range lib {
		if _, ok := r.g.refs[s]; !ok && (tg.ref != nil || tg.dynamic != nil) {
			t.Errorf("jsonschema-go follows a reference at #%s that was not seen here", r.g.paths[s])
		}
	}
}

// libraryTargets reads the references jsonschema-go resolved, from its
// unexported fields: resolvedInfos[s].resolvedRef, .resolvedDynamicRef, and
// for a dynamic anchor, the anchor in the root's scope (the only one in a
// document without inner $ids).
func libraryTargets(rs *jsonschema.Resolved) map[*jsonschema.Schema]refTargets {
	infos := reflect.ValueOf(rs).Elem().FieldByName("resolvedInfos")
	ptr := func(v reflect.Value) *jsonschema.Schema {
		if !v.IsValid() || v.IsNil() {
			return nil
		}
		return (*jsonschema.Schema)(v.UnsafePointer())
	}
	var rootAnchors reflect.Value
	out := map[*jsonschema.Schema]refTargets{}
	it := infos.MapRange()
	for it.Next() {
		s, info := ptr(it.Key()), it.Value().Elem()
		if s == rs.Schema() {
			rootAnchors = info.FieldByName("anchors")
		}
		out[s] = refTargets{ref: ptr(info.FieldByName("resolvedRef")), dynamic: ptr(info.FieldByName("resolvedDynamicRef"))}
	}
	it = infos.MapRange()
	for it.Next() {
		s, info := ptr(it.Key()), it.Value().Elem()
		if a := info.FieldByName("dynamicRefAnchor").String(); a != "" && rootAnchors.IsValid() {
			if ai := rootAnchors.MapIndex(reflect.ValueOf(a)); ai.IsValid() {
				tg := out[s]
				tg.dynamic = ptr(ai.FieldByName("schema"))
				out[s] = tg
			}
		}
	}
	return out
}

// corpus returns the seed schemas: real ones from the example servers,
// server-everything and a catalog of real MCP tools, and hostile ones.
func corpus(t testing.TB) map[string][]byte {
	files, err := filepath.Glob("testdata/schemas/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no seed schemas: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = data
	}
	return out
}

func decode(t testing.TB, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestMayRefer(t *testing.T) {
	for raw, want := range map[string]bool{
		`{"type":"object","properties":{"ref":{"type":"string"}}}`:          false,
		`{"description":"a \u003cb\u003e tag \u0026 more","type":"object"}`: false,
		`{"$ref":"#"}`:           true,
		`{"$dynamicRef":"#x"}`:   true,
		`{"\u0024ref":"#"}`:      true,
		`{"$re\u0066":"#"}`:      true,
		`{"$dynamic\u0052ef":1}`: true,
		`{"$REF":"#"}`:           true,
		`{"$r\u0045f":"#"}`:      true,
		`{"$DynamicRef":"#a"}`:   true,
		`{"$refs":"#"}`:          false,
		`{"a":"\u00`:             false,
	} {
		if got := mayRefer([]byte(raw)); got != want {
			t.Errorf("mayRefer(%s) = %v", raw, got)
		}
	}
}
