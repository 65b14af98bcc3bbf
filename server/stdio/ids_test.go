package stdio

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addEchoTools adds the tools that send the client what carries an id
// besides a response: "progress" reports progress on the call's token,
// "roots" asks the client for its roots (a request of the server's own,
// which the client answers by its id).
// The resource test://r is there to be subscribed to.
func addEchoTools(srv *mcp.Server) {
	srv.AddResource(&mcp.Resource{URI: "test://r", Name: "r"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "test://r", Text: "r"}}}, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "progress"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: 1, Total: 1})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, err
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "roots"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		res, err := req.Session.ListRoots(ctx, nil)
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Roots[0].URI}}}, nil, nil
	})
}

// modernMeta is the _meta of every request on 2026-07-28, as Claude Code
// sends it.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"claude-code","version":"2.1.332"},"io.modelcontextprotocol/clientCapabilities":{"roots":{}}}`

// idValue is an id as a JSON value, spelling aside: 1e3 and 1000 are one.
func idValue(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "unreadable " + string(raw)
	}
	return fmt.Sprintf("%T %v", v, v)
}

// idsIn returns where a message carries an id back to the client, and
// which: a response's id, a subscription's id in _meta, a progress token.
func idsIn(t *testing.T, line string) map[string]json.RawMessage {
	t.Helper()
	found := map[string]json.RawMessage{}
	if strings.HasPrefix(line, "[") { // a batch's responses
		var all []json.RawMessage
		if err := json.Unmarshal([]byte(line), &all); err != nil {
			t.Fatalf("the server wrote %s: %v", line, err)
		}
		for i, m := range all {
			for where, id := range idsIn(t, string(m)) {
				found[fmt.Sprintf("in the batch's response %d, %s", i, where)] = id
			}
		}
		return found
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Meta          map[string]json.RawMessage `json:"_meta"`
			ProgressToken json.RawMessage            `json:"progressToken"`
		} `json:"params"`
		Result struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("the server wrote %s: %v", line, err)
	}
	if m.Method == "" {
		found["the response's id"] = m.ID
	}
	if id, ok := m.Params.Meta[mcp.MetaKeySubscriptionID]; ok {
		found[m.Method+"'s subscriptionId"] = id
	}
	if id, ok := m.Result.Meta[mcp.MetaKeySubscriptionID]; ok {
		found["the result's subscriptionId"] = id
	}
	if m.Params.ProgressToken != nil {
		found[m.Method+"'s progressToken"] = m.Params.ProgressToken
	}
	return found
}

// expect reads lines until one contains want, and checks that every id
// they carry back is id, the client's.
func (w *wire) expect(id, want string) string {
	w.t.Helper()
	for {
		line := w.recv()
		for where, got := range idsIn(w.t, line) {
			if idValue(got) != idValue(json.RawMessage(id)) {
				w.t.Errorf("%s is %s, not the client's id %s: %s", where, got, id, line)
			}
		}
		if strings.Contains(line, want) {
			return line
		}
	}
}

// TestClientIDsComeBack: on every protocol era, every id the server writes
// where a client looks for one of its own (responses, the _meta of a
// listen's acknowledgement, notifications and result, progress tokens) is
// the client's. The transport gave each request an id of its own, which
// the SDK wrote into _meta, and Claude Code, waiting for "listen:0", never
// saw its subscription acknowledged.
func TestClientIDsComeBack(t *testing.T) {
	ids := []string{`"listen:0"`, `0`, `-7`, `1e3`, `"\u0041"`, `9007199254740991`, `""`}
	eras := []struct {
		name string
		run  func(w *wire, id string)
	}{
		{"2026-07-28", func(w *wire, id string) {
			w.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"server/discover","params":{` + modernMeta + `}}`)
			w.expect(id, `"supportedVersions"`)
			w.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true,"resourceSubscriptions":["test://r"]},` + modernMeta + `}}`)
			w.expect(id, `"notifications/subscriptions/acknowledged"`)
			mcp.AddTool(w.srv, &mcp.Tool{Name: "added"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
				return nil, nil, nil
			})
			w.expect(id, `"notifications/tools/list_changed"`)
			if err := w.srv.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: "test://r"}); err != nil {
				w.t.Fatal(err)
			}
			w.expect(id, `"notifications/resources/updated"`)
			w.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `}}`)
			w.expect(id, `"result"`) // the listen's end, with its subscriptionId
			w.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"progress",` + strings.Replace(modernMeta, `{`, `{"progressToken":`+id+`,`, 1) + `}}`)
			w.expect(id, `"done"`)
		}},
		{"2025-11-25", func(w *wire, id string) {
			w.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"t","version":"1"}}}`)
			w.expect(id, `"protocolVersion"`)
			w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			w.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"resources/subscribe","params":{"uri":"test://r"}}`)
			w.expect(id, `"result"`)
			w.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":` + id + `}}}`)
			w.expect(id, `"done"`)
			w.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"roots"}}`)
			asked := decodeRequest(w.t, w.recv()) // the server's own request, by its own id
			w.send(`{"jsonrpc":"2.0","id":` + string(asked.ID) + `,"result":{"roots":[{"uri":"file:///root"}]}}`)
			w.expect(id, `file:///root`)
		}},
		{"2025-03-26 batch", func(w *wire, id string) {
			w.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
			w.expect(id, `"protocolVersion"`)
			w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			w.send(`[{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":` + id + `}}}]`)
			if batch := w.expect(id, `"done"`); !strings.HasPrefix(batch, "[") {
				w.t.Errorf("the batch's answer: %s", batch)
			}
		}},
	}
	for _, era := range eras {
		for _, id := range ids {
			t.Run(era.name+"/"+id, func(t *testing.T) {
				w := newWire(t, 0)
				era.run(w, id)
				w.alive()
			})
		}
	}
}

// decodeRequest decodes a request of the server's.
func decodeRequest(t *testing.T, line string) (req struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}) {
	t.Helper()
	if err := json.Unmarshal([]byte(line), &req); err != nil || req.Method == "" || req.ID == nil {
		t.Fatalf("not a request of the server's: %s", line)
	}
	return req
}
