// Package oauth logs toolsearch in to upstream MCP servers that require
// OAuth 2.1, keeps their tokens, and attaches them to requests.
//
// The protocol is the go-sdk's: a [Handler] is the auth.OAuthHandler of a
// server's transport, and a login runs auth.AuthorizationCodeHandler
// (PKCE with S256; protected resource and authorization server metadata
// discovery with the 2025-03-26 fallbacks; pre-registered clients, client
// ID metadata documents or dynamic registration; resource indicators; scope
// selection and step-up), with golang.org/x/oauth2 refreshing tokens. This
// package adds what a long-running proxy needs around it:
//
//   - [Store]: one file per server under the user config directory, mode
//     0600, written atomically, shared by every toolsearch process.
//   - [Tokens]: the tokens of one server, refreshed before they expire once
//     for all concurrent callers, re-stored at once, and re-read when
//     another process changed them.
//   - [Prompter] and [Callbacks]: how a login reaches the person (a
//     browser, a printed URL, an MCP client asked to open it) and receives
//     the redirect back, on a loopback port or on `serve --http`'s own
//     address.
//   - [UserLogins]: each person's own login (a server with identity:
//     user) in two halves, begun on one replica and completed by the
//     redirect back on any, its pending state in [Logins] (files,
//     [FileLogins], or the database), the grant stored under the principal
//     who began it.
//   - [Revoke]: forgetting a login at the authorization server (RFC 7009).
//
// A server whose tokens cannot be used or refreshed fails its requests
// with a [*LoginRequiredError], which says what happened without any
// token, secret, code or verifier in it.
package oauth
