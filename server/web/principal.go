package web

import (
	"context"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// withPrincipal hands the request's principal to the MCP server in the
// form the go-sdk carries from an HTTP request to its handlers
// (auth.TokenInfo's UserID, read by server.PrincipalOf). The SDK also
// binds each session to the UserID that opened it, so that one person's
// session id is refused to another's token. A request without a bearer
// token (on loopback, with no token configured) is the operator's, which
// the server assumes of a request that names none.
func withPrincipal(next http.Handler, r *http.Request) http.Handler {
	id := callerOf(r)
	if id.principal == "" || bearerToken(r) == "" {
		return next
	}
	info := &auth.TokenInfo{UserID: id.principal, Expiration: id.expires}
	verify := func(context.Context, string, *http.Request) (*auth.TokenInfo, error) { return info, nil }
	return auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: id.expires.IsZero(), ClockSkew: time.Minute})(next)
}
