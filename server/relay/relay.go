// Package relay passes what an upstream server sends while it serves a
// client's request back to that client: its elicitation, sampling and roots
// requests, whose answers go back unchanged, and its progress and log
// messages. toolsearch forwards the client's tools/call, prompts/get and
// resources/read upstream with a [Caller] of this package attached
// (upstream.WithCaller); package loader/upstream hands the caller whatever
// the upstream sends.
//
// How a request reaches the client depends on its protocol era:
//
//   - Clients of protocols before 2026-07-28 keep a session, and the
//     request is sent to them as a request of its own, during the call
//     (ServerSession.Elicit and friends).
//   - Clients of 2026-07-28 keep none: servers may ask them for input only
//     in a result (multi-round-trip requests, SEP-2322). The call goes on
//     upstream while [Run] returns an input-required result whose request
//     state names it; the client's retry carries the answers and the state,
//     and resumes it. A call waits so for at most [ParkTimeout], and at
//     most [MaxParked] wait at once; beyond that the upstream gets an error
//     at once rather than a hang.
//
// A client that lacks the capability a request needs gets none: the
// upstream gets the protocol's error (method not found) at once.
package relay

import (
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/upstream"
	"github.com/toolsearch/toolsearch/server/internal/protocol"
)

// Request is the client request a call is made for.
type Request struct {
	Session *mcp.ServerSession
	// Meta is the request's params _meta: its progress token and, from
	// 2026-07-28, its protocol version and capabilities.
	Meta mcp.Meta
	// InputResponses and RequestState come with a 2026-07-28 client's retry.
	InputResponses mcp.InputResponseMap
	RequestState   string
}

// A Caller passes an upstream's requests and messages to the client of one
// request; [Run] hands one to the function that forwards the request.
type Caller = upstream.Caller

// capabilities returns what the client of a request supports.
func capabilities(ss *mcp.ServerSession) *mcp.ClientCapabilities {
	if ss != nil {
		if p := ss.InitializeParams(); p != nil && p.Capabilities != nil {
			return p.Capabilities
		}
	}
	return &mcp.ClientCapabilities{}
}

// unsupported is the protocol's error for a request the client cannot take.
func unsupported(format string, args ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "the client that made this request does not support " + fmt.Sprintf(format, args...)}
}

// checkElicit reports why the client cannot take an elicitation, or nil.
func checkElicit(caps *mcp.ClientCapabilities, p *mcp.ElicitParams) error {
	e := caps.Elicitation
	if e == nil {
		return unsupported("elicitation")
	}
	mode := "form"
	if p != nil && (p.Mode == "url" || p.Mode == "" && p.URL != "") {
		mode = "url"
	}
	// A client that declares neither mode takes forms, as before modes
	// existed.
	if mode == "url" && e.URL == nil || mode == "form" && e.Form == nil && e.URL != nil {
		return unsupported("%s elicitation", mode)
	}
	return nil
}

// checkSampling reports why the client cannot take a sampling request, or nil.
func checkSampling(caps *mcp.ClientCapabilities, p *mcp.CreateMessageWithToolsParams) error {
	s := caps.Sampling
	switch {
	case s == nil:
		return unsupported("sampling")
	case p != nil && (len(p.Tools) > 0 || p.ToolChoice != nil) && s.Tools == nil:
		return unsupported("sampling with tools")
	case p != nil && p.IncludeContext != "" && p.IncludeContext != "none" && s.Context == nil:
		return unsupported("sampling with context")
	}
	return nil
}

func checkRoots(caps *mcp.ClientCapabilities) error {
	if caps.RootsV2 == nil {
		return unsupported("roots")
	}
	return nil
}

// progressToken is the token a request asked for progress under.
func progressToken(meta mcp.Meta) any {
	if meta == nil {
		return nil
	}
	return meta["progressToken"]
}

// modern reports whether a request follows protocol 2026-07-28 or later.
func modern(req Request) bool {
	return protocol.IsModern(req.Session, req.Meta)
}
