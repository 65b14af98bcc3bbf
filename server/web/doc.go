// Package web serves toolsearch over HTTP: MCP Streamable HTTP at /mcp for
// both protocol eras, the live status page, and the health probes. It sits
// above package server, which knows nothing of HTTP: the handler builds the
// MCP servers it needs through a server.Server and reads the rest through
// its accessors.
//
//	if err := web.CheckBind(addr, token); err != nil {
//		return err // beyond loopback without a token
//	}
//	ln, err := net.Listen("tcp", addr)
//	if err != nil {
//		return err
//	}
//	h := web.NewHandler(s, web.Options{Token: token})
//	return web.Serve(ctx, ln, h, 10*time.Second) // until ctx ends, then a graceful stop
//
// # Endpoints
//
//   - /mcp: requests of protocol 2026-07-28 go to a stateless handler; older
//     ones get sessions (at most Options.MaxSessions), so that
//     notifications reach them.
//   - GET /: the status page, with /status.json, /events (server-sent
//     events when something changes) and /search (what the model would
//     receive for a query).
//   - /mcp/p/NAME: the profile NAME (Options.Profiles), to clients on this
//     machine only; a profile's token (Options.Tokens) gets its profile at
//     /mcp, and reaches nothing else.
//   - POST /approve: approves a tool or skill waiting for approval, as the
//     status page's Approve button does (Options.Approvals); one the
//     scanner flagged takes a second request with the confirmation the
//     first answered with and the name typed out (confirm.go).
//   - /healthz answers while the process lives; /readyz reports the catalog,
//     the sessions and each upstream's state.
//   - GET /metrics: the Prometheus metrics (Options.Metrics), to the
//     operator's token in the Authorization header.
//
// # The guard
//
// One guard stands in front of every endpoint but /healthz and runs its
// checks in order, each in a file of its own: the Host header against DNS
// rebinding (host.go), the browser Origin (origin.go), the bearer token
// (token.go; a token in the URL only for the status page's GET requests),
// what a profile's token may reach (profiles.go), the body's size and the
// time it may take to arrive (body.go), and, for the endpoints that change
// state and are not MCP (/approve, /oauth/login), that the request comes
// from this server's own page as application/json (csrf.go): a page on
// another loopback port is let through by the Origin check, for MCP
// clients, but not to approve or log in.
//
// Around the guard, every response, its refusals and 404s included,
// forbids framing (frame.go): a framed status page is a page whose
// buttons another page can have the user click.
//
// # Shutdown
//
// [Serve] refuses new connections when its context ends, gives the requests
// in flight the grace to finish, then cancels everything still running and
// closes its connections, without waiting on a handler that ignores the
// cancellation.
//
// Which entries a profile holds is decided below server, in package
// loader/profile, whose views the profiles' servers are built over; this
// package only routes a request to the server its token or path names.
package web
