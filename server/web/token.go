package web

import (
	"context"
	"crypto/subtle"
	"net/http"
	"strings"
)

// checkToken refuses requests without a valid token, when tokens are
// configured (Options.Token, and the profiles' Options.Tokens; but see
// tokenExempt), and records the identity the token gives: the whole
// catalog or a profile.
func checkToken(o Options) check {
	return func(w http.ResponseWriter, r *http.Request) bool {
		id, ok := identify(r, o)
		if !ok && !tokenExempt(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="toolsearch"`)
			http.Error(w, "Unauthorized: send Authorization: Bearer <token>", http.StatusUnauthorized)
			return false
		}
		*r = *r.WithContext(context.WithValue(r.Context(), identityKey{}, id))
		return true
	}
}

// identify finds the identity a request's token gives, and whether it
// has one: with no token configured anyone is the whole catalog (loopback
// only, which CheckBind enforces).
func identify(r *http.Request, o Options) (identity, bool) {
	if o.Token == "" && len(o.Tokens) == 0 {
		return identity{}, true
	}
	found, id := false, identity{}
	// Every token is compared, in constant time, whichever matches.
	if o.Token != "" && validToken(r, o.Token) {
		found = true
	}
	for _, pt := range o.Tokens {
		if validToken(r, pt.Token) && !found {
			found, id = true, identity{profile: pt.Profile}
		}
	}
	return id, found
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
