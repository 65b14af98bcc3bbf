package web

import (
	"net/url"
	"slices"
)

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
