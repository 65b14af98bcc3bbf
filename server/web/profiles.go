package web

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"
)

// A ProfileToken is a bearer token that serves one profile: a request
// carrying it reaches that profile's server at /mcp, and nothing else.
type ProfileToken struct {
	Token   string
	Profile string // a key of Options.Profiles; "" gives the whole catalog
	// Principal names the person (or service) the token is for; "" gives
	// "http.tokens[N]", its place among Options.Tokens, so that no token
	// is ever taken for the operator.
	Principal string
}

// caller is who a request comes from, as its token says: the whole
// catalog or one profile, and the principal.
type caller struct {
	profile   string // "" for the whole catalog
	principal string
	// person marks a principal the identity provider named: it reaches
	// /mcp and nothing else, whatever its profile (the status page,
	// /readyz, /metrics and approvals are the operator's).
	person bool
	// expires is when the person's token does.
	expires time.Time
}

type callerKey struct{}

func callerOf(r *http.Request) caller {
	id, _ := r.Context().Value(callerKey{}).(caller)
	return id
}

// checkScope keeps a profile's token to what its profile may reach: /mcp,
// and /mcp/p/ of its own profile. The status page, /readyz and approvals
// show the whole catalog.
func checkScope(w http.ResponseWriter, r *http.Request) bool {
	id := callerOf(r)
	if (id.profile == "" && !id.person) || r.URL.Path == "/mcp" || personalPath(r.URL.Path) || (id.profile != "" && r.URL.Path == "/mcp/p/"+id.profile) {
		return true
	}
	if id.profile == "" {
		http.Error(w, "Forbidden: a token of the identity provider reaches /mcp only", http.StatusForbidden)
		return false
	}
	http.Error(w, fmt.Sprintf("Forbidden: this token serves the profile %s, at /mcp only", id.profile), http.StatusForbidden)
	return false
}

// endpointFor returns the MCP endpoint a request of /mcp goes to: its
// token's profile, or the whole catalog.
func (h *Handler) endpointFor(r *http.Request) *mcpEndpoint {
	if p := callerOf(r).profile; p != "" {
		return h.profiles[p]
	}
	return h.mcp
}

// serveMCP serves /mcp for the request's caller.
func (h *Handler) serveMCP(w http.ResponseWriter, r *http.Request) {
	e := h.endpointFor(r)
	if e == nil {
		http.Error(w, "Forbidden: this token's profile is not served", http.StatusForbidden)
		return
	}
	withPrincipal(e, r).ServeHTTP(w, r)
}

// serveProfile serves /mcp/p/NAME: the named profile, to clients on this
// machine only, and with a token (when one is configured) that gives the
// whole catalog or that profile.
func (h *Handler) serveProfile(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if !remoteLoopback(r) {
		http.Error(w, "Forbidden: /mcp/p/ serves profiles to clients on this machine only; remote clients use a token of http.tokens at /mcp", http.StatusForbidden)
		return
	}
	e := h.profiles[name]
	if e == nil {
		http.Error(w, fmt.Sprintf("Not Found: no profile %q", name), http.StatusNotFound)
		return
	}
	if id := callerOf(r); id.profile != "" && id.profile != name {
		http.Error(w, "Forbidden: this token serves another profile", http.StatusForbidden)
		return
	}
	withPrincipal(e, r).ServeHTTP(w, r)
}

// remoteLoopback reports whether the client connected from a loopback
// address.
func remoteLoopback(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}
