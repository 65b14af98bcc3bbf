package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/fastjson"
	"github.com/toolsearch/toolsearch/internal/jsonstream"
	"github.com/toolsearch/toolsearch/loader/toolfile"
)

// listingTransport reads the pages of a tools/list as the server wrote them,
// before the client does. The go-sdk client decodes every schema of a page
// into maps and then checks each tool's x-mcp-header annotations by encoding
// its schema again and decoding it with a fresh decoder that allocates
// 32 KB: 3 GB of garbage, and seconds of collection, to list 100,000 tools.
// A page read here keeps its schemas as JSON, packed, and the client gets
// the page without its tools, so that it has nothing to decode or check;
// list takes the tools from here.
//
// A page is left to the client whole whenever it is not sure to come out
// the same: a schema with an x-mcp-header annotation (the client's check
// decides which tools go), a page it cannot read, or a session of protocol
// 2026-07-28 or later, whose client keeps list results to answer later
// requests from.
type listingTransport struct {
	mcp.Transport

	mu      sync.Mutex
	enabled bool                // set by list for sessions of older protocols
	pending map[jsonrpc.ID]bool // tools/list requests sent
	page    []*mcp.Tool         // the tools of the last page read here
	read    bool                // page holds a page not yet taken
	// pack packs the schemas of one listing's pages side by side.
	pack *toolfile.SchemaPacker
}

func (t *listingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &listingConn{Connection: conn, t: t}, nil
}

// enable turns the reading on or off for the requests that follow; each
// time it is turned on, a new listing begins. A nil transport (a
// connection not read here) stays off.
func (t *listingTransport) enable(on bool) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.enabled = on
	t.pack = nil
	if on {
		t.pack = new(toolfile.SchemaPacker)
	}
}

// take returns the tools of the page last read here, once.
func (t *listingTransport) take() ([]*mcp.Tool, bool) {
	if t == nil {
		return nil, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	page, ok := t.page, t.read
	t.page, t.read = nil, false
	return page, ok
}

type listingConn struct {
	mcp.Connection
	t *listingTransport
}

func (c *listingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "tools/list" && req.ID.IsValid() {
		c.t.mu.Lock()
		if c.t.enabled {
			if c.t.pending == nil {
				c.t.pending = map[jsonrpc.ID]bool{}
			}
			c.t.pending[req.ID] = true
		}
		c.t.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

func (c *listingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	resp, ok := msg.(*jsonrpc.Response)
	if err != nil || !ok || resp.Error != nil {
		return msg, err
	}
	c.t.mu.Lock()
	pending, pack := c.t.pending[resp.ID], c.t.pack
	delete(c.t.pending, resp.ID)
	c.t.mu.Unlock()
	if !pending || pack == nil {
		return msg, err
	}
	if tools, rest, ok := splitPage(resp.Result, pack); ok {
		c.t.mu.Lock()
		c.t.page, c.t.read = tools, true
		c.t.mu.Unlock()
		resp.Result = rest
	}
	return msg, err
}

// splitPage reads the tools of a tools/list result, packing their schemas
// with pack, and returns them with the result without them ("tools": []),
// or false to leave the result as it is.
func splitPage(result json.RawMessage, pack *toolfile.SchemaPacker) (tools []*mcp.Tool, rest json.RawMessage, ok bool) {
	var fields map[string]json.RawMessage
	if fastjson.Unmarshal(result, &fields) != nil {
		return nil, nil, false
	}
	raw, found := fields["tools"]
	if !found || bytes.Contains(raw, []byte("x-mcp-header")) {
		return nil, nil, false
	}
	tools, err := toolfile.ReadListedTools(jsonstream.NewReader(bytes.NewReader(raw)), pack)
	if err != nil {
		return nil, nil, false
	}
	fields["tools"] = json.RawMessage("[]")
	if rest, err = json.Marshal(fields); err != nil {
		return nil, nil, false
	}
	return tools, rest, true
}
