package main

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/server"
)

// TestBridgedServerHeldEndToEnd: a stdio entry whose arguments name the
// remote server it bridges to (as `npx -y mcp-remote URL` does) is held as
// a remote server: its read-only tool is not run through call_tool_read
// before a person approves it, and the catalog says why. It counted as
// stdio, and its first listing, readOnlyHint included, was trusted.
func TestBridgedServerHeldEndToEnd(t *testing.T) {
	e := newTrustEnv(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The stand-in bridge ignores its argument; what counts is the line.
	mcpJSON, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"calc": map[string]any{
		"command": exe, "args": []string{"https://calc.example/mcp"}, "env": map[string]string{runAsFlipServer: e.defs}}}})
	writeFile(t, e.dir, "mcp.json", string(mcpJSON))
	e.setTools(`[{"name": "add", "description": "Adds two numbers.", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}]`)

	s := e.serve()
	text := waitForCall(t, s, "the bridged server's listing", "tool_search", map[string]any{"query": "add two numbers"}, contains("calc__add"))
	// call_tool_read is not even listed while nothing read-only is
	// trusted: an error is a refusal too.
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: server.CallToolRead, Arguments: map[string]any{"name": "calc__add", "arguments": map[string]any{}}})
	if err == nil && !res.IsError {
		got, _ := json.Marshal(res.Content)
		t.Errorf("call_tool_read ran the bridged server's tool before anybody approved it: %s\n(search said:\n%s)", got, text)
	}
	out, err := e.cli("catalog")
	if err != nil || !strings.Contains(out, "a bridge to a remote server") || !strings.Contains(out, "quarantined") {
		t.Errorf("catalog: %v\n%s", err, out)
	}
}
