package server

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader/catalog"
)

// Names of the call proxies beside call_tool. Hosts decide permissions per
// tool name (Codex holds every call of a tool that is not read-only when its
// approval policy is never; Claude Code's --allowedTools takes names), so
// through one proxy every upstream tool would get one decision. Each tool is
// called through the proxy of its class, read from its annotations: a host
// can approve call_tool_read once and ask for the rest.
const (
	CallToolRead  = "call_tool_read"
	CallToolWrite = "call_tool_write"
)

// callClass is what an upstream tool may do as its annotations say, in the
// order of what the proxy that calls it allows.
type callClass int

const (
	classRead  callClass = iota // readOnlyHint: true
	classWrite                  // not read-only, destructiveHint: false
	classAny                    // destructive, or not annotated (the MCP defaults)
)

// classOf reads a tool definition's class. A tool without annotations is
// destructive, as MCP defaults say.
func classOf(t *mcp.Tool) callClass {
	var a *mcp.ToolAnnotations
	if t != nil {
		a = t.Annotations
	}
	switch {
	case a == nil:
		return classAny
	case a.ReadOnlyHint:
		return classRead
	case a.DestructiveHint != nil && !*a.DestructiveHint:
		return classWrite
	}
	return classAny
}

// entryClass is the class of a catalog tool: of the definition last
// trusted when it is held, since the held one is not approved (a change to
// readOnlyHint: true is exactly what must not loosen a host's approval).
func entryClass(e *catalog.Entry) callClass {
	if e.Held() {
		if e.Quarantine.Previous == nil {
			return classAny
		}
		return classOf(e.Quarantine.Previous)
	}
	return classOf(e.Tool)
}

// A proxy is one of the tools that call catalog tools: it calls those of
// its class and below.
type proxy struct {
	name  string
	class callClass
	what  string // the tools it calls, for its description and refusals
	tool  func() *mcp.Tool
}

// proxies are indexed by the class they call.
var proxies = [...]proxy{
	classRead: {CallToolRead, classRead, "read-only tools (readOnlyHint: true)", func() *mcp.Tool {
		return proxyTool(CallToolRead, "Call a read-only tool that tool_search found.",
			&mcp.ToolAnnotations{ReadOnlyHint: true})
	}},
	classWrite: {CallToolWrite, classWrite, "tools that change things but destroy nothing (destructiveHint: false), and read-only ones", func() *mcp.Tool {
		return proxyTool(CallToolWrite, "Call a tool that tool_search found that destroys nothing.",
			&mcp.ToolAnnotations{DestructiveHint: ptr(false)})
	}},
	classAny: {CallTool, classAny, "any tool", callToolTool},
}

// proxyTool makes a proxy's definition. Every session pays for these up
// front, so they carry no title and leave openWorldHint at MCP's default
// (true: a proxied tool may reach anything).
func proxyTool(name, description string, a *mcp.ToolAnnotations) *mcp.Tool {
	return &mcp.Tool{Name: name, Description: description, InputSchema: callInputWire, Annotations: a, Meta: alwaysLoad()}
}

// proxyFor names the proxy that calls a catalog tool.
func proxyFor(e *catalog.Entry) string { return proxies[entryClass(e)].name }

func (s *Server) proxyHandler(p proxy) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args CallArgs
		if err := decodeArgs(req.Params.Arguments, &args, callArgsAccepted); err != nil {
			return errorResult(err.Error()), nil
		}
		return s.relayCall(ctx, req, func(ctx context.Context) *mcp.CallToolResult {
			return s.callThrough(s.withLoginPrompter(ctx, req.Session), p, args)
		})
	}
}

// belowClass refuses a call through a proxy that does not call a tool of
// e's class, naming the one that does; nil when p may call it.
func belowClass(p proxy, e *catalog.Entry) *mcp.CallToolResult {
	c := entryClass(e)
	if c <= p.class {
		return nil
	}
	right := proxies[c]
	return errorResult(fmt.Sprintf("%s calls only %s, and %s is not one: call it through %s {\"name\": %q, \"arguments\": {...}}, which the user may be asked to approve.", p.name, p.what, e.Name, right.name, e.Name))
}

// proxiesWanted says which proxies have something to call in snap: a tool
// of their class that policy lets be called, or a server still starting
// whose tools are not known yet (it may bring any class). call_tool is
// wanted while there is any server or catalog tool at all, so that a host
// that lists tools once, at start, can call whatever comes. A static tool
// catalog's tools count as its servers' would: such a catalog stands in
// for them when measure prices a deployment.
func proxiesWanted(snap *catalog.Snapshot) map[string]bool {
	want := map[string]bool{}
	for _, src := range snap.Sources {
		if src.Kind != catalog.SourceServer {
			continue
		}
		want[CallTool] = true
		if len(src.Entries) == 0 && (src.State == catalog.StateConnecting || src.State == catalog.StateValidating) {
			want[CallToolRead], want[CallToolWrite] = true, true
		}
	}
	for _, e := range snap.Entries {
		if e.Kind != catalog.KindTool || !e.Listed() {
			continue
		}
		want[CallTool] = true
		if e.Policy != catalog.PolicyVisibleOnly {
			want[proxyFor(e)] = true
		}
	}
	return want
}
