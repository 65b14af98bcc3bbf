package web

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/server"
	"github.com/toolsearch/toolsearch/server/internal/mcptest"
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
func testCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	c := catalog.New(server.ReservedNames...)
	echo := &mcp.Tool{Name: "echo", Description: "Echo a message back.", InputSchema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`)}
	ping := &mcp.Tool{Name: "ping", Description: "Check the server answers.", InputSchema: json.RawMessage(`{"type":"object"}`)}
	c.Put(&catalog.Source{Name: "srv", Kind: catalog.SourceServer, State: catalog.StateActive, Entries: []*catalog.Entry{catalog.NewToolEntry("srv", "srv__echo", echo), catalog.NewToolEntry("srv", "srv__ping", ping)}})
	c.Put(&catalog.Source{Name: "dump", Kind: catalog.SourceTools, Entries: []*catalog.Entry{catalog.NewToolEntry("dump", "static_tool", &mcp.Tool{Name: "static_tool", Description: "A static tool.", InputSchema: json.RawMessage(`{"type":"object"}`)})}})
	return c
}

// The helpers the tests of server's packages share.
var (
	callText  = mcptest.CallText
	toolNames = mcptest.ToolNames
)
