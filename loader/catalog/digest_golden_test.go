package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/devsplit"
	"github.com/toolsearch/toolsearch/loader/toolfile"
)

// The digests in testdata/*.golden were made by the code that wrote the
// digests users' caches hold, and approvals are keyed by them: any change to
// how definitions are read (the tools file's reader, the schema packer, the
// canonicalizer) must leave every one of them as it is. Regenerate them only
// for a deliberate change of the digest, which invalidates every approval:
//
//	go test ./loader/catalog -run TestDigestGolden -update-digests
var updateDigests = flag.Bool("update-digests", false, "rewrite loader/catalog/testdata/*.golden from the current code")

// goldenEdgeJSON are JSON texts at the edges of the grammar and of the
// round trip: escapes, surrogates, numbers a float64 does not hold, keys
// equal once unescaped, nesting, white space, and texts that are not JSON.
var goldenEdgeJSON = []string{
	`{}`, `[]`, `""`, `0`, `-0`, `-0.0`, `0e0`, `true`, `false`, `null`,
	`{"b":1,"a":2}`,
	`{"a":1,"a":2}`, `{"a":{"x":1},"a":[2]}`, `{"b":1,"a":2,"b":3,"a":4}`,
	`{"a":1,"\u0061":2,"b":3}`, `{"\u00e9":1,"é":2}`, `{"A":1,"a":2,"\u0041":3}`,
	`{"\u0062":1,"a":{"d":4,"c":[3,{"f":1,"e":2}]}}`,
	`{"é":1,"e":2,"z":3,"<":4,"&":5,"\u2028":6,"":7}`,
	`{"description":"a \"quoted\" word\\path\/x\n\t\r\b\f and <b>&amp;</b>"}`,
	`"\u003c\u003E\u0026 \u00e9 \u2028 \u2029 \u0000 \u001f \u007f \u00FF \uFFFF \uFFFE"`,
	`"\ud83d\ude00 \ud83d \ude00 \ud83dx \uDBFF\uDFFF \uD800\uD800 \uDC00\uD800 \ud83d\u0041"`,
	`"\ud83d"`, `"\ude00"`, `"\ud83d\\"`, `"x\ud83d\"`,
	"\"bad \xff\xfe utf-8 \xe2\x80\"", "\"\xc0\xaf overlong \xed\xa0\x80 surrogate in UTF-8\"",
	"\"\xe2\x80\xa8 raw separators \xe2\x80\xa9 \xf0\x9f\x98\x80\"",
	"{\"k\xff\":1,\"k\":2}",
	`[1.0, 1e3, 1E+21, 1e21, 1e20, 123456789012345678, 1e-7, 0.000001, 0.0000001, 5e-324, -1.5e-10, 0.1, 100, 1e-400, 2.5E-7, 999999999999999, 1000000000000000, 9007199254740993]`,
	`[-0, -0.0, -0e10, 0.0, -1e-400, 1e308, 1.7976931348623157e308, -1.7976931348623157e308, 4.9e-324, 2e-324]`,
	`[123456789012345678901234567890, -123456789012345678901234567890, 0.30000000000000004, 1.000000000000000000001]`,
	`[1e400]`, `[-1e400]`, `{"a":[1e400],"b":1}`, `1.8e308`,
	` { "b" : [ 1 , 2 ] , "a" : { } } `, "\t\n\r[\r\n1\t]\n",
	`{"type":"object","properties":{"z":{"type":"string","enum":["b","a"]},"a":{"type":"integer","minimum":-0.0,"maximum":1.50}},"required":["z"]}`,
	strings.Repeat("[", 1000) + strings.Repeat("]", 1000),
	strings.Repeat("[", 1001) + strings.Repeat("]", 1001),
	strings.Repeat(`{"a":`, 1500) + "1" + strings.Repeat("}", 1500),
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	// Not JSON.
	``, ` `, `{"a":01}`, `{"a":"\x"}`, `{"a":"\u12g4"}`, `{} {}`, `{"a":1,}`, `[1,]`, `[01]`, `[.5]`, `[1.]`, `[+1]`,
	`{"a" 1}`, `{a:1}`, `[tru]`, `[nul]`, "\"tab\tinside\"", `"unterminated`, `[1e]`, `NaN`, `[-]`,
}

// goldenEdgeTools are tools whose digests are taken as the tools are held
// (ToolDigest on the definition), beside those read from a tools file.
func goldenEdgeTools() []*mcp.Tool {
	tools := []*mcp.Tool{
		{Name: "no schema"},
		{Name: "bad \xff name", Description: "<b>bold</b> & \u2028 \"quotes\"\n", InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"number","default":1.0}}}`)},
		{Name: "map schema", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"b": map[string]any{"type": "string"}, "a": map[string]any{"type": "integer", "maximum": 1e21}}}},
		{Name: "everything", Title: "Everything", Description: "All the fields.",
			InputSchema:  json.RawMessage(`{"type":"object","required":["a"],"properties":{"a":{"type":"string"}}}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}}}`),
			Annotations:  &mcp.ToolAnnotations{Title: "Every", ReadOnlyHint: true},
			Meta:         mcp.Meta{"z": 1, "a": []any{"x", 2.5, "\U0001F600"}},
			Icons:        []mcp.Icon{{Source: "https://example.com/i.png", MIMEType: "image/png"}},
		},
		{Name: "unencodable", InputSchema: map[string]any{"x": func() {}}},
		{Name: "null output", InputSchema: json.RawMessage(nil), OutputSchema: json.RawMessage(nil)},
		{Name: "empty schema", InputSchema: json.RawMessage{}},
		{Name: "spaced", Title: "T\xffitle", InputSchema: json.RawMessage(" {\n \"b\" : [ 1 , 2.50 ] ,\"a\":\"\u2028<\"}\t")},
	}
	for i, text := range goldenEdgeJSON {
		tools = append(tools,
			&mcp.Tool{Name: fmt.Sprintf("edge %d input", i), InputSchema: json.RawMessage(text)},
			&mcp.Tool{Name: fmt.Sprintf("edge %d output", i), Title: "t", InputSchema: json.RawMessage(`{}`), OutputSchema: json.RawMessage(text)})
	}
	return tools
}

// goldenEdgeFile is a tools file holding each edge text as a tool's input
// schema, one file a text: a file that is not JSON is refused whole.
func goldenEdgeFile(text string) []byte {
	return []byte(`[{"name":"edge","description":"d \u00e9 \ud83d\ude00","inputSchema":` + text + "}]")
}

// digestLines are the golden lines for tools read from a tools file, by the
// file's reader (DecodeTools) and as a listing a client decoded (then
// PackSchemas): the two ways definitions arrive.
func digestLines(label string, data []byte) []string {
	var lines []string
	fromFile, err := toolfile.DecodeTools(data)
	if err != nil {
		lines = append(lines, label+" file: refused")
	}
	var listed []*mcp.Tool
	if json.Unmarshal(data, &listed) != nil {
		lines = append(lines, label+" listed: refused")
		listed = nil
	}
	toolfile.PackSchemas(listed)
	for i, t := range fromFile {
		lines = append(lines, fmt.Sprintf("%s file %d %q %s", label, i, t.Name, ToolDigest(t)))
	}
	for i, t := range listed {
		if t != nil {
			lines = append(lines, fmt.Sprintf("%s listed %d %q %s", label, i, t.Name, ToolDigest(t)))
		}
	}
	return lines
}

func edgeDigestLines() []string {
	var lines []string
	for i, text := range goldenEdgeJSON {
		lines = append(lines, fmt.Sprintf("json %d %s", i, jsonDigest(json.RawMessage(text))))
		lines = append(lines, digestLines(fmt.Sprintf("edge %d", i), goldenEdgeFile(text))...)
	}
	for _, t := range goldenEdgeTools() {
		lines = append(lines, fmt.Sprintf("tool %q %s", t.Name, ToolDigest(t)))
	}
	return lines
}

// poisonedDigestLines digests the scanner's poisoned corpus: its tools,
// read as a tools file, and each entry whole as a feature's definition.
func poisonedDigestLines(t *testing.T) []string {
	data, err := os.ReadFile(filepath.Join("..", "scan", "testdata", "poisoned.json"))
	if err != nil {
		t.Fatal(err)
	}
	var entries []struct {
		ID   string          `json:"id"`
		Tool json.RawMessage `json:"tool"`
	}
	if err := json.Unmarshal(data, &entries); err != nil {
		t.Fatal(err)
	}
	var (
		lines []string
		tools [][]byte
	)
	for _, e := range entries {
		if len(e.Tool) > 0 {
			tools = append(tools, e.Tool)
		}
	}
	lines = append(lines, digestLines("poisoned", append(append([]byte("["), bytes.Join(tools, []byte(","))...), ']'))...)
	var whole []json.RawMessage
	if err := json.Unmarshal(data, &whole); err != nil {
		t.Fatal(err)
	}
	for i, raw := range whole {
		lines = append(lines, fmt.Sprintf("poisoned entry %d %s", i, jsonDigest(raw)))
	}
	return lines
}

func TestDigestGolden(t *testing.T) {
	t.Run("edge", func(t *testing.T) { checkGolden(t, "digests-edge.golden", edgeDigestLines()) })
	t.Run("poisoned", func(t *testing.T) { checkGolden(t, "digests-poisoned.golden", poisonedDigestLines(t)) })
	t.Run("dev", func(t *testing.T) {
		data, err := os.ReadFile(filepath.Join(devsplit.Dir(), "catalog.json"))
		if errors.Is(err, os.ErrNotExist) {
			t.Skip(devsplit.Missing())
		}
		if err != nil {
			t.Fatal(err)
		}
		lines := digestLines("dev", data)
		if len(lines) < 2*2102 {
			t.Fatalf("%d digests of the dev split, want one per tool read each way (2 × 2,102)", len(lines))
		}
		checkGolden(t, "digests-dev.golden", lines)
	})
}

// checkGolden compares lines with the golden file, line by line, or
// rewrites it under -update-digests.
func checkGolden(t *testing.T, name string, lines []string) {
	t.Helper()
	file := filepath.Join("testdata", name)
	got := strings.Join(lines, "\n") + "\n"
	if *updateDigests {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (make it with -update-digests on the code whose digests users hold)", err)
	}
	want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	changed := 0
	for i := 0; i < max(len(want), len(lines)); i++ {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(lines) {
			g = lines[i]
		}
		if w != g {
			if changed++; changed <= 10 {
				t.Errorf("%s line %d:\n got %s\nwant %s", file, i+1, g, w)
			}
		}
	}
	if changed > 0 {
		t.Errorf("%s: %d of %d lines differ: a digest users' caches and approvals hold has changed", file, changed, len(want))
	}
}
