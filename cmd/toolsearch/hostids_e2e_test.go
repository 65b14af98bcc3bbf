package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// claudeMeta is the _meta Claude Code sends with every request of the
// 2026-07-28 protocol.
var claudeMeta = map[string]any{
	"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
	"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "claude-code", "version": "2.1.332"},
	"io.modelcontextprotocol/clientCapabilities": map[string]any{"roots": map[string]any{}},
}

// subscriptionOf returns the subscription id a message's _meta names, in
// its params or its result, or nil.
func subscriptionOf(t *testing.T, m *rawMessage) json.RawMessage {
	t.Helper()
	var v struct {
		Params struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"params"`
		Result struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(m.Line), &v); err != nil {
		t.Fatalf("decoding %s: %v", m.Line, err)
	}
	if id, ok := v.Params.Meta["io.modelcontextprotocol/subscriptionId"]; ok {
		return id
	}
	return v.Result.Meta["io.modelcontextprotocol/subscriptionId"]
}

// TestClaudeCodeHandshakeIDs replays Claude Code's opening over stdio
// (server/discover, then subscriptions/listen with the id "listen:0",
// then tools/list) and a change of the listing, and checks that every id
// the server sends back is the client's own: the transport renumbered
// requests, the SDK wrote its number into the listen's acknowledgement,
// and Claude Code, waiting for "listen:0", gave up after 27 s.
func TestClaudeCodeHandshakeIDs(t *testing.T) {
	t.Parallel()
	root := testSkills(t)
	r := startServe(t, root)
	// want reads messages until the one that answers or carries what is
	// sought, and checks every id on the way.
	want := func(what string, match func(m *rawMessage) bool) *rawMessage {
		t.Helper()
		for {
			m := r.next(30 * time.Second)
			if m == nil {
				t.Fatalf("no %s", what)
			}
			if m.Method == "" && !strings.Contains(`0 "listen:0" "tools:1"`, string(m.ID)) {
				t.Errorf("a response with id %s, which the client never sent: %s", m.ID, m.Line)
			}
			if id := subscriptionOf(t, m); id != nil && string(id) != `"listen:0"` {
				t.Errorf("%s names the subscription %s, not the client's \"listen:0\": %s", what, id, m.Line)
			}
			if match(m) {
				return m
			}
		}
	}
	response := func(id string) func(*rawMessage) bool {
		return func(m *rawMessage) bool { return m.Method == "" && string(m.ID) == id }
	}
	note := func(method string) func(*rawMessage) bool {
		return func(m *rawMessage) bool { return m.Method == method }
	}
	withMeta := func(p map[string]any) map[string]any {
		p["_meta"] = claudeMeta
		return p
	}

	r.send(map[string]any{"jsonrpc": "2.0", "id": 0, "method": "server/discover", "params": withMeta(map[string]any{})})
	want("server/discover's answer", response("0"))
	r.send(map[string]any{"jsonrpc": "2.0", "id": "listen:0", "method": "subscriptions/listen", "params": withMeta(map[string]any{
		"notifications": map[string]any{"toolsListChanged": true, "promptsListChanged": true, "resourcesListChanged": true},
	})})
	ack := want("acknowledgement", note("notifications/subscriptions/acknowledged"))
	if id := subscriptionOf(t, ack); string(id) != `"listen:0"` {
		t.Errorf("the acknowledgement names no subscription: %s", ack.Line)
	}
	r.send(map[string]any{"jsonrpc": "2.0", "id": "tools:1", "method": "tools/list", "params": withMeta(map[string]any{})})
	if list := want("tools/list's answer", response(`"tools:1"`)); !strings.Contains(list.Line, `"tool_search"`) {
		t.Errorf("tools/list: %s", list.Line)
	}

	writeFile(t, root, "csv-clean/SKILL.md", "---\nname: csv-clean\ndescription: Clean messy CSV files.\n---\n# Clean\n")
	changed := want("notifications/tools/list_changed", note("notifications/tools/list_changed"))
	if id := subscriptionOf(t, changed); string(id) != `"listen:0"` {
		t.Errorf("the change names no subscription: %s", changed.Line)
	}

	r.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": map[string]any{"requestId": "listen:0"}})
	end := want("the listen's end", response(`"listen:0"`))
	if id := subscriptionOf(t, end); string(id) != `"listen:0"` {
		t.Errorf("the listen's result names no subscription: %s", end.Line)
	}
}
