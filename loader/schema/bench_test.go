package schema

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// BenchmarkValidateWorstCase validates arguments that take nearly MaxSteps
// steps: the most one call_tool may spend on checking its arguments.
func BenchmarkValidateWorstCase(b *testing.B) {
	// Two branches recursing on the items: 2^(depth+1) steps.
	rs, err := Resolve(json.RawMessage(`{"anyOf":[{"items":{"$ref":"#"}},{"items":{"$ref":"#"}}]}`))
	if err != nil {
		b.Fatal(err)
	}
	depth := 13 // about 6·2^13 steps
	inst := decode(b, strings.Repeat("[", depth)+"1"+strings.Repeat("]", depth))
	if err := rs.Validate(inst); err != nil {
		b.Fatal(err)
	}
	c := &coster{g: rs.g}
	c.visit(rs.g.root, inst, 1)
	b.ReportMetric(float64(c.steps), "steps/op")
	for b.Loop() {
		_ = rs.Validate(inst)
	}
}

// BenchmarkValidateTypical validates the arguments of a real tool.
func BenchmarkValidateTypical(b *testing.B) {
	rs, err := Resolve(json.RawMessage(corpus(b)["dev-mcp-server-chart__generate_fishbone_diagram"]))
	if err != nil {
		b.Fatal(err)
	}
	inst := decode(b, `{"data":{"name":"root","children":[{"name":"a","children":[{"name":"a1"},{"name":"a2"}]},{"name":"b"}]},"theme":"default","width":600}`)
	if err := rs.Validate(inst); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_ = rs.Validate(inst)
	}
}

// BenchmarkCheck is the load-time check of one schema without references
// (nearly every tool's) and of one with.
func BenchmarkCheck(b *testing.B) {
	c := corpus(b)
	for _, name := range []string{"everything-trigger-long-running-operation", "dev-mcp-server-chart__generate_fishbone_diagram", "pydantic-create_order"} {
		raw := json.RawMessage(c[name])
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				_ = Check(raw)
			}
		})
	}
}

// BenchmarkCheckRefSchemas checks the seed corpus's real schemas that hold
// a $ref (pydantic-style models under $defs, recursive charts), one after
// another, as the start of a server whose persisted catalog holds such
// tools does. ns/schema times 100,000 is what a catalog of 100,000 of them
// costs at start.
func BenchmarkCheckRefSchemas(b *testing.B) {
	c := corpus(b)
	var schemas []json.RawMessage
	for _, name := range sortedKeys(c) {
		if strings.HasPrefix(name, "hostile-") || !MayCycle(c[name]) {
			continue
		}
		var compact bytes.Buffer
		_ = json.Compact(&compact, c[name]) // as the catalog keeps them
		schemas = append(schemas, compact.Bytes())
	}
	if len(schemas) < 5 {
		b.Fatalf("%d schemas with references in the corpus", len(schemas))
	}
	for b.Loop() {
		for _, s := range schemas {
			if err := Check(s); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(schemas)), "ns/schema")
	b.ReportMetric(float64(len(schemas)), "schemas")
}

// BenchmarkCheckCatalog checks the input schemas of the dev split's 2,102
// real tools, as a catalog's load does (../shared/eval/dev beside the
// repository; skipped without it).
func BenchmarkCheckCatalog(b *testing.B) {
	data, err := os.ReadFile("../../../shared/eval/dev/catalog.json")
	if err != nil {
		b.Skip("no dev catalog:", err)
	}
	var tools []struct {
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if err := json.Unmarshal(data, &tools); err != nil {
		b.Fatal(err)
	}
	schemas := make([]json.RawMessage, len(tools))
	decoded := 0
	for i, t := range tools {
		var c bytes.Buffer
		_ = json.Compact(&c, t.InputSchema) // as the catalog keeps them
		schemas[i] = c.Bytes()
		if MayCycle(schemas[i]) {
			decoded++
		}
	}
	for b.Loop() {
		for _, s := range schemas {
			_ = Check(s)
		}
	}
	b.ReportMetric(float64(decoded), "decoded/op")
}
