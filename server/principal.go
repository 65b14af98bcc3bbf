package server

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/principal"
)

// PrincipalOf returns the principal a request handled by the server is
// made for: the person (or service) its HTTP bearer token or identity
// provider's token names (server/web), or principal.Operator for a
// request that names none (stdio, a one-shot command, loopback without a
// token). Calls carry it on to loader/upstream, whose per-person logins
// (oauth.identity: user) are keyed by it.
func PrincipalOf(ctx context.Context) string { return principal.From(ctx) }

// principalMiddleware puts the principal the HTTP layer named into the
// context of every request: server/web hands it over as the go-sdk
// carries a request's token to its handlers (TokenInfo.UserID), which
// holds whatever context the SDK serves a request in, rather than relying
// on that context being the HTTP request's.
func (s *Server) principalMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if extra := req.GetExtra(); extra != nil && extra.TokenInfo != nil {
			ctx = principal.With(ctx, extra.TokenInfo.UserID)
		}
		return next(ctx, method, req)
	}
}
