package main

import (
	"io"
	"strings"
	"testing"
	"time"
)

// TestServeMalformedFrames writes malformed lines to the real binary's
// stdin: each is answered with a JSON-RPC error, and the server goes on.
func TestServeMalformedFrames(t *testing.T) {
	t.Parallel()
	r := startRaw(t, "legacy", testSkills(t))
	tests := []struct {
		name, line string
		id         string // as in the response
		code       int
		reason     string
	}{
		{"not JSON", `{"jsonrpc": "2.0", "id": 1, "method": "ping"`, "null", -32700, "not valid JSON"},
		{"batch", `[{"jsonrpc":"2.0","id":2,"method":"ping"}]`, "null", -32600, "batches"},
		{"object id", `{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}`, "null", -32600, `"id" must be a string or a number, not an object`},
		{"no jsonrpc", `{"id":3,"method":"ping"}`, "3", -32600, `"jsonrpc": "2.0" member is missing`},
		{"over 16 MiB", `{"jsonrpc":"2.0","id":4,"method":"ping","params":{"x":"` + strings.Repeat("x", 16<<20) + `"}}`, "null", -32600, "longer than the limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r.t = t
			if _, err := io.WriteString(r.stdin, tt.line+"\n"); err != nil {
				t.Fatalf("the server stopped reading: %v", err)
			}
			m := r.reply(30 * time.Second)
			if m == nil || m.Error == nil {
				t.Fatalf("no error response: %+v", m)
			}
			if id := string(m.ID); id != tt.id || m.Error.Code != tt.code || !strings.Contains(m.Error.Message, tt.reason) {
				t.Errorf("got id %s, code %d, %q; want id %s, code %d, a message with %q", id, m.Error.Code, m.Error.Message, tt.id, tt.code, tt.reason)
			}
			// Still serving.
			if res := r.mustCall("tools/call", map[string]any{"name": "tool_search", "arguments": map[string]any{"query": "pdf form"}}); !strings.Contains(string(res), "pdf-forms") {
				t.Errorf("tool_search after the bad line: %s", res)
			}
		})
	}

	// MCP ids are strings or integers: a fractional one, which the SDK
	// would read as another, is refused with the id as sent; as a string
	// it is served.
	t.Run("fractional id", func(t *testing.T) {
		r.t = t
		io.WriteString(r.stdin, `{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{"name":"tool_search","arguments":{"query":"bisect"}}}`+"\n")
		if m := r.reply(30 * time.Second); m == nil || string(m.ID) != "1.5" || m.Error == nil || !strings.Contains(m.Error.Message, "send it as a string") {
			t.Errorf("got %+v; want an error with id 1.5", m)
		}
		io.WriteString(r.stdin, `{"jsonrpc":"2.0","id":"1.5","method":"tools/call","params":{"name":"tool_search","arguments":{"query":"bisect"}}}`+"\n")
		if m := r.reply(30 * time.Second); m == nil || string(m.ID) != `"1.5"` || !strings.Contains(string(m.Result), "git-bisect") {
			t.Errorf("got %+v; want the result with id \"1.5\"", m)
		}
	})
}
