package web

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/server"
)

// fakeUpstreams records calls and answers with an echo.
type fakeUpstreams struct {
	mu    sync.Mutex
	calls []string
}

func (f *fakeUpstreams) Call(ctx context.Context, server, tool string, args json.RawMessage) (*mcp.CallToolResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, server+"/"+tool+" "+string(args))
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo " + string(args)}}}, nil
}

// testCatalog has one upstream server with two tools and a static tools
// file.
func testCatalog(t *testing.T) *loader.Catalog {
	t.Helper()
	c := loader.NewCatalog(server.ReservedNames...)
	echo := &mcp.Tool{Name: "echo", Description: "Echo a message back.", InputSchema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`)}
	ping := &mcp.Tool{Name: "ping", Description: "Check the server answers.", InputSchema: json.RawMessage(`{"type":"object"}`)}
	c.Put(&loader.Source{Name: "srv", Kind: loader.SourceServer, State: loader.StateActive, Entries: []*loader.Entry{loader.NewToolEntry("srv", "srv__echo", echo), loader.NewToolEntry("srv", "srv__ping", ping)}})
	c.Put(&loader.Source{Name: "dump", Kind: loader.SourceTools, Entries: []*loader.Entry{loader.NewToolEntry("dump", "static_tool", &mcp.Tool{Name: "static_tool", Description: "A static tool.", InputSchema: json.RawMessage(`{"type":"object"}`)})}})
	return c
}

func callText(t *testing.T, cs *mcp.ClientSession, name string, args any) (string, *mcp.CallToolResult) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res
}

func toolNames(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return strings.Join(names, ",")
}
