package relay

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionCaller passes requests to a client of a protocol before
// 2026-07-28 as requests of their own, in the context of the client's
// request: over Streamable HTTP they go out on that request's stream.
type sessionCaller struct {
	ctx   context.Context // the client request's
	ss    *mcp.ServerSession
	token any
}

// within returns the client request's context, ended also when the
// upstream's request ends (ctx).
func (c *sessionCaller) within(ctx context.Context) (context.Context, context.CancelFunc) {
	out, cancel := context.WithCancelCause(c.ctx)
	stop := context.AfterFunc(ctx, func() { cancel(context.Cause(ctx)) })
	return out, func() { stop(); cancel(context.Canceled) }
}

func (c *sessionCaller) Elicit(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	if err := checkElicit(capabilities(c.ss), p); err != nil {
		return nil, err
	}
	ctx, cancel := c.within(ctx)
	defer cancel()
	return c.ss.Elicit(ctx, p)
}

func (c *sessionCaller) CreateMessage(ctx context.Context, p *mcp.CreateMessageWithToolsParams) (*mcp.CreateMessageWithToolsResult, error) {
	if err := checkSampling(capabilities(c.ss), p); err != nil {
		return nil, err
	}
	ctx, cancel := c.within(ctx)
	defer cancel()
	return c.ss.CreateMessageWithTools(ctx, p)
}

func (c *sessionCaller) ListRoots(ctx context.Context, p *mcp.ListRootsParams) (*mcp.ListRootsResult, error) {
	if err := checkRoots(capabilities(c.ss)); err != nil {
		return nil, err
	}
	ctx, cancel := c.within(ctx)
	defer cancel()
	return c.ss.ListRoots(ctx, p)
}

func (c *sessionCaller) Progress(_ context.Context, p *mcp.ProgressNotificationParams) {
	if c.token != nil {
		_ = c.ss.NotifyProgress(c.ctx, p)
	}
}

// Log sends a log message if the client asked for its level
// (logging/setLevel).
func (c *sessionCaller) Log(_ context.Context, p *mcp.LoggingMessageParams) {
	_ = c.ss.Log(c.ctx, p)
}

func (c *sessionCaller) ElicitationComplete(ctx context.Context, p *mcp.ElicitationCompleteParams) {
	_ = c.ss.NotifyElicitationComplete(context.WithoutCancel(ctx), p)
}

func (c *sessionCaller) ProgressToken() any { return c.token }

// Recipient is the session: requests the upstream does not tie to one of
// its calls may go to any of them.
func (c *sessionCaller) Recipient() any { return c.ss }
