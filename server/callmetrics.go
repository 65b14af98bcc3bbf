package server

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/server/metrics"
)

// metricsMiddleware counts every tools/call in Options.Metrics: tool_search
// as a search, any other as a call under the server and tool it went to,
// with its outcome as the client saw it and how long it took to answer.
// The server measuring itself is not counted.
func (s *Server) metricsMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	m := s.opts.Metrics
	if m == nil {
		return next
	}
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		p, ok := req.GetParams().(*mcp.CallToolParamsRaw)
		if method != "tools/call" || !ok || measuring(req) {
			return next(ctx, method, req)
		}
		start := time.Now()
		res, err := next(ctx, method, req)
		took, outcome := time.Since(start), callOutcome(res, err)
		if p.Name == ToolSearch {
			m.ObserveSearch(outcome, took)
		} else {
			server, tool := s.callLabels(p.Name, p.Arguments)
			m.ObserveCall(server, tool, outcome, took)
		}
		return res, err
	}
}

// callOutcome is a call's outcome as the activity records it.
func callOutcome(res mcp.Result, err error) string {
	if err != nil {
		return metrics.OutcomeError
	}
	if r, ok := res.(*mcp.CallToolResult); ok && r.IsError {
		return metrics.OutcomeToolError
	}
	return metrics.OutcomeOK
}

// callLabels names a call's server and tool for the metrics: the catalog
// tool that call_tool (or a directly listed tool) resolved to, or
// toolsearch's own tool. The names are the catalog's, never the client's:
// a name that resolves to no tool is metrics.UnknownTool, so that no
// client makes a series per name it sends.
func (s *Server) callLabels(name string, rawArgs json.RawMessage) (server, tool string) {
	snap := s.Snapshot()
	switch name {
	case CallTool, CallToolRead, CallToolWrite:
		var args CallArgs
		_ = json.Unmarshal(rawArgs, &args) // bad arguments were answered with an error
		if e := snap.Resolve(args.Name).Entry; e != nil && e.Kind == catalog.KindTool {
			return e.Source, e.Name
		}
		return OverheadSource, metrics.UnknownTool
	}
	if slices.Contains(ReservedNames, name) {
		return OverheadSource, name
	}
	if e, ok := snap.Lookup(name); ok && e.Kind == catalog.KindTool { // listed directly
		return e.Source, e.Name
	}
	return OverheadSource, metrics.UnknownTool
}

// measuringSession reports a session of Measure's own client, whose
// savings are the server measuring itself, not a client's.
func measuringSession(ss *mcp.ServerSession) bool {
	ip := ss.InitializeParams()
	return ip != nil && ip.ClientInfo != nil && ip.ClientInfo.Name == MeasureClientName
}
