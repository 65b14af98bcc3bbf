// Package server exposes the catalog over MCP: a fixed set of meta-tools
// (tool_search and friends) whose results carry the definitions the model
// asked for, and nothing up front but names and one-liners. It measures,
// with a real tokenizer, everything it sends.
//
// A [Server] is made once over a catalog.Catalog and follows its changes;
// each MCP connection gets an mcp.Server from it:
//
//	catalog := catalog.New(server.ReservedNames...)
//	// ... fill the catalog (package loader)
//	s, err := server.New(catalog, server.Options{
//		ListingBudget: server.DefaultListingBudget,
//		Upstreams:     manager,           // *upstream.Manager: call_tool's way out
//		Scripts:       runner.New(opts),  // run_skill_script's
//		Logger:        logger,
//	})
//	if err != nil {
//		return err
//	}
//	defer s.Close()
//
//	ms := s.NewMCPServer() // one per stdio process; server/web makes them for HTTP
//	defer s.Release(ms)
//	err = ms.Run(ctx, &mcp.StdioTransport{})
//
// # What a client sees
//
// tools/list holds four tools, the same for every client: tool_search,
// whose description lists every entry within the listing budget and which
// returns full definitions on demand within the result budget; call_tool,
// which checks arguments against the tool's schema and policy and forwards
// the call upstream; read_skill_file; and run_skill_script. Their input
// schemas are derived from the Go types their arguments decode into
// ([SearchArgs], [CallArgs], [ReadArgs], [ScriptArgs]). Tools an operator
// marks alwaysLoad are listed beside them under SERVER__TOOL, and with
// promotion the tools a search returns join the session's own list. Every
// failure is a tool result whose text says what to do next.
//
// Skills are also served through the MCP Skills extension and as prompts,
// by package server/skillsext, and each session can read its own token
// accounting as the resource [StatsURI].
//
// The upstream servers' prompts and resources, which cost no model context
// until a person picks them, are listed directly beside the skills' (see
// [Passthrough]): prompts/get, resources/read, subscriptions and
// completion go to the server that owns them. What an upstream asks or
// reports while it serves a client's request (elicitation, sampling,
// roots, progress, logs) reaches that client through package server/relay,
// on both protocol eras. Which prompts and resources a session sees is
// decided in one place, sees, for per-client profiles to narrow.
//
// # Following the catalog
//
// On every catalog change the server updates its search index (package
// search), re-renders the listing within its budget, and brings every
// mcp.Server it made up to date: tool_search's description, the
// always-loaded tools and the skills, each change announced with
// list_changed.
//
// # Tokens
//
// Every count uses one tokenizer (package server/tokens) over the exact
// bytes sent. [Server.Measure] reports what eager loading of the catalog
// would cost against what the server puts up front and what its searches
// cost; while serving, each session's results are counted off the request
// path and summed per tool and per source ([SessionStats]). An [Activity]
// records each request for the status page and the trace, naming sessions
// by [SessionTag].
//
// # Around it
//
// Below server, and imported by it: loader (the catalog), search (ranking),
// runner (scripts), server/tokens, server/skillsext and
// server/internal/protocol (which protocol era a request follows). Above
// it: server/web, which serves it over HTTP with the status page, and
// cmd/toolsearch. Features that decide what an entry may do or who sees it
// get packages of their own below server, which server consults: approvals,
// quarantine and description scanning in package trust; per-client
// profiles in package profile. Credentials for upstream servers stay in
// loader/upstream/oauth and never reach this package.
package server
