package web

import (
	"fmt"
	"net/http"
)

// guard applies what every request must pass: the bearer token and the
// Origin check that protects against DNS rebinding. /healthz stays open so
// that liveness probes need no secret; it reveals nothing.
func guard(next http.Handler, o Options) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !originAllowed(origin, r.Host, o.AllowedOrigins) {
			http.Error(w, fmt.Sprintf("Forbidden: origin %q is not allowed (add it to http.allowedOrigins)", origin), http.StatusForbidden)
			return
		}
		if o.Token != "" && r.URL.Path != "/healthz" && !validBearer(r, o.Token) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="toolsearch"`)
			http.Error(w, "Unauthorized: send Authorization: Bearer <token>", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}
