package web

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
	"github.com/toolsearch/toolsearch/server"
)

// Defaults of the HTTP transport.
const (
	DefaultHTTPAddr       = "127.0.0.1:7777"
	DefaultMaxBodyBytes   = 4 << 20
	DefaultBodyTimeout    = 30 * time.Second
	DefaultSessionTimeout = 30 * time.Minute
	DefaultMaxSessions    = 1000
)

// Options configure the HTTP handler.
type Options struct {
	// Token, when set, is the bearer token every request must carry.
	// Binding anything but loopback requires one.
	Token string
	// AllowedOrigins lists the browser origins (scheme://host[:port]) that
	// may call; loopback origins are always allowed. "*" allows any.
	AllowedOrigins []string
	// AllowedHosts lists the names (without port) that requests may carry
	// in their Host header besides loopback ones: the names by which a
	// proxy or the network reaches the server. See hostAllowed.
	AllowedHosts []string
	// MaxBodyBytes bounds request bodies (DefaultMaxBodyBytes when 0).
	MaxBodyBytes int64
	// BodyTimeout bounds the time a request body may take to arrive
	// (DefaultBodyTimeout when 0).
	BodyTimeout time.Duration
	// SessionTimeout closes sessions idle this long (DefaultSessionTimeout
	// when 0).
	SessionTimeout time.Duration
	// MaxSessions bounds the sessions open at once (DefaultMaxSessions
	// when 0); a client that would open one more gets 503 with
	// Retry-After.
	MaxSessions int
	// Ready reports readiness details for /readyz: the catalog is loaded
	// when the handler exists, so this only adds per-upstream states.
	Ready func() map[string]string
	// Loaded, when set, is closed once the server has read what it
	// serves from the shared state (the approvals, the upstreams' OAuth
	// grants): /readyz answers 503 until then, so that a replica whose
	// database went down as it started takes no calls it would refuse,
	// and turns ready by itself once the database is back. Once loaded,
	// a replica stays ready while the database is down.
	Loaded <-chan struct{}
	// Profiles are the servers of the configured profiles, each over its
	// view of the catalog (package loader/profile). /mcp/p/NAME serves one
	// to clients on this machine.
	Profiles map[string]*server.Server
	// Tokens are bearer tokens besides Token, each serving a profile's
	// server at /mcp and nothing else (one without a profile serves
	// everything, as Token does).
	Tokens []ProfileToken
	// OperatorPrincipal is the principal of Token, and of every request
	// when no token is configured; "" means principal.Operator.
	OperatorPrincipal string
	// JWT, when set, takes the identity provider's tokens besides the
	// configured ones: each names a principal (its sub), which reaches
	// /mcp only, of the profile its ProfileClaim names or the whole
	// catalog.
	JWT *JWTVerifier
	// Approvals, when set, lists on the status page what waits for
	// approval, and approves it from there (POST /approve).
	Approvals Approvals

	// Login, when set with Callbacks, lets the status page log in to
	// upstream servers (*upstream.Manager's Login); Callbacks is served at
	// CallbackPath. Logins names the servers the page offers it for.
	Login     func(ctx context.Context, server string, p *oauth.Prompter) error
	Callbacks *oauth.Callbacks
	Logins    func() []string
	// People, when set with Callbacks, lets each principal log in as
	// themselves to the servers with identity: user (loginperson.go).
	People *People

	// DrainDelay is how long a stopping server goes on serving, not ready
	// (/readyz answers 503), before it closes its listener: a load
	// balancer checking readiness every few seconds stops sending it new
	// requests meanwhile. 0 closes it at once, enough for one server
	// alone.
	DrainDelay time.Duration

	// Replicas, when set, makes this one replica of several sharing the
	// state: sessions and parked calls name their replica, and requests
	// for another's are forwarded to it (replicas.go). Unset, ids are
	// what they were.
	Replicas *Replicas
	// Cluster, when set, lists the replicas sharing the state, this one
	// marked Self, for the status page; with a state of files there is
	// none, and the page shows this process alone.
	Cluster func() ([]ReplicaStatus, error)

	// Metrics, when set, is served as GET /metrics (package
	// server/metrics's Handler), to the operator's token as the status
	// page is, in the Authorization header only.
	Metrics http.Handler
}

// Handler is toolsearch's HTTP face: MCP Streamable HTTP at /mcp for both
// protocol eras, the status page, /healthz and /readyz, all behind one
// guard.
type Handler struct {
	root     http.Handler            // the guard, behind refuseFraming
	mcp      *mcpEndpoint            // the whole catalog
	profiles map[string]*mcpEndpoint // by profile
	status   *statusView
	ready    *readiness
	// drainDelay is Options.DrainDelay, which Serve waits.
	drainDelay time.Duration
}

// NewHandler builds the handler over s; Close (or Serve) ends what it
// started.
func NewHandler(s *server.Server, o Options) *Handler {
	if o.MaxBodyBytes == 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.SessionTimeout == 0 {
		o.SessionTimeout = DefaultSessionTimeout
	}
	if o.BodyTimeout == 0 {
		o.BodyTimeout = DefaultBodyTimeout
	}
	if o.MaxSessions == 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	h := &Handler{mcp: newMCPEndpoint(s, o), profiles: map[string]*mcpEndpoint{}, status: newStatusView(s, o.Approvals), drainDelay: o.DrainDelay}
	for name, ps := range o.Profiles {
		h.profiles[name] = newMCPEndpoint(ps, o)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", h.serveMCP)
	mux.HandleFunc("/mcp/p/{name}", h.serveProfile)
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	h.ready = newReadiness(s, o, h.mcp.openSessions)
	mux.Handle("GET /readyz", h.ready)
	if o.Metrics != nil {
		mux.Handle("GET /metrics", o.Metrics)
	}
	h.status.cluster = o.Cluster
	h.status.register(mux)
	if addLogin(mux, o, s.Options().Logger) {
		h.status.logins = o.Logins
	}
	h.root = refuseFraming(newGuard(mux, o))
	return h
}

// ServeHTTP serves a request.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.root.ServeHTTP(w, r) }

// Close ends every MCP session the handler opened, which cancels the
// requests they are still running, and stops the status page's
// measurement. It does not wait for either.
func (h *Handler) Close() {
	for _, e := range h.endpoints() {
		e.closeSessions()
	}
	h.status.close()
}

// endpoints are the MCP endpoints: the whole catalog's and each profile's.
func (h *Handler) endpoints() []*mcpEndpoint {
	out := []*mcpEndpoint{h.mcp}
	for _, e := range h.profiles {
		out = append(out, e)
	}
	return out
}

// inflight counts the POST requests being served, over every endpoint.
func (h *Handler) inflight() int64 {
	var n int64
	for _, e := range h.endpoints() {
		n += e.inflight.Load()
	}
	return n
}
