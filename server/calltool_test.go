package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
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
	var entries []*catalog.Entry
	for name, s := range schemas {
		e := catalog.NewToolEntry("srv", "srv__"+name, &mcp.Tool{Name: name, Description: "A tool."})
		e.Tool.InputSchema = s // as a source might leave it, default or not
		entries = append(entries, e)
	}
	cs, up := serveSrv(t, entries)

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

// Tool names are case-sensitive, as MCP's are: a server's calculate_bmi and
// calculate_BMI are two tools, each called by its own name. A name that matches
// them only when case is ignored is refused with both to choose from, and one
// that matches a single tool so still reaches it.
func TestCallToolCaseVariants(t *testing.T) {
	var entries []*catalog.Entry
	for _, name := range []string{"calculate_bmi", "calculate_BMI", "echo"} {
		entries = append(entries, catalog.NewToolEntry("srv", "srv__"+name, &mcp.Tool{Name: name, Description: "A tool.", InputSchema: map[string]any{"type": "object"}}))
	}
	cs, up := serveSrv(t, entries)

	tests := []struct {
		name     string
		upstream string // the tool called, "" when refused
		refusal  string
	}{
		{"srv__calculate_bmi", "calculate_bmi", ""},
		{"srv__calculate_BMI", "calculate_BMI", ""},
		{"calculate_BMI", "calculate_BMI", ""}, // the upstream's own name, written exactly
		{"srv__Calculate_Bmi", "", "call one of srv__calculate_BMI, srv__calculate_bmi"},
		{"Calculate_Bmi", "", "call one of srv__calculate_BMI, srv__calculate_bmi"},
		{"SRV__ECHO", "echo", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			up.calls = nil
			text, res := callText(t, cs, CallTool, map[string]any{"name": tt.name, "arguments": map[string]any{}})
			if tt.upstream == "" {
				if !res.IsError || !strings.Contains(text, tt.refusal) {
					t.Errorf("result %q, want a refusal saying %q", text, tt.refusal)
				}
				if len(up.calls) != 0 {
					t.Errorf("upstream calls = %q", up.calls)
				}
				return
			}
			if res.IsError {
				t.Fatalf("refused: %s", text)
			}
			if want := "srv/" + tt.upstream + " {}"; len(up.calls) != 1 || up.calls[0] != want {
				t.Errorf("upstream calls = %q, want %q", up.calls, want)
			}
		})
	}
}

// serveSrv serves a catalog of one active server, srv, with the entries, to a
// connected client, and returns the client and the upstream calls go to.
func serveSrv(t *testing.T, entries []*catalog.Entry) (*mcp.ClientSession, *fakeUpstreams) {
	t.Helper()
	c := catalog.New(ReservedNames...)
	c.Put(&catalog.Source{Name: "srv", Kind: catalog.SourceServer, State: catalog.StateActive, Entries: entries})
	up := &fakeUpstreams{}
	s, err := New(c, Options{ListingBudget: DefaultListingBudget, Upstreams: up})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	cs, _ := connectClient(t, s, "")
	return cs, up
}
