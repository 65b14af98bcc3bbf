package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader"
)

// An upstream's schema can neither crash toolsearch nor keep a tool from
// being called: schemas that refer to themselves without consuming input
// overflowed the validator's stack, a fatal error; a missing or null schema
// refused every call ("validating root: not").
func TestCallToolWithHostileSchemas(t *testing.T) {
	schemas := map[string]any{
		"self":        json.RawMessage(`{"$ref":"#"}`),
		"allof":       json.RawMessage(`{"type":"object","allOf":[{"$ref":"#"}]}`),
		"defs":        json.RawMessage(`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`),
		"exponential": json.RawMessage(`{"type":"object","additionalProperties":{"anyOf":[{"items":{"$ref":"#/additionalProperties"}},{"items":{"$ref":"#/additionalProperties"}},{"items":{"$ref":"#/additionalProperties"}}]}}`),
		"missing":     nil,
		"null":        json.RawMessage(`null`),
	}
	c := loader.NewCatalog(ReservedNames...)
	var entries []*loader.Entry
	for name, s := range schemas {
		e := loader.NewToolEntry("srv", "srv__"+name, &mcp.Tool{Name: name, Description: "A tool."})
		e.Tool.InputSchema = s // as a source might leave it, default or not
		entries = append(entries, e)
	}
	c.Put(&loader.Source{Name: "srv", Kind: loader.SourceServer, State: loader.StateActive, Entries: entries})
	up := &fakeUpstreams{}
	s, err := New(c, Options{ListingBudget: DefaultListingBudget, Upstreams: up})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cs, _ := connectClient(t, s, "")

	deep := strings.Repeat("[", 40) + strings.Repeat("]", 40)
	for name := range schemas {
		t.Run(name, func(t *testing.T) {
			args := map[string]any{"x": json.RawMessage(deep)}
			text, res := callText(t, cs, CallTool, map[string]any{"name": "srv__" + name, "arguments": args})
			if res.IsError {
				t.Errorf("refused: %s", text)
			}
		})
	}
	if len(up.calls) != len(schemas) {
		t.Errorf("upstream calls = %q", up.calls)
	}

	// The default schema still wants an object, and says so with itself.
	text, res := callText(t, cs, CallTool, map[string]any{"name": "srv__missing", "arguments": "a string"})
	if !res.IsError || !strings.Contains(text, "arguments must be a JSON object") {
		t.Errorf("a string for a tool without a schema: %q", text)
	}
}
