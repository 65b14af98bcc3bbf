package toolfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/jsonstream"
)

func TestDecodeTools(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // each tool's name and input schema
		err      string
	}{
		{name: "array", in: `[{"name":"a","inputSchema":{"type": "object", "properties":
		 {"z":{},"y":{}}}},{"name":"b"}]`,
			want: []string{`a {"type":"object","properties":{"z":{},"y":{}}}`, `b {"type":"object"}`}},
		{name: "schemas reused buffers", in: `[{"name":"a","title":"A","inputSchema":{"type":"object","properties":{"long":{"type":"string"}}},
		 "outputSchema":{"type":"object"}},{"name":"b","inputSchema":{ "type" : "object" }},{"name":"c"}]`,
			want: []string{`a (A) {"type":"object","properties":{"long":{"type":"string"}}} -> {"type":"object"}`,
				`b {"type":"object"}`, `c {"type":"object"}`}},
		{name: "null schema", in: `[{"name":"a","inputSchema":null},{"name":"b","inputSchema": null }]`,
			want: []string{`a {"type":"object"}`, `b {"type":"object"}`}},
		{name: "tools/list result", in: `{"nextCursor":"x","tools":[{"name":"a","inputSchema":{"type":"object"}}]}`,
			want: []string{`a {"type":"object"}`}},
		{name: "empty array", in: ` [ ] `, want: []string{}},
		{name: "a null tool", in: `[null,{"name":"b"}]`, want: []string{` {"type":"object"}`, `b {"type":"object"}`}},
		{name: "compact already", in: `[{"name":"a","inputSchema":{"description":"a \"quoted\" word\\","enum":[" x ","y"]}}]`,
			want: []string{`a {"description":"a \"quoted\" word\\","enum":[" x ","y"]}`}},
		{name: "object without tools", in: `{"x":1}`, err: `"tools" array`},
		{name: "tools not an array", in: `{"tools":{}}`, err: `"tools" is not an array`},
		{name: "not JSON", in: `tools`, err: "want a JSON array"},
		{name: "a string", in: `"x"`, err: "want a JSON array"},
		{name: "bad element", in: `[{"name":"a"},{"name":3}]`, err: "tools[1]"},
		{name: "truncated", in: `[{"name":"a"}`, err: "tools[1]: want another tool"},
		// What is read without decoding is still checked.
		{name: "a bad member before the tools", in: `{"nextCursor":tru,"tools":[]}`, err: `"nextCursor" is not valid JSON`},
		{name: "no comma between tools", in: `[{"name":"a"} {"name":"b"}]`, err: "tools[1]: want another tool or the end of the array: want ',' or ']'"},
		{name: "a trailing comma", in: `[{"name":"a"},]`, err: "tools[1]: want a value"},
		{name: "brackets that do not pair", in: `[{"name":"a"]]`, err: "tools[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tools, err := DecodeTools([]byte(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, tl := range tools {
				line := tl.Name
				if tl.Title != "" {
					line += " (" + tl.Title + ")"
				}
				line += " " + string(tl.InputSchema.(json.RawMessage))
				if tl.OutputSchema != nil {
					line += " -> " + string(tl.OutputSchema.(json.RawMessage))
				}
				got = append(got, line)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// Packed schemas share chunks; each must still be a slice of its own that an
// append cannot run into the next, across as many chunks as it takes.
func TestPackedSchemasStayApart(t *testing.T) {
	var in strings.Builder
	in.WriteString("[")
	const n = 3000 // about 200 KB of schemas: several chunks
	for i := range n {
		if i > 0 {
			in.WriteString(",")
		}
		fmt.Fprintf(&in, `{"name":"t%d","inputSchema":{"type": "object", "properties": {"p%d": {"type": "string", "description": %q}}}}`,
			i, i, strings.Repeat("x", i%97))
	}
	in.WriteString("]")
	tools, err := DecodeTools([]byte(in.String()))
	if err != nil {
		t.Fatal(err)
	}
	want := func(i int) string {
		return fmt.Sprintf(`{"type":"object","properties":{"p%d":{"type":"string","description":%q}}}`, i, strings.Repeat("x", i%97))
	}
	for i, tl := range tools {
		raw := tl.InputSchema.(json.RawMessage)
		if cap(raw) != len(raw) {
			t.Fatalf("tool %d: schema has room to grow into its neighbour (len %d, cap %d)", i, len(raw), cap(raw))
		}
		_ = append(raw, '!')
	}
	for i, tl := range tools {
		if got := string(tl.InputSchema.(json.RawMessage)); got != want(i) {
			t.Fatalf("tool %d: schema %s, want %s", i, got, want(i))
		}
	}
}

func TestPackSchemas(t *testing.T) {
	tools := []*mcp.Tool{
		{Name: "decoded", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "number"}}},
			OutputSchema: map[string]any{"type": "object"}},
		{Name: "raw", InputSchema: json.RawMessage(`{ "type": "object" ,"required": [ ] }`)},
		{Name: "none"},
		{Name: "null", InputSchema: json.RawMessage("null")},
	}
	PackSchemas(tools)
	want := []string{
		`{"properties":{"n":{"type":"number"}},"type":"object"} {"type":"object"}`,
		`{"type":"object","required":[]} <nil>`,
		`{"type":"object"} <nil>`,
		`{"type":"object"} <nil>`,
	}
	show := func(v any) string {
		if v == nil {
			return "<nil>"
		}
		raw, ok := v.(json.RawMessage)
		if !ok {
			return fmt.Sprintf("not RawMessage: %T", v)
		}
		return string(raw)
	}
	for i, tl := range tools {
		if got := show(tl.InputSchema) + " " + show(tl.OutputSchema); got != want[i] {
			t.Errorf("%s: got %s, want %s", tl.Name, got, want[i])
		}
	}
}

func TestReadListedTools(t *testing.T) {
	in := `[null,{"name":"a","inputSchema":null},{"name":"b"},{"name":"c","inputSchema":{"type":"object"},"outputSchema":{ "type" : "object" }}]`
	tools, err := ReadListedTools(jsonstream.NewReader(strings.NewReader(in)), nil)
	if err != nil {
		t.Fatal(err)
	}
	show := func(tl *mcp.Tool) string {
		if tl == nil {
			return "nil"
		}
		schema := func(v any) string {
			if raw, ok := v.(json.RawMessage); ok {
				return string(raw)
			}
			return fmt.Sprint(v)
		}
		return tl.Name + " " + schema(tl.InputSchema) + " " + schema(tl.OutputSchema)
	}
	var got []string
	for _, tl := range tools {
		got = append(got, show(tl))
	}
	want := `nil|a <nil> <nil>|b <nil> <nil>|c {"type":"object"} {"type":"object"}`
	if strings.Join(got, "|") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, "|"), want)
	}
	if tools, err := ReadListedTools(jsonstream.NewReader(strings.NewReader(`null`)), nil); err != nil || tools != nil {
		t.Errorf("null: %v %v", tools, err)
	}
	for _, bad := range []string{`{}`, `[1]`, `[{"name":"a"}`} {
		if _, err := ReadListedTools(jsonstream.NewReader(strings.NewReader(bad)), nil); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// For JSON that a decoder has read, dropping the white space outside
// strings is all that json.Compact does.
func FuzzAppendWithoutSpace(f *testing.F) {
	for _, s := range []string{`{ "a" : [ 1 , "x y" ] }`, "{\"a\\\"\\\\ b\":\t\"\\u0020 \"\r\n}", `"  "`, ` [ ] `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		var want bytes.Buffer
		if err := json.Compact(&want, data); err != nil {
			t.Fatal(err)
		}
		if got := appendWithoutSpace(nil, data); string(got) != want.String() {
			t.Errorf("%q: got %q, want %q", data, got, want.String())
		}
	})
}

// Decoded on several goroutines, an array gives the tools, and the first
// error, that decoding it in turn gives: across batches, with null tools
// and bad ones at either side of a batch's edge.
func TestDecodeToolsParallel(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	tool := func(i int) string {
		switch {
		case i%97 == 3:
			return `null`
		case i%5 == 0:
			return fmt.Sprintf(`{"name":"t%d","description":"tool %d"}`, i, i)
		}
		return fmt.Sprintf(`{"name":"t%d","inputSchema":{ "type" : "object", "properties": {"p%d": {"type":"string"}}},"outputSchema":{"type":"object"}}`, i, i)
	}
	array := func(n, badAt int, bad string) string {
		var parts []string
		for i := range n {
			if i == badAt {
				parts = append(parts, bad)
				continue
			}
			parts = append(parts, tool(i))
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	keep := func(tj *toolJSON, pack *schemaPacker) *mcp.Tool {
		def := tj.Tool
		if len(tj.InputSchema) > 0 {
			def.InputSchema = pack.compactDecoded(tj.InputSchema)
		}
		return &def
	}
	render := func(tools []*mcp.Tool, err error) string {
		var b strings.Builder
		for _, tl := range tools {
			if tl == nil {
				b.WriteString("nil\n")
				continue
			}
			fmt.Fprintf(&b, "%s %s %v\n", tl.Name, tl.InputSchema, tl.OutputSchema)
		}
		return fmt.Sprintf("%s%v", b.String(), err)
	}
	cases := []struct {
		name  string
		input string
	}{
		{"empty", `[]`},
		{"one", array(1, -1, "")},
		{"a batch less one", array(batchTools-1, -1, "")},
		{"a batch", array(batchTools, -1, "")},
		{"a batch and one", array(batchTools+1, -1, "")},
		{"many batches", array(5*batchTools+17, -1, "")},
		{"wrong type, first batch", array(3*batchTools, 10, `{"name":5}`)},
		{"wrong type, at an edge", array(3*batchTools, batchTools, `{"name":5}`)},
		{"not an object, last batch", array(3*batchTools, 3*batchTools-1, `1`)},
		{"bad ones in two batches", strings.Replace(array(3*batchTools, 2*batchTools+1, `{"name":5}`), `{"name":"t301"`, `{"name":[]`, 1)},
		{"no comma, second batch", array(2*batchTools, batchTools+3, `{"name":"x"} {"name":"y"}`)},
		{"a bad one, then no comma", strings.Replace(array(2*batchTools, batchTools+3, `{"name":"x"} {"name":"y"}`), `{"name":"t7"`, `{"name":7`, 1)},
		{"cut short", array(2*batchTools, -1, "")[:5000]},
		{"not closed", strings.TrimSuffix(array(2*batchTools, -1, ""), "]")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := func() *jsonstream.Reader {
				r := jsonstream.NewReader(strings.NewReader(c.input))
				if err := r.Expect('['); err != nil {
					t.Fatal(err)
				}
				return r
			}
			want := render(decodeToolArray(in(), new(schemaPacker), keep))
			got := render(decodeToolsParallel(in(), keep))
			if got != want {
				t.Errorf("in parallel:\n%.2000s\nin turn:\n%.2000s", got, want)
			}
		})
	}
}
