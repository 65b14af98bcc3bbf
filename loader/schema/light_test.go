package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// lightEdges are schemas where encoding/json and jsonschema-go have their
// own readings: null, booleans, case, escapes, repeated keys, values of the
// wrong kind. Each seeds FuzzCheck too.
var lightEdges = []string{
	`{"items":null,"$ref":"#/items"}`,
	`{"dependencies":{"a":null,"b":["c"],"c":true},"$ref":"#/dependencies/a"}`,
	`{"allOf":[null,true,false,{"$ref":"#/allOf/1"}],"anyOf":[],"oneOf":null}`,
	`{"properties":{"a":null,"b":false},"patternProperties":{},"$defs":null}`,
	`{"not":null,"if":true,"then":false,"else":{"$ref":null}}`,
	`{"$REF":"#"}`,
	`{"$r\u0045f":"#"}`,
	`{"ALLOF":[{"$Ref":"#/allOf/0"}]}`,
	`{"$defſ":{"a":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`,
	`{"\u0061llOf":[{"$ref":"#"}],"prop\u00e9rties":{}}`,
	`{"allOf":[{"$ref":"#"}],"allOf":[{}]}`,
	`{"allOf":[{"$ref":"#"}],"AllOf":[{}]}`,
	`{"not":{"$ref":"#"},"not":{"type":"string"}}`,
	`{"properties":{"a":{"$ref":"#"},"a":{}}}`,
	`{"$ref":"#/$defs/x","$defs":{"x":{"not":{"$ref":"#/$defs/x"}}},"title":5}`,
	`{"$ref":"#","allOf":"x"}`,
	`{"$ref":"#","items":[{"$ref":"#/items/0"}]}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/a","definitions":{"a":{"$id":"#a","allOf":[{"$ref":"#a"}]}}}`,
	`{"$id":"https://example.com/s","$defs":{"a":{"$anchor":"x","not":{"$ref":"https://example.com/s#x"}}},"$ref":"#x"}`,
	`{"description":"caf\u00e9 \"quoted\" \\ [{","$ref":"#/$defs/a","$defs":{"a":{"type":"string","default":{"$ref":"#"}}}}`,
	`{"enum":[1e999,-0.5e-3,true,null,"x",[{}]],"$ref":"#/$defs/a","$defs":{"a":{}}}`,
	`{"$ref":"#"} trailing`,
	`{"$ref":"#"`,
	`[{"$ref":"#"}]`,
	`true`,
	`null`,
}

// TestLightDecodeAsJsonschemaGo holds the light decode to jsonschema-go's
// on the seed corpus and the edge cases: wherever jsonschema-go decodes a
// schema, the light decode builds the same tree of the keywords it reads,
// or gives up, and Check finds the cycles the full analysis finds. The real
// schemas (all but the hostile ones) are read without giving up, so that
// Check never decodes them in full.
func TestLightDecodeAsJsonschemaGo(t *testing.T) {
	c := corpus(t)
	for i, s := range lightEdges {
		c[fmt.Sprintf("edge %d", i)] = []byte(s)
	}
	for _, name := range sortedKeys(c) {
		raw := c[name]
		t.Run(name, func(t *testing.T) {
			unsure := sameAsFull(t, raw)
			if unsure && !strings.HasPrefix(name, "hostile-") && !strings.HasPrefix(name, "edge ") {
				t.Error("the light decode gave up on a real schema")
			}
		})
	}
}

// sameAsFull checks the light decode and Check against jsonschema-go's
// decode and the full analysis, and reports whether the light decode gave
// up.
func sameAsFull(t *testing.T, raw []byte) (unsure bool) {
	t.Helper()
	_, err := analyze(raw)
	var ce *CycleError
	cycle := errors.As(err, &ce)
	if got := errors.As(Check(json.RawMessage(raw)), &ce); got != cycle {
		t.Errorf("Check finds a cycle: %v; the full analysis: %v (%v)", got, cycle, err)
	}
	if cycle && !(mayRefer(raw) && lightCycle(raw)) {
		t.Errorf("the light check misses the cycle the full one finds: %v", err)
	}
	if bounded(raw) != nil {
		return false
	}
	light, _, lerr := lightDecode(raw)
	if lerr != nil && !errors.Is(lerr, errUnsure) {
		t.Errorf("lightDecode: %v", lerr)
	}
	var full jsonschema.Schema
	if json.Unmarshal(raw, &full) != nil || lerr != nil {
		return lerr != nil
	}
	if want := structure(&full); !reflect.DeepEqual(light, want) {
		got, _ := json.Marshal(light)
		wantJSON, _ := json.Marshal(want)
		t.Errorf("the light decode reads\n%s\njsonschema-go reads\n%s", got, wantJSON)
	}
	return false
}

// structure copies what lightDecode reads of a schema: its references,
// identifiers and anchors, and its subschemas, each field found by
// reflection so that none is forgotten.
func structure(s *jsonschema.Schema) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	out := &jsonschema.Schema{ID: s.ID, Schema: s.Schema, Ref: s.Ref, Anchor: s.Anchor, DynamicAnchor: s.DynamicAnchor, DynamicRef: s.DynamicRef}
	src, dst := reflect.ValueOf(s).Elem(), reflect.ValueOf(out).Elem()
	for i := range src.NumField() {
		f := src.Field(i)
		switch v := f.Interface().(type) {
		case *jsonschema.Schema:
			dst.Field(i).Set(reflect.ValueOf(structure(v)))
		case []*jsonschema.Schema:
			if v != nil {
				list := make([]*jsonschema.Schema, len(v))
				for j, c := range v {
					list[j] = structure(c)
				}
				dst.Field(i).Set(reflect.ValueOf(list))
			}
		case map[string]*jsonschema.Schema:
			if v != nil {
				m := make(map[string]*jsonschema.Schema, len(v))
				for k, c := range v {
					m[k] = structure(c)
				}
				dst.Field(i).Set(reflect.ValueOf(m))
			}
		}
	}
	return out
}

// lightKeywords must name every keyword the analysis reads.
func TestLightKeywords(t *testing.T) {
	var names []string
	for _, kw := range lightKeywords {
		names = append(names, kw.name)
	}
	for _, kw := range slices.Concat(inPlaceKeywords, partKeywords, unusedKeywords, []string{"$id", "$schema", "$ref", "$anchor", "$dynamicAnchor", "$dynamicRef"}) {
		if !slices.Contains(names, kw) {
			t.Errorf("the light decode does not read %s", kw)
		}
	}
	if len(lightKeywords) > 32 {
		t.Errorf("%d keywords do not fit an object's set of those seen", len(lightKeywords))
	}
}

// mayRefer looks at ASCII only: no other letter folds onto one of "$ref"
// or "$dynamicRef" (only K, the Kelvin sign, and ſ fold onto ASCII letters,
// k and s).
func TestMayReferFolds(t *testing.T) {
	for _, c := range referLetters {
		for r := unicode.SimpleFold(c); r != c; r = unicode.SimpleFold(r) {
			if r >= utf8.RuneSelf {
				t.Errorf("%q folds onto %q", r, c)
			}
		}
	}
}

// FuzzCheck compares the light check with the full one on any bytes: the
// same verdict, and the same tree wherever both decode.
func FuzzCheck(f *testing.F) {
	c := corpus(f)
	for _, name := range sortedKeys(c) {
		f.Add(c[name])
	}
	for _, s := range lightEdges {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) { sameAsFull(t, raw) })
}

func BenchmarkLightDecode(b *testing.B) {
	raw := corpus(b)["pydantic-create_order"]
	for b.Loop() {
		if _, _, err := lightDecode(raw); err != nil {
			b.Fatal(err)
		}
	}
}
