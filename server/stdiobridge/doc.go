// Package stdiobridge serves one stdio MCP server as Streamable HTTP: what
// `toolsearch bridge` runs, so that a heavy or stateful local program runs
// once, outside the replicas of a team's toolsearch, which reach it as an
// http entry.
//
// # One process, one session, shared
//
// The bridge starts the program once and holds one MCP session with it;
// every client of the bridge (each replica, each of its sessions) is served
// from that session. That is what a stateful server needs: its state (an
// open browser, a database connection, a cache it builds) is one, whoever
// asks, and a program heavy enough to move out of the replicas should not
// be started again per client. A session per client would give each
// replica a state of its own, which is what running it in every replica
// already does.
//
// What is per client is kept per client:
//
//   - Requests (tools, prompts, resources, completion) go upstream as they
//     come, each with its own context: a client that cancels cancels its
//     request alone.
//   - Progress goes upstream under a token of the bridge's, unique across
//     clients, and comes back to the client that asked, under its token.
//   - Elicitation, sampling and roots that the server sends while it serves
//     a request go to the one client with requests in flight; with none,
//     or several (the session protocols do not say which request such a
//     request belongs to), the server gets an error that says so, as
//     toolsearch answers a shared stdio upstream.
//   - Log messages go to the clients with requests in flight, else to all;
//     each client's logging/setLevel filters what it gets, and the server
//     is asked for the most verbose level any client set.
//   - List changes go to every client; resource updates to the clients that
//     subscribed, the server being subscribed once per resource.
//
// The bridge speaks the session protocol eras (2025-03-26 to 2025-11-25)
// on both sides: a client of protocol 2026-07-28 falls back to 2025-11-25
// when it connects, as the go-sdk's does.
//
// The bridge adds nothing to what the server says: its name, instructions,
// capabilities, tools and results pass unchanged. Screening and quarantine
// are the fronting toolsearch's, which is told by its .mcp.json entry
// ("bridge": true) that a local program, not a remote server, is behind
// the URL.
package stdiobridge
