package upstream

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// listWithSchemas makes the fake server list the named tools with the given
// input schemas, whatever they were added with: the SDK's server would not
// serve some of them.
func (f *fakeServer) listWithSchemas(schemas map[string]any) {
	f.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil {
				for _, t := range lr.Tools {
					if s, ok := schemas[t.Name]; ok {
						t.InputSchema = s
					}
				}
			}
			return res, err
		}
	})
}

// A tool whose input schema cycles without consuming input is refused with
// the reason, in the catalog, before anything can call it; a tool without
// a schema takes any object.
func TestToolSchemasAtListing(t *testing.T) {
	e := newEnv(t)
	f := e.add("srv", nil)
	for _, name := range []string{"self", "defs", "fine", "recursive", "none"} {
		f.addEcho(name, "A tool.")
	}
	f.listWithSchemas(map[string]any{
		"self":      json.RawMessage(`{"$ref":"#"}`),
		"defs":      json.RawMessage(`{"$defs":{"a":{"allOf":[{"$ref":"#/$defs/b"}]},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`),
		"recursive": json.RawMessage(`{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#"}}}}`),
		"none":      nil,
	})
	m := e.start()
	src := waitSource(t, e.catalog, "srv", "active", inState(catalog.StateActive))
	if got := strings.Join(entryNames(src), ","); got != "srv__fine,srv__none,srv__recursive" {
		t.Errorf("entries %s", got)
	}
	reasons := map[string]string{}
	for _, r := range src.Refused {
		reasons[r.Entry.Name] = r.Reason
	}
	for name, want := range map[string]string{
		"srv__self": "its inputSchema cannot be checked: the input schema refers to itself (# → #)",
		"srv__defs": "cycle (#/$defs/a → #/$defs/a/allOf/0 → #/$defs/b → #/$defs/a)",
	} {
		if !strings.Contains(reasons[name], want) {
			t.Errorf("%s refused for %q, want %q", name, reasons[name], want)
		}
	}
	none, _ := e.catalog.Snapshot().Lookup("srv__none")
	if got, _ := json.Marshal(none.Tool.InputSchema); string(got) != `{"type":"object"}` {
		t.Errorf("a tool listed without a schema has %s", got)
	}
	if _, err := m.Call(context.Background(), "srv", "none", json.RawMessage(`{"a":1}`)); err != nil {
		t.Error(err)
	}
}
