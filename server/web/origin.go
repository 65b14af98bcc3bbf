package web

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
)

// checkOrigin refuses requests that a browser sends on behalf of a page of
// another site. Requests without an Origin (other programs, same-origin
// page loads) pass.
func checkOrigin(o Options) check {
	return func(w http.ResponseWriter, r *http.Request) bool {
		origin := r.Header.Get("Origin")
		if origin == "" || originAllowed(origin, r.Host, o.AllowedOrigins) {
			return true
		}
		http.Error(w, fmt.Sprintf("Forbidden: origin %q is not allowed (add it to http.allowedOrigins)", origin), http.StatusForbidden)
		return false
	}
}

// originAllowed accepts loopback origins, the server's own origin, and the
// configured ones.
func originAllowed(origin, host string, allowed []string) bool {
	if slices.Contains(allowed, "*") || slices.Contains(allowed, origin) {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	return isLoopbackHost(u.Hostname()) || u.Host == host
}
