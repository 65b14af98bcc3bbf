package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader/toolfile"
)

// referenceDigest is ToolDigest as it was first written: the round trip
// through encoding/json whose bytes the digests on users' disks hash.
func referenceDigest(t any) string {
	data, err := json.Marshal(t)
	if err == nil {
		var v any
		if json.Unmarshal(data, &v) == nil {
			data, _ = json.Marshal(v)
		}
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// canonicalCases are JSON texts that exercise every rule of the round trip.
var canonicalCases = []string{
	`{}`, `[]`, `""`, `0`, `-0`, `true`, `false`, `null`,
	`{"b":1,"a":2}`,
	`{"a":1,"a":2}`,            // the last of equal keys wins
	`{"a":1,"\u0061":2,"b":3}`, // equal once unescaped
	`{"\u0062":1,"a":{"d":4,"c":[3,{"f":1,"e":2}]}}`,
	`{"é":1,"e":2,"z":3,"<":4,"&":5}`, // keys sorted by their bytes, escaped as json.Marshal does
	`{"description":"a \"quoted\" word\\path\/x\n\t\r\b\f and <b>&amp;</b>"}`,
	`"\u003c\u003E\u0026 \u00e9 \u2028 \u2029 \u0000 \u001f \u007f"`,
	`"\ud83d\ude00 \ud83d \ude00 \ud83dx \uDBFF\uDFFF"`, // a pair, lone surrogates
	"\"bad \xff\xfe utf-8 \xe2\x80\"",
	"\"\xe2\x80\xa8 raw separators \xe2\x80\xa9\"",
	`[1.0, 1e3, 1E+21, 1e21, 1e20, 123456789012345678, 1e-7, 0.000001, 0.0000001, 5e-324, -1.5e-10, 0.1, 100, 1e-400, 2.5E-7, 999999999999999, 1000000000000000, 9007199254740993]`,
	`[1e400]`, // beyond float64: json.Unmarshal fails
	`{"a":[1e400],"b":1}`,
	` { "b" : [ 1 , 2 ] , "a" : { } } `,
	`{"type":"object","properties":{"z":{"type":"string","enum":["b","a"]},"a":{"type":"integer","minimum":-0.0,"maximum":1.50}},"required":["z"]}`,
}

func TestCanonicalJSONMatchesTheRoundTrip(t *testing.T) {
	c := new(canonicalizer)
	for _, in := range canonicalCases {
		checkCanonical(t, c, []byte(in))
	}
}

// checkCanonical compares canonicalizer with the round trip on data.
func checkCanonical(t *testing.T, c *canonicalizer, data []byte) {
	t.Helper()
	got, ok := c.canonical(data)
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		if ok {
			t.Errorf("%q: canonical = %q, but json.Unmarshal fails (%v)", data, got, err)
		}
		return
	}
	want, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%q: %v", data, err)
	}
	if !ok || string(got) != string(want) {
		t.Errorf("%q:\ncanonical  %q (ok %v)\nround trip %q", data, got, ok, want)
	}
}

func TestToolDigestMatchesTheRoundTrip(t *testing.T) {
	tools := []*mcp.Tool{
		{Name: "plain", InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "no schema"},
		{Name: "bad \xff name", Description: "<b>bold</b> & \u2028 \"quotes\"\n", InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"number","default":1.0}}}`)},
		{Name: "map schema", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"b": map[string]any{"type": "string"}, "a": map[string]any{"type": "integer", "maximum": 1e21}}}},
		{Name: "everything", Title: "Everything", Description: "All the fields.",
			InputSchema:  json.RawMessage(`{"type":"object","required":["a"],"properties":{"a":{"type":"string"}}}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}}}`),
			Annotations:  &mcp.ToolAnnotations{Title: "Every", ReadOnlyHint: true},
			Meta:         mcp.Meta{"z": 1, "a": []any{"x", 2.5}},
			Icons:        []mcp.Icon{{Source: "https://example.com/i.png", MIMEType: "image/png"}},
		},
		{Name: "huge number", InputSchema: json.RawMessage(`{"type":"object","maximum":1e400}`)},
		{Name: "unencodable", InputSchema: map[string]any{"x": func() {}}},
		{Name: "null output", InputSchema: json.RawMessage(nil), OutputSchema: json.RawMessage(nil)},
		{Name: "empty schema", InputSchema: json.RawMessage{}},
		{Name: "spaced", Title: "T\xffitle", InputSchema: json.RawMessage(" {\n \"b\" : [ 1 , 2.50 ] ,\"a\":\"\u2028<\"}\t")},
		{Name: "not JSON", InputSchema: json.RawMessage(`{"a":01}`)},
		{Name: "bad escape", InputSchema: json.RawMessage(`{"a":"\x"}`)},
		{Name: "bad unicode escape", InputSchema: json.RawMessage(`{"a":"\u12g4"}`)},
		{Name: "trailing", InputSchema: json.RawMessage(`{} {}`)},
		{Name: "number forms", InputSchema: json.RawMessage(`[0,-0,1.0,-1.5e+3,1E-7,123456789012345,-123456789012345,1234567890123456,-1234567890123456,0.1e1]`)},
		{Name: "deep", InputSchema: json.RawMessage(strings.Repeat("[", 1500) + strings.Repeat("]", 1500))},
		{Name: "deeper than json allows", InputSchema: json.RawMessage(strings.Repeat("[", 10001) + strings.Repeat("]", 10001))},
	}
	for _, tool := range tools {
		if got, want := ToolDigest(tool), referenceDigest(tool); got != want {
			t.Errorf("%s: ToolDigest = %s, want %s", tool.Name, got, want)
		}
	}
	// A digest computed by the original code, as a cache on disk keeps it.
	tool := &mcp.Tool{Name: "get_weather", Description: "Current weather for a city.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","description":"City name, e.g. \"Paris\""},"units":{"enum":["celsius","fahrenheit"],"default":"celsius"}},"required":["city"]}`)}
	if got, want := ToolDigest(tool), "b12b60ec52d29acea43ce80af43ea56e263d958071e4382821953e2ddef77b64"; got != want {
		t.Errorf("ToolDigest(get_weather) = %s, want %s as persisted", got, want)
	}
}

// devCatalog is the dev split's catalog, when this checkout sits beside it
// (or a worktree of it one level further down).
func devCatalog(t testing.TB) []byte {
	for _, dir := range []string{"../../shared/eval/dev", "../../../shared/eval/dev"} {
		if data, err := os.ReadFile(filepath.Join(dir, "catalog.json")); err == nil {
			return data
		}
	}
	t.Skip("the dev split is not beside this checkout")
	return nil
}

// TestToolDigestDevCatalog checks every tool of the dev split, as read from
// a file and as an upstream's listing arrives (schemas decoded into maps,
// then packed).
func TestToolDigestDevCatalog(t *testing.T) {
	data := devCatalog(t)
	fromFile, err := toolfile.DecodeTools(data)
	if err != nil {
		t.Fatal(err)
	}
	var listed []*mcp.Tool
	if err := json.Unmarshal(data, &listed); err != nil {
		t.Fatal(err)
	}
	toolfile.PackSchemas(listed)
	for _, tools := range [][]*mcp.Tool{fromFile, listed} {
		for _, tool := range tools {
			if got, want := ToolDigest(tool), referenceDigest(tool); got != want {
				t.Fatalf("%s: ToolDigest = %s, want %s", tool.Name, got, want)
			}
		}
	}
}

func FuzzCanonicalJSON(f *testing.F) {
	for _, in := range canonicalCases {
		f.Add([]byte(in))
	}
	// Real schemas: the first tools of the dev split, when it is there.
	for _, dir := range []string{"../../shared/eval/dev", "../../../shared/eval/dev"} {
		if data, err := os.ReadFile(filepath.Join(dir, "catalog.json")); err == nil {
			var tools []json.RawMessage
			json.Unmarshal(data, &tools)
			for _, tool := range tools[:min(len(tools), 50)] {
				f.Add([]byte(tool))
			}
			break
		}
	}
	c := new(canonicalizer)
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			c.canonical(data) // must not panic
			return
		}
		checkCanonical(t, c, data)
	})
}

func FuzzToolDigest(f *testing.F) {
	f.Add("get_weather", "Current weather. <b>Bold</b> & more", `{"type":"object","properties":{"city":{"type":"string"}}}`, false)
	f.Add("x\xff", "\u2028", `{"b":1e21,"a":"\ud83d"}`, true)
	f.Add("n", "", `[01, 1.]`, true)
	f.Fuzz(func(t *testing.T, name, desc, schema string, output bool) {
		// Any schema, JSON or not: json.Marshal refuses what is not.
		tool := &mcp.Tool{Name: name, Description: desc, Title: strings.ToUpper(name), InputSchema: json.RawMessage(schema)}
		if output {
			tool.OutputSchema = tool.InputSchema
		}
		if got, want := ToolDigest(tool), referenceDigest(tool); got != want {
			t.Errorf("ToolDigest = %s, want %s", got, want)
		}
	})
}

// plainTool writes mcp.Tool's fields itself: a field added to mcp.Tool must
// be added there too (or make the tool not plain).
func TestPlainToolKnowsEveryField(t *testing.T) {
	var names []string
	for f := range reflect.TypeFor[mcp.Tool]().Fields() {
		names = append(names, f.Name)
	}
	if got, want := strings.Join(names, " "), "Meta Annotations Description InputSchema Name OutputSchema Title Icons"; got != want {
		t.Errorf("mcp.Tool's fields are %s; plainTool knows %s", got, want)
	}
}

// BenchmarkToolDigest digests every tool of the dev split (synthetic tools
// without it), against the round trip it replaces.
func BenchmarkToolDigest(b *testing.B) {
	var tools []*mcp.Tool
	for _, dir := range []string{"../../shared/eval/dev", "../../../shared/eval/dev"} {
		if data, err := os.ReadFile(filepath.Join(dir, "catalog.json")); err == nil {
			tools, _ = toolfile.DecodeTools(data)
			break
		}
	}
	if tools == nil {
		for i := range 1000 {
			tools = append(tools, &mcp.Tool{Name: fmt.Sprintf("tool_%d", i), Description: "Does a thing with a record.",
				InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string","description":"The record's id."},"limit":{"type":"integer","default":10}},"required":["id"]}`)})
		}
	}
	for _, bc := range []struct {
		name   string
		digest func(*mcp.Tool) string
	}{{"canonical", ToolDigest}, {"round-trip", func(t *mcp.Tool) string { return referenceDigest(t) }}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				for _, t := range tools {
					bc.digest(t)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(tools)), "ns/tool")
		})
	}
}

// The digests of upstream prompts, resources and templates are the round
// trip's too, beyond float64 included.
func TestFeatureDigestsMatchTheRoundTrip(t *testing.T) {
	for _, v := range []any{
		&mcp.Prompt{Name: "p", Description: "a \"quoted\" <word>", Arguments: []*mcp.PromptArgument{{Name: "who", Required: true}}, Meta: mcp.Meta{"z": 1, "a": []any{1.5, "\u2028"}}},
		&mcp.Resource{URI: "notes://today", Name: "today", MIMEType: "text/plain", Size: 123456789012345678},
		&mcp.ResourceTemplate{URITemplate: "notes://day/{date}", Name: "day", Meta: mcp.Meta{"big": json.RawMessage(`1e400`)}},
	} {
		if got, want := jsonDigest(v), referenceDigest(v); got != want {
			t.Errorf("jsonDigest(%T) = %s, want %s", v, got, want)
		}
	}
}
