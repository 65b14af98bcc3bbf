package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/schema"
	"github.com/toolsearch/toolsearch/loader/upstream"
	"github.com/toolsearch/toolsearch/server/relay"
)

// Upstreams forwards calls to the upstream MCP servers; *upstream.Manager
// is the real one.
type Upstreams interface {
	Call(ctx context.Context, server, tool string, args json.RawMessage) (*mcp.CallToolResult, error)
}

// CallArgs is call_tool's input; its fields make the tool's input schema
// (see inputSchema).
type CallArgs struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

var (
	callInputSchema  = inputSchema[CallArgs](nil)
	callInputWire    = wireSchema(callInputSchema)
	callArgsAccepted = acceptedArgs(callInputSchema)
)

func callToolTool() *mcp.Tool {
	return proxyTool(CallTool, "Call any tool that tool_search found.",
		&mcp.ToolAnnotations{DestructiveHint: ptr(true)})
}

// relayCall runs call for a client's tools/call with the client attached
// as the caller of the upstream request, so that what the upstream asks and
// reports while it works reaches the client (see package relay). A retry of
// a 2026-07-28 client resumes the call its requestState names instead.
func (s *Server) relayCall(ctx context.Context, req *mcp.CallToolRequest, call func(context.Context) *mcp.CallToolResult) (*mcp.CallToolResult, error) {
	s.followLogLevel(req.Params.Meta)
	return relay.Run(s.relay, ctx, runRequest(req.Session, req.Params.Meta, req.Params.InputResponses, req.Params.RequestState),
		func(ctx context.Context, c relay.Caller) (*mcp.CallToolResult, error) {
			return call(upstream.WithCaller(ctx, c)), nil
		},
		func(m mcp.InputRequestMap, state string) *mcp.CallToolResult {
			return &mcp.CallToolResult{InputRequests: m, RequestState: state}
		})
}

// Call runs call_tool: it finds the tool, enforces its policy, checks the
// arguments against its input schema, and forwards the call upstream. Every
// failure is an error result that says what to do.
func (s *Server) Call(ctx context.Context, args CallArgs) *mcp.CallToolResult {
	return s.callThrough(ctx, proxies[classAny], args)
}

// callThrough is Call through the proxy p, which refuses the tools above
// its class.
func (s *Server) callThrough(ctx context.Context, p proxy, args CallArgs) *mcp.CallToolResult {
	if args.Name == "" {
		return errorResult("name is required: the name of a tool from tool_search")
	}
	snap := s.Snapshot()
	e, err := resolveTool(snap, args.Name)
	if err != nil && s.awaitSupplier(ctx, snap, args.Name) {
		snap = s.Snapshot()
		e, err = resolveTool(snap, args.Name)
		if srcs := starting(snap, args.Name); err != nil && len(srcs) > 0 {
			err = fmt.Errorf("no tool named %s yet: server %s is still %s and has not listed its tools; try again shortly, or find tools with tool_search", quoteName(args.Name), srcs[0].Name, srcs[0].State)
		}
	}
	if err != nil {
		return errorResult(err.Error())
	}
	if refused := belowClass(p, e); refused != nil && !e.Held() { // a held tool is refused as such
		return refused
	}
	return s.forward(ctx, snap, e, args.Arguments)
}

// starter is implemented by upstreams that can wait for a server that is
// starting (upstream.Manager).
type starter interface {
	AwaitStarted(ctx context.Context, server string)
}

// starting returns the servers whose namespace a tool name carries that
// are connecting or re-listing without any known tools: the name may be
// one they have not listed yet.
func starting(snap *catalog.Snapshot, name string) []*catalog.Source {
	var out []*catalog.Source
	for _, src := range snap.Resolve(name).Sources {
		if src.Kind == catalog.SourceServer && len(src.Entries) == 0 &&
			(src.State == catalog.StateConnecting || src.State == catalog.StateValidating) {
			out = append(out, src)
		}
	}
	return out
}

// awaitSupplier waits, as a call to a known tool would, for the starting
// servers that could supply an unknown name, and reports whether it did.
func (s *Server) awaitSupplier(ctx context.Context, snap *catalog.Snapshot, name string) bool {
	st, ok := s.opts.Upstreams.(starter)
	srcs := starting(snap, name)
	if !ok || len(srcs) == 0 {
		return false
	}
	for _, src := range srcs {
		st.AwaitStarted(ctx, src.Name)
	}
	return true
}

// resolveTool finds the listed tool a name means (see
// catalog.Snapshot.Resolve), or says why there is none in a sentence the
// model can act on.
func resolveTool(snap *catalog.Snapshot, name string) (*catalog.Entry, error) {
	r := snap.Resolve(name)
	switch {
	case r.Entry != nil && r.Entry.Kind != catalog.KindTool:
		return nil, fmt.Errorf("%s is a skill, not a tool: load its instructions with tool_search {\"query\": \"select:%s\"}", r.Entry.Name, r.Entry.Name)
	case r.Entry != nil:
		return r.Entry, nil
	case len(r.CaseVariants) > 0:
		return nil, fmt.Errorf("%s names no tool, and tools differ from it only in case: call one of %s", quoteName(name), joinNames(r.CaseVariants))
	case len(r.SameOwnName) > 0:
		return nil, fmt.Errorf("%q is the upstream name of several tools: call one of %s", name, joinNames(r.SameOwnName))
	}
	if e, ok := featureNamed(snap, name); ok {
		return nil, fmt.Errorf("%s is a %s of server %s, not a tool: the user picks it from the host's %s menu; it cannot be called", e.Name, e.Kind, e.Source, e.Kind)
	}
	for _, src := range r.Sources {
		if unavailable(src) {
			return nil, fmt.Errorf("no tool named %s is known: %s", quoteName(name), unavailableNote(src))
		}
		if src.Kind == catalog.SourceServer && src.State != catalog.StateActive {
			return nil, fmt.Errorf("no tool named %s: server %s is %s and lists no such tool now; find tools with tool_search and call them by the name it gives", quoteName(name), src.Name, src.State)
		}
	}
	msg := fmt.Sprintf("no tool named %s: find tools with tool_search and call them by the name it gives", quoteName(name))
	// The name may be one of a server that could not list its tools:
	// say so, or the model concludes that no such tool exists.
	var notes []string
	for _, src := range snap.Sources {
		if unavailable(src) && src.State != catalog.StateDisabled && len(notes) < maxListed {
			notes = append(notes, unavailableNote(src))
		}
	}
	if len(notes) > 0 {
		msg += ". It may be a tool of a server whose tools are not known: " + strings.Join(notes, "; ")
	}
	return nil, errors.New(msg)
}

// joinNames lists the entries' names for an error.
func joinNames(es []*catalog.Entry) string {
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = e.Name
	}
	return strings.Join(names, ", ")
}

// forward checks policy and arguments, then calls the upstream.
func (s *Server) forward(ctx context.Context, snap *catalog.Snapshot, e *catalog.Entry, rawArgs json.RawMessage) *mcp.CallToolResult {
	src, _ := snap.Source(e.Source)
	switch {
	case e.Held():
		return heldResult(e)
	case e.Policy == catalog.PolicyVisibleOnly:
		return errorResult(fmt.Sprintf("%s is listed but not callable: the policy visible_only applies to it (servers.%s.policy in toolsearch.yaml). Tell the user if they need it.", e.Name, e.Source))
	case src == nil || src.Kind != catalog.SourceServer || s.opts.Upstreams == nil:
		return errorResult(fmt.Sprintf("%s comes from a static tool catalog (%s) and has no upstream server to run it: it can be searched and measured, not called.", e.Name, e.Source))
	}
	if len(rawArgs) == 0 || string(rawArgs) == "null" {
		rawArgs = json.RawMessage("{}")
	}
	if err := s.validateArgs(e, rawArgs); err != nil {
		return errorResult(fmt.Sprintf("invalid arguments for %s: %v\nThe tool's input schema is:\n%s\nFix the arguments and call again.", e.Name, err, compactJSON(schema.OrDefault(e.Tool.InputSchema))))
	}
	tool := e.Upstream
	if tool == "" {
		tool = e.Name
	}
	res, err := s.opts.Upstreams.Call(ctx, e.Source, tool, rawArgs)
	if err != nil && s.loginFor(ctx, e, err) {
		res, err = s.opts.Upstreams.Call(ctx, e.Source, tool, rawArgs)
	}
	if err != nil {
		return callError(e, err)
	}
	return res
}

// notActive is implemented by errors saying that a server cannot take calls
// in its current state (upstream.NotActiveError).
type notActive interface {
	NotActive() (state catalog.State, reason string)
}

// timeout is the net.Error idiom for errors that are timeouts.
type timeout interface{ Timeout() bool }

// callError turns a failed forward into a result the model can act on.
func callError(e *catalog.Entry, err error) *mcp.CallToolResult {
	var na notActive
	var to timeout
	var ar authRequired
	var ul userLoginRequired
	switch {
	case errors.As(err, &ul):
		who, reason, how := ul.UserLoginRequired()
		return userLoginResult(e, who, reason, how)
	case errors.As(err, &ar):
		reason, command := ar.AuthRequired()
		return authRequiredResult(e, reason, command)
	case errors.As(err, &na):
		state, reason := na.NotActive()
		msg := fmt.Sprintf("service_not_active: server %s is %s, so %s cannot be called now", e.Source, state, e.Name)
		if reason != "" {
			msg += " (" + upstreamError(reason) + ")"
		}
		res := errorResult(msg + ". Try again shortly, or use another tool.")
		res.StructuredContent = structuredError(res, map[string]any{"error": "service_not_active", "server": e.Source, "state": state, "reason": upstreamError(reason)})
		return res
	case errors.As(err, &to) && to.Timeout():
		return errorResult(fmt.Sprintf("%s did not answer in time: %v. The call may still be running upstream; retry only if it is safe to repeat.", e.Name, err))
	case errors.Is(err, context.Canceled):
		return errorResult(fmt.Sprintf("the call to %s was cancelled", e.Name))
	}
	return errorResult(fmt.Sprintf("calling %s on server %s failed: %s", e.Name, e.Source, upstreamError(err.Error())))
}

// validateArgs checks arguments against the tool's input schema. A schema
// that cannot be checked, and arguments whose check would cost more than
// schema's bounds allow, are not the model's fault: the call goes on and
// the upstream judges.
func (s *Server) validateArgs(e *catalog.Entry, raw json.RawMessage) error {
	var instance any
	if err := json.Unmarshal(raw, &instance); err != nil {
		return fmt.Errorf("arguments are not valid JSON: %v", err)
	}
	args, ok := instance.(map[string]any)
	if !ok {
		return fmt.Errorf("arguments must be a JSON object, got %s", jsonKind(raw))
	}
	v, ok := s.schemas.Load(e.Digest)
	if !ok {
		rs, err := schema.Resolve(e.Tool.InputSchema)
		if v = rs; err != nil {
			v = err
		}
		s.schemas.Store(e.Digest, v)
	}
	rs, ok := v.(*schema.Resolved)
	if !ok {
		s.log.Debug("not validating arguments: schema not supported", "tool", e.Name, "err", v)
		return nil
	}
	probs, err := argumentProblems(rs, args)
	if errors.Is(err, schema.ErrUnchecked) {
		s.log.Warn("arguments not validated", "tool", e.Name, "err", err)
		return nil
	}
	if len(probs) > 0 {
		return errors.New(strings.Join(probs, "; "))
	}
	return nil
}
