package search

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"testing"
)

// referenceDocument is ToolDocument as it was before schemaReader: the
// schema read with json.Unmarshal alone. The documents, and so the index,
// must not change.
func referenceDocument(id, name, description string, inputSchema []byte) Document {
	d := Document{ID: id, Name: name, Kind: KindTool, Description: description}
	var root schemaNode
	if len(bytes.TrimSpace(inputSchema)) == 0 {
		return d
	}
	var typeErr *json.UnmarshalTypeError
	if err := json.Unmarshal(inputSchema, &root); err == nil || errors.As(err, &typeErr) {
		d.Params = slices.Clip(slices.Clone(root.params(nil, "", 0)))
	}
	return d
}

// checkParams compares ToolDocument's document for schema with the
// reference, and reports whether schemaReader read it itself.
func checkParams(t *testing.T, schema []byte) bool {
	t.Helper()
	got := ToolDocument("t", "t", "A tool.", schema)
	want := referenceDocument("t", "t", "A tool.", schema)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\ndocument %#v\nwant     %#v", schema, got, want)
	}
	var n schemaNode
	return new(schemaReader).readSchema(schema, &n)
}

func TestReadSchemaAsUnmarshal(t *testing.T) {
	tests := []struct {
		schema string
		read   bool // by schemaReader itself, not handed to json.Unmarshal
	}{
		{`{"type":"object","properties":{"city":{"type":"string","description":"City name"},"units":{"enum":["c","f"],"title":"Units"}},"required":["city"]}`, true},
		{` { "properties" : { "a" : { "items" : { "properties" : { "b" : { "description" : "deep" } } } } } } `, true},
		{`{"properties":{"filter":{"anyOf":[{"properties":{"x":{}}},{"enum":[1,2.50,"s",null,true,{"k":[1]}]}]},"all":{"allOf":[{"properties":{"y":{"title":"Y","description":"y"}}}],"oneOf":[{"enum":["o"]}]}}}`, true},
		{`{"properties":{"a":true,"b":3,"c":"x","d":null,"e":[1]}}`, true},                       // schemas that are not objects count by name
		{`{"properties":{"a":{"description":"x"},"a":{"description":"y"}}}`, true},               // a property given twice, twice
		{`{"properties":{"\u00e9t\u00e9":{"description":"caf\u00e9 \"quoted\" \\ <b>"}}}`, true}, // escapes
		{"{\"properties\":{\"bad\xff\":{\"description\":\"bad \xfe utf-8\"}}}", true},
		{`{"properties":{"a":{"enum":[]}},"$defs":{"x":{"description":"not a parameter"}},"default":{"description":"nor this"}}`, true},
		{`{"properties":{"n":{"description":"Number one.","title":"number one."}}}`, true}, // title repeats the description
		{`{"Description":"case","properties":{"a":{"DESCRIPTION":"upper"}}}`, false},       // json.Unmarshal matches names in any case
		{`{"properties":{"a":{"de\u017fcription":"long s"}}}`, false},                      // even with Unicode folding
		{`{"properties":{"a":{"description":"x","description":"y"}}}`, false},              // the last wins
		{`{"properties":{"a":{"description":5,"title":"t"}}}`, false},                      // a field of another type is dropped
		{`{"properties":{"a":{"items":[{"description":"tuple"}]}}}`, false},
		{`{"properties":{"a":{"description":null}}}`, false},
		{`{"properties":[],"items":{"properties":{"b":{}}}}`, false},
		{`{"properties":{"a":{}},"properties":{"b":{}}}`, false},
		{`["not","an","object"]`, false},
		{`{"properties":{"a":{}}} trailing`, false},
		{`{"properties":{"a":{"description":"x"}}`, false}, // truncated
		{`{"properties":{"a":{"enum":[01]}}}`, false},
		{`{"properties":{"a":{"description":"tab	inside"}}}`, false},
		{`{"properties":{"a":{"description":"\x"}}}`, false},
		{`{"properties":{"a":{"enum":[1e400]}}}`, false}, // beyond float64: no parameters at all
		{`null`, false},
		{`{}`, true},
	}
	for _, tt := range tests {
		if read := checkParams(t, []byte(tt.schema)); read != tt.read {
			t.Errorf("%s: read by schemaReader = %v, want %v", tt.schema, read, tt.read)
		}
	}
}

// TestReadSchemaDevCatalog compares every tool document of the dev split
// with the reference: same parameters, so the same postings.
func TestReadSchemaDevCatalog(t *testing.T) {
	tools, _ := loadDev(t)
	handed := 0
	for _, tool := range tools {
		if !checkParams(t, tool.InputSchema) {
			handed++
		}
	}
	t.Logf("%d schemas, %d handed to json.Unmarshal", len(tools), handed)
	if handed > len(tools)/100 {
		t.Errorf("%d of %d schemas handed to json.Unmarshal", handed, len(tools))
	}
}

func FuzzReadSchema(f *testing.F) {
	f.Add([]byte(`{"type":"object","properties":{"city":{"type":"string","description":"City"},"u":{"enum":["c","f"]}}}`))
	f.Add([]byte(`{"properties":{"a":{"items":{"properties":{"b":{"anyOf":[{"description":"x"}]}}}}}}`))
	f.Add([]byte(`{"properties":{"a":{"Title":"t","enum":[1,"x",null]}}}`))
	f.Fuzz(func(t *testing.T, schema []byte) {
		checkParams(t, schema)
	})
}

// BenchmarkToolDocument builds the documents of the benchmark catalog (the
// dev split's tools, or synthetic ones), against json.Unmarshal alone.
func BenchmarkToolDocument(b *testing.B) {
	tools := loadBench().tools
	b.Run("reader", func(b *testing.B) {
		for b.Loop() {
			for _, t := range tools {
				ToolDocument(t.Name, t.Name, t.Description, t.InputSchema)
			}
		}
	})
	b.Run("unmarshal", func(b *testing.B) {
		for b.Loop() {
			for _, t := range tools {
				referenceDocument(t.Name, t.Name, t.Description, t.InputSchema)
			}
		}
	})
}
