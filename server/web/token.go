package web

import (
	"crypto/subtle"
	"net/http"
	"strings"
)

// checkToken refuses requests without the bearer token, when one is set.
func checkToken(o Options) check {
	return func(w http.ResponseWriter, r *http.Request) bool {
		if o.Token == "" || validBearer(r, o.Token) {
			return true
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="toolsearch"`)
		http.Error(w, "Unauthorized: send Authorization: Bearer <token>", http.StatusUnauthorized)
		return false
	}
}

func validBearer(r *http.Request, token string) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		// Browsers cannot set headers on EventSource and page loads; the
		// status page passes the token as a query parameter instead.
		got = r.URL.Query().Get("token")
	}
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
}
