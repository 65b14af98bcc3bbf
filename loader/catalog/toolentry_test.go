package catalog

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// However a tool comes without an input schema, its entry takes any object.
func TestToolEntryWithoutSchema(t *testing.T) {
	for _, s := range []any{nil, json.RawMessage("null")} {
		tool := &mcp.Tool{Name: "t", InputSchema: s}
		e := NewToolEntry("src", "src__t", tool)
		if got, _ := json.Marshal(e.Tool.InputSchema); string(got) != `{"type":"object"}` {
			t.Errorf("%#v: entry schema %s", s, got)
		}
		if tool.InputSchema != nil && string(tool.InputSchema.(json.RawMessage)) != "null" {
			t.Error("the caller's tool was changed")
		}
		if e.Digest != ToolDigest(&mcp.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`)}) {
			t.Error("digest is not that of the defaulted tool")
		}
	}
}

// TestToolEntrySharesDefinition: an entry shares its tool's definition
// whatever name it is exposed under (a server's 100,000 tools were each
// copied to be renamed, 13 MB), Exposed gives it under the exposed name
// (a copy only for another name), and neither alters the caller's.
func TestToolEntrySharesDefinition(t *testing.T) {
	for _, exposed := range []string{"t", "src__t"} {
		tool := &mcp.Tool{Name: "t", Description: "Does t.", InputSchema: json.RawMessage(`{"type":"object"}`)}
		e := NewToolEntry("src", exposed, tool)
		if e.Tool != tool {
			t.Errorf("exposed as %q: the entry holds a copy of the caller's definition", exposed)
		}
		if d := e.Exposed(); (d == tool) != (exposed == tool.Name) || d.Name != exposed || d.Description != tool.Description {
			t.Errorf("exposed as %q: Exposed gives %q, %q (the caller's: %v)", exposed, d.Name, d.Description, d == tool)
		}
		if tool.Name != "t" {
			t.Errorf("exposed as %q: the caller's tool was renamed to %q", exposed, tool.Name)
		}
	}
}
