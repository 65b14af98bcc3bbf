package stdiobridge

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The lists whose changes the server announces.
type list int

const (
	listTools list = iota
	listPrompts
	listResources
)

// placeholder names a feature added to the served MCP server and removed
// at once, only for the change notification the go-sdk then sends every
// session: it has no other way to send one. The bridge answers every list
// itself (see forward), so no client ever sees it.
const placeholder = "toolsearch-bridge-list-changed"

// listChanged tells every client that the server's list l changed.
func (b *Bridge) listChanged(l list) {
	switch l {
	case listTools:
		b.srv.AddTool(&mcp.Tool{Name: placeholder, InputSchema: map[string]any{"type": "object"}}, placeholderTool)
		b.srv.RemoveTools(placeholder)
	case listPrompts:
		b.srv.AddPrompt(&mcp.Prompt{Name: placeholder}, placeholderPrompt)
		b.srv.RemovePrompts(placeholder)
	case listResources:
		b.srv.AddResource(&mcp.Resource{Name: placeholder, URI: "toolsearch-bridge:list-changed"}, placeholderResource)
		b.srv.RemoveResources("toolsearch-bridge:list-changed")
	}
}

func placeholderTool(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return nil, errNoClient
}

func placeholderPrompt(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	return nil, errNoClient
}

func placeholderResource(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	return nil, errNoClient
}

// subscriptions counts the clients subscribed to each resource: the
// server is subscribed once, by the first, and unsubscribed by the last;
// the go-sdk keeps which sessions get each resource's updates.
type subscriptions struct {
	mu    sync.Mutex
	count map[string]int
}

func (b *Bridge) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	s := &b.subs
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.count == nil {
		s.count = map[string]int{}
	}
	if s.count[req.Params.URI] == 0 {
		if err := b.up.Subscribe(ctx, req.Params); err != nil {
			return err
		}
	}
	s.count[req.Params.URI]++
	return nil
}

func (b *Bridge) unsubscribe(ctx context.Context, req *mcp.UnsubscribeRequest) error {
	s := &b.subs
	s.mu.Lock()
	defer s.mu.Unlock()
	switch s.count[req.Params.URI] {
	case 0:
		return nil
	case 1:
		if err := b.up.Unsubscribe(ctx, req.Params); err != nil {
			return err
		}
		delete(s.count, req.Params.URI)
	default:
		s.count[req.Params.URI]--
	}
	return nil
}
