package relay

import (
	"context"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// parkedCaller passes requests to a 2026-07-28 client as input requests of
// its call's result, and progress and log messages to the client request
// waiting on the call, if one is.
type parkedCaller struct {
	call  *call
	caps  *mcp.ClientCapabilities // the first request's
	token any                     // the first request's progress token

	mu      sync.Mutex
	current *waiting // the client request waiting on the call, if any
}

type waiting struct {
	ctx   context.Context
	ss    *mcp.ServerSession
	token any
}

func (c *parkedCaller) attach(ctx context.Context, req Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.current = &waiting{ctx: ctx, ss: req.Session, token: progressToken(req.Meta)}
}

func (c *parkedCaller) detach() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.current = nil
}

func (c *parkedCaller) waiter() *waiting {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.current
}

func (c *parkedCaller) Elicit(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	if err := checkElicit(c.caps, p); err != nil {
		return nil, err
	}
	return ask[*mcp.ElicitResult](ctx, c.call, p)
}

func (c *parkedCaller) CreateMessage(ctx context.Context, p *mcp.CreateMessageWithToolsParams) (*mcp.CreateMessageWithToolsResult, error) {
	if err := checkSampling(c.caps, p); err != nil {
		return nil, err
	}
	return ask[*mcp.CreateMessageWithToolsResult](ctx, c.call, p)
}

func (c *parkedCaller) ListRoots(ctx context.Context, p *mcp.ListRootsParams) (*mcp.ListRootsResult, error) {
	if err := checkRoots(c.caps); err != nil {
		return nil, err
	}
	if p == nil {
		p = &mcp.ListRootsParams{}
	}
	return ask[*mcp.ListRootsResult](ctx, c.call, p)
}

// ask files an input request with the call and waits for the client's
// answer, which its retry brings.
func ask[R mcp.InputResponse](ctx context.Context, c *call, p mcp.InputRequest) (R, error) {
	var zero R
	in := &input{params: p, answer: make(chan answer, 1)}
	c.mu.Lock()
	c.nextID++
	id := fmt.Sprintf("input-%d", c.nextID)
	c.pending[id] = in
	c.mu.Unlock()
	select {
	case c.asked <- struct{}{}:
	default: // one signal pending is enough
	}
	select {
	case a := <-in.answer:
		if a.err != nil {
			return zero, a.err
		}
		resp, ok := a.resp.(R)
		if !ok {
			return zero, fmt.Errorf("the client answered input request %q with %T, want %T", id, a.resp, zero)
		}
		return resp, nil
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
		return zero, ctx.Err()
	}
}

// Progress goes to the client request waiting on the call, under its own
// token; between requests there is nobody to tell.
func (c *parkedCaller) Progress(_ context.Context, p *mcp.ProgressNotificationParams) {
	if w := c.waiter(); w != nil && w.token != nil {
		mapped := *p
		mapped.ProgressToken = w.token
		_ = w.ss.NotifyProgress(w.ctx, &mapped)
	}
}

// Log goes to the client request waiting on the call, at the level it
// asked for in its _meta.
func (c *parkedCaller) Log(_ context.Context, p *mcp.LoggingMessageParams) {
	if w := c.waiter(); w != nil {
		_ = w.ss.Log(w.ctx, p)
	}
}

// ElicitationComplete has no way to a 2026-07-28 client outside a request.
func (c *parkedCaller) ElicitationComplete(context.Context, *mcp.ElicitationCompleteParams) {}

func (c *parkedCaller) ProgressToken() any { return c.token }

// Recipient is the call itself: a 2026-07-28 client has no session that
// two calls could share.
func (c *parkedCaller) Recipient() any { return c.call }
