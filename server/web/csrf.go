package web

import (
	"fmt"
	"mime"
	"net/http"
	"strings"
)

// checkStateChange guards the endpoints that change something and are not
// MCP (POST /approve, POST /oauth/login): they take only application/json,
// and only from the server's own origin (or one configured in
// http.allowedOrigins by name), as net/http's CrossOriginProtection judges
// it from Sec-Fetch-Site and Origin.
//
// checkOrigin lets any loopback origin in, since MCP clients run as pages
// on loopback ports (the MCP Inspector). But a page on another loopback
// port is anybody's (a dev server, a tool's local UI), and a text/plain
// POST is one a browser sends from any page without asking (a CORS
// "simple request"): on loopback, where no token is needed, that approved
// a held tool or started a login. A JSON body from another origin needs a
// preflight, which this server never grants. MCP's own endpoints already
// take only application/json (the SDK checks).
func checkStateChange(o Options) check {
	cop := http.NewCrossOriginProtection()
	for _, origin := range o.AllowedOrigins {
		if origin != "*" {
			_ = cop.AddTrustedOrigin(origin) // a malformed one trusts nothing
		}
	}
	return func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodOptions || isMCPPath(r.URL.Path) {
			return true
		}
		if err := cop.Check(r); err != nil {
			http.Error(w, fmt.Sprintf("Forbidden: %s changes state and is served to this server's own page only (origin %q)", r.URL.Path, r.Header.Get("Origin")), http.StatusForbidden)
			return false
		}
		if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
			http.Error(w, "Unsupported Media Type: send the body as application/json", http.StatusUnsupportedMediaType)
			return false
		}
		return true
	}
}

// isMCPPath reports whether a path is an MCP endpoint: the whole catalog's
// or a profile's.
func isMCPPath(path string) bool {
	return path == "/mcp" || strings.HasPrefix(path, "/mcp/p/")
}
