package fastjson

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/devsplit"
)

// The shapes decoded: a tool with its schemas kept as JSON (mcp.Tool's own
// fields shadowed by shallower ones), as the loader decodes it, and others
// whose decoding has corners (maps of slices of structs, times, numbers,
// pointers, any).
type (
	tool struct {
		mcp.Tool
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema"`
	}
	approvals struct {
		Version int                `json:"version"`
		Sources map[string]*source `json:"sources"`
	}
	source struct {
		Name    string                `json:"name"`
		Entries map[string][]approval `json:"entries"`
	}
	approval struct {
		Digest  string    `json:"digest"`
		At      time.Time `json:"at"`
		Scanner int       `json:"scanner,omitempty"`
	}
	loose struct {
		Any     any                `json:"any"`
		Number  float64            `json:"number"`
		Int     int64              `json:"int"`
		Ptr     *string            `json:"ptr"`
		Strings []string           `json:"strings"`
		Map     map[string]float64 `json:"map"`
	}
)

var targets = map[string]func() any{
	"tool": func() any { return new(*tool) },
	"tool in place": func() any { // as the loader decodes: into a tool, or null
		t := new(tool)
		return &t
	},
	"approvals": func() any { return new(approvals) },
	"loose":     func() any { return new(loose) },
	"any":       func() any { return new(any) },
}

// sameAsEncodingJSON fails t unless Unmarshal decodes data into each target
// as encoding/json does: the same value, or failing both, with
// encoding/json's error.
func sameAsEncodingJSON(t *testing.T, data []byte) {
	t.Helper()
	for name, target := range targets {
		got, want := target(), target()
		text := slices.Clone(data)
		gotErr, wantErr := Unmarshal(text, got), json.Unmarshal(data, want)
		switch {
		case (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error():
			t.Fatalf("%s: %q: error %v, encoding/json's %v", name, data, gotErr, wantErr)
		case gotErr == nil && !reflect.DeepEqual(got, want):
			t.Fatalf("%s: %q:\n got %#v\nwant %#v", name, data, got, want)
		case !bytes.Equal(text, data):
			// Raw messages share the text: decoding again must not write over it.
			t.Fatalf("%s: %q: the text became %q", name, data, text)
		}
	}
}

func TestUnmarshal(t *testing.T) {
	for _, data := range []string{
		`{"name":"a","description":"d","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}`,
		`{"NAME":"folded","Description":"keys match as encoding/json matches them"}`,
		`{"name":"a","name":"last of equal keys"}`,
		`{"name":"bad utf-8 \xff\xfe","description":"lone surrogate \ud800"}`,
		`{"name":1}`, // a type error
		`{"inputSchema":{"a":1},"inputSchema":{"bb":2},"name":1}`, // a type error after raw messages
		`{"name":"a",}`,              // a syntax error
		`{"name":"a"} x`,             // after the value
		`{"number":1e999,"int":1.5}`, // out of range, not an integer
		`{"any":{"n":12345678901234567890}}`,
		`{"sources":{"s":null,"t":{"entries":{"x":[{"digest":"d","at":"2026-12-02T00:00:00Z"}]}}}}`,
		`{"sources":{"t":{"entries":{"x":[{"at":"not a time"}]}}}}`,
		`null`,
		``,
		strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1), // past encoding/json's depth
		`{"any":` + strings.Repeat("[", maxDepth-1) + strings.Repeat("]", maxDepth-1) + `}`,
	} {
		sameAsEncodingJSON(t, []byte(data))
	}
}

// TestUnmarshalDevTools decodes every tool of the development split both ways.
func TestUnmarshalDevTools(t *testing.T) {
	for _, raw := range devsplit.ToolsOrSkip(t) {
		sameAsEncodingJSON(t, raw)
	}
}

func TestNestsBeyond(t *testing.T) {
	for _, c := range []struct {
		data  string
		limit int
		want  bool
	}{
		{`[[]]`, 2, false},
		{`[[[]]]`, 2, true},
		{`{"a":{"b":[]}}`, 2, true},
		{`["[[[[", "\"[[["]`, 1, false}, // brackets in strings, an escaped quote
		{`]]]][[`, 2, false},            // unbalanced text is not nesting
		{`[][][]`, 2, false},            // many brackets, none nested
		{`[[]`, 0, true},
	} {
		if got := nestsBeyond([]byte(c.data), c.limit); got != c.want {
			t.Errorf("nestsBeyond(%s, %d) = %v, want %v", c.data, c.limit, got, c.want)
		}
	}
}

// FuzzUnmarshal holds Unmarshal to encoding/json on any text, seeded with
// real tool definitions where the evaluation data is present.
func FuzzUnmarshal(f *testing.F) {
	f.Add([]byte(`{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}`))
	f.Add([]byte(`{"version":1,"sources":{"s":{"name":"n","entries":{"e":[{"digest":"d","at":"2026-12-02T00:00:00Z","scanner":3}]}}}}`))
	f.Add([]byte(`{"any":[1,"2",{"3":null}],"number":-0.5e3,"ptr":"p","strings":["a"],"map":{"k":1}}`))
	if tools, err := devsplit.Tools(); err == nil {
		for i := 0; i < len(tools); i += 97 {
			f.Add([]byte(tools[i]))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsEncodingJSON(t, data)
	})
}

func BenchmarkUnmarshalTools(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(devsplit.Dir(), "catalog.json"))
	if err != nil {
		b.Skip(devsplit.Missing())
	}
	var raws []json.RawMessage
	json.Unmarshal(data, &raws)
	for _, c := range []struct {
		name      string
		unmarshal func([]byte, any) error
	}{{"fastjson", Unmarshal}, {"encoding-json", json.Unmarshal}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				for _, raw := range raws {
					var t tool
					if err := c.unmarshal(raw, &t); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
