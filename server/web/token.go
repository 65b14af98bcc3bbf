package web

import (
	"crypto/subtle"
	"net/http"
	"strings"
)

// checkToken refuses requests without the bearer token, when one is set
// (but see tokenExempt).
func checkToken(o Options) check {
	return func(w http.ResponseWriter, r *http.Request) bool {
		if o.Token == "" || validToken(r, o.Token) || tokenExempt(r) {
			return true
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="toolsearch"`)
		http.Error(w, "Unauthorized: send Authorization: Bearer <token>", http.StatusUnauthorized)
		return false
	}
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
