package stdiobridge

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// forward is the served MCP server's receiving middleware: every request
// about the server's features goes to the server's session, for the client
// it came from (see relay), and its answer comes back unchanged. The
// go-sdk itself answers initialize, ping, logging/setLevel (per client;
// see setLevel) and resources/subscribe (see subscribe).
func (b *Bridge) forward(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ss, _ := req.GetSession().(*mcp.ServerSession)
		switch method {
		case "tools/list":
			p, _ := req.GetParams().(*mcp.ListToolsParams)
			return b.up.ListTools(ctx, p)
		case "prompts/list":
			p, _ := req.GetParams().(*mcp.ListPromptsParams)
			return b.up.ListPrompts(ctx, p)
		case "resources/list":
			p, _ := req.GetParams().(*mcp.ListResourcesParams)
			return b.up.ListResources(ctx, p)
		case "resources/templates/list":
			p, _ := req.GetParams().(*mcp.ListResourceTemplatesParams)
			return b.up.ListResourceTemplates(ctx, p)
		case "completion/complete":
			p, _ := req.GetParams().(*mcp.CompleteParams)
			return b.up.Complete(ctx, p)
		case "tools/call":
			p, _ := req.GetParams().(*mcp.CallToolParamsRaw)
			if p == nil {
				return nil, errNoParams
			}
			up := &mcp.CallToolParams{Meta: p.Meta, Name: p.Name, Arguments: p.Arguments}
			return forwardFor(ctx, b, ss, up, &up.Meta, b.up.CallTool)
		case "prompts/get":
			p, _ := req.GetParams().(*mcp.GetPromptParams)
			if p == nil {
				return nil, errNoParams
			}
			cp := *p
			return forwardFor(ctx, b, ss, &cp, &cp.Meta, b.up.GetPrompt)
		case "resources/read":
			p, _ := req.GetParams().(*mcp.ReadResourceParams)
			if p == nil {
				return nil, errNoParams
			}
			cp := *p
			return forwardFor(ctx, b, ss, &cp, &cp.Meta, b.up.ReadResource)
		case "logging/setLevel":
			res, err := next(ctx, method, req)
			if p, _ := req.GetParams().(*mcp.SetLoggingLevelParams); err == nil && p != nil {
				b.raiseLevel(ctx, p.Level)
			}
			return res, err
		}
		return next(ctx, method, req)
	}
}

var errNoParams = &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "the request has no params"}

// forwardFor sends one request that does work (a call, a prompt, a read)
// to the server for ss: registered as in flight for ss while it runs, so
// that what the server sends meanwhile reaches ss, and with its progress
// token swapped for one of the bridge's.
func forwardFor[P mcp.Params, R mcp.Result](ctx context.Context, b *Bridge, ss *mcp.ServerSession, p P, meta *mcp.Meta, send func(context.Context, P) (R, error)) (mcp.Result, error) {
	in, end := b.rel.begin(ctx, ss, (*meta)[progressTokenKey])
	defer end()
	*meta = withToken(*meta, in.token)
	res, err := send(ctx, p)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// raiseLevel asks the server for level when it is more verbose than what
// it was asked for so far: one client's quieter level must not silence the
// messages another asked for, and each session filters what it gets.
func (b *Bridge) raiseLevel(ctx context.Context, level mcp.LoggingLevel) {
	b.levelMu.Lock()
	defer b.levelMu.Unlock()
	if b.level != "" && severity(level) >= severity(b.level) {
		return
	}
	if err := b.up.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: level}); err != nil {
		b.log.Debug("the server refused a logging level", "level", level, "error", err)
		return
	}
	b.level = level
}

// severity orders the protocol's logging levels, debug first.
func severity(l mcp.LoggingLevel) int {
	for i, name := range []mcp.LoggingLevel{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"} {
		if l == name {
			return i
		}
	}
	return 0
}

// progressTokenKey is the _meta key of a request's progress token.
const progressTokenKey = "progressToken"

// withToken returns a copy of a request's _meta (the client's own map is
// not written to) with its progress token token, or none when token is "":
// a token the bridge did not map would reach no one.
func withToken(m mcp.Meta, token string) mcp.Meta {
	out := mcp.Meta{}
	for k, v := range m {
		if k != progressTokenKey {
			out[k] = v
		}
	}
	if token != "" {
		out[progressTokenKey] = token
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
