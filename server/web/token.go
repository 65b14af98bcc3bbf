package web

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/internal/principal"
)

// checkToken refuses requests without a valid token, when tokens are
// configured (Options.Token, and the profiles' Options.Tokens; but see
// tokenExempt), and records the caller the token names: the whole
// catalog or a profile.
func checkToken(o Options) check {
	return func(w http.ResponseWriter, r *http.Request) bool {
		id, ok := identify(r, o)
		if !ok && !tokenExempt(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="toolsearch"`)
			http.Error(w, "Unauthorized: send Authorization: Bearer <token>", http.StatusUnauthorized)
			return false
		}
		ctx := context.WithValue(r.Context(), callerKey{}, id)
		*r = *r.WithContext(principal.With(ctx, id.principal))
		return true
	}
}

// identify finds the caller a request's token names, and whether it
// has one: with no token configured anyone is the whole catalog (loopback
// only, which CheckBind enforces).
func identify(r *http.Request, o Options) (caller, bool) {
	operator := caller{principal: operatorPrincipal(o)}
	if o.Token == "" && len(o.Tokens) == 0 && o.JWT == nil {
		return operator, true
	}
	found, id := false, caller{}
	// Every token is compared, in constant time, whichever matches.
	if o.Token != "" && validToken(r, o.Token) {
		found, id = true, operator
	}
	for i, pt := range o.Tokens {
		if validToken(r, pt.Token) && !found {
			found, id = true, caller{profile: pt.Profile, principal: tokenPrincipal(pt, i)}
		}
	}
	if !found && o.JWT != nil {
		return identifyJWT(r, o)
	}
	return id, found
}

// operatorPrincipal is the principal of the operator's token.
func operatorPrincipal(o Options) string {
	if o.OperatorPrincipal != "" {
		return o.OperatorPrincipal
	}
	return principal.Operator
}

// tokenPrincipal is the principal of the i-th of Options.Tokens.
func tokenPrincipal(pt ProfileToken, i int) string {
	if pt.Principal != "" {
		return pt.Principal
	}
	return fmt.Sprintf("http.tokens[%d]", i)
}

// identifyJWT verifies a bearer token as the identity provider's. A
// principal a configured token names (the operator's among them) is not
// the provider's to claim: a token whose sub said "operator" would
// otherwise act with the operator's logins.
func identifyJWT(r *http.Request, o Options) (caller, bool) {
	raw := bearerToken(r)
	if raw == "" {
		return caller{}, false
	}
	p, err := o.JWT.Verify(r.Context(), raw)
	if errors.Is(err, errNotJWT) {
		return caller{}, false
	}
	refuse := func(why string) (caller, bool) {
		// A token the provider signed is worth a warning; anybody can
		// send forgeries, which must not flood the log.
		level := slog.LevelDebug
		if p.signed {
			level = slog.LevelWarn
		}
		o.JWT.log.Log(r.Context(), level, "refused the identity provider's token", "principal", p.name, "why", why, "remote", r.RemoteAddr)
		return caller{}, false
	}
	switch {
	case err != nil:
		return refuse(err.Error())
	case p.name == operatorPrincipal(o):
		return refuse("it names the operator's principal")
	case slices.ContainsFunc(o.Tokens, func(pt ProfileToken) bool { return pt.Principal == p.name }):
		return refuse("it names the principal of a token of http.tokens")
	case p.profile != "" && o.Profiles[p.profile] == nil:
		return refuse(fmt.Sprintf("its profile %q is not configured", clipName(p.profile, 64)))
	}
	return caller{profile: p.profile, principal: p.name, person: true, expires: p.expires}, true
}

// bearerToken is the request's bearer token, from its Authorization
// header only.
func bearerToken(r *http.Request) string {
	if scheme, cred, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") {
		return strings.TrimSpace(cred)
	}
	return ""
}

// statusPagePaths are the status page and what it fetches. A browser
// cannot set headers on a page load or an EventSource, so these GET
// requests may carry the token as ?token= instead; nothing else may, since
// URLs end up in logs, proxies and browser history.
var statusPagePaths = map[string]bool{"/": true, "/status.json": true, "/events": true, "/search": true}

// validToken reports whether r carries the token: in an Authorization
// header with the Bearer scheme, whose name is case-insensitive (RFC 9110
// §11.1), or in the query of a status page GET.
func validToken(r *http.Request, token string) bool {
	got := ""
	if scheme, cred, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") {
		got = strings.TrimSpace(cred)
	} else if r.Method == http.MethodGet && statusPagePaths[r.URL.Path] {
		got = r.URL.Query().Get("token")
	}
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
}
