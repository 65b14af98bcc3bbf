// Package web serves toolsearch over HTTP: MCP Streamable HTTP at /mcp for
// both protocol eras, the live status page, and the health probes. It sits
// above package server, which knows nothing of HTTP: the handler builds the
// MCP servers it needs through server.Server and reads the rest through its
// accessors.
package web

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/server"
	"github.com/toolsearch/toolsearch/server/internal/protocol"
)

// Defaults of the HTTP transport.
const (
	DefaultHTTPAddr       = "127.0.0.1:7777"
	DefaultMaxBodyBytes   = 4 << 20
	DefaultSessionTimeout = 30 * time.Minute
)

// Options configure the HTTP handler.
type Options struct {
	// Token, when set, is the bearer token every request must carry.
	// Binding anything but loopback requires one.
	Token string
	// AllowedOrigins lists the browser origins (scheme://host[:port]) that
	// may call; loopback origins are always allowed. "*" allows any.
	AllowedOrigins []string
	// MaxBodyBytes bounds request bodies (DefaultMaxBodyBytes when 0).
	MaxBodyBytes int64
	// SessionTimeout closes sessions idle this long (DefaultSessionTimeout
	// when 0).
	SessionTimeout time.Duration
	// Ready reports readiness details for /readyz: the catalog is loaded
	// when the handler exists, so this only adds per-upstream states.
	Ready func() map[string]string
}

// CheckBind refuses to serve a non-loopback address without a token: an
// MCP gateway reachable from the network would hand its tools to anyone.
func CheckBind(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %q: %v", addr, err)
	}
	if isLoopbackHost(host) || token != "" {
		return nil
	}
	return fmt.Errorf("--http %s listens beyond this machine: set a bearer token with --token-file or TOOLSEARCH_TOKEN, or bind 127.0.0.1", addr)
}

func isLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// NewHandler serves MCP Streamable HTTP at /mcp for both protocol eras,
// with /healthz and /readyz beside it. Requests of protocol 2026-07-28 go
// to a stateless handler (the era has no sessions); older ones get
// sessions, so that notifications reach them.
func NewHandler(s *server.Server, o Options) http.Handler {
	if o.MaxBodyBytes == 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.SessionTimeout == 0 {
		o.SessionTimeout = DefaultSessionTimeout
	}
	log := s.Options().Logger
	shared := s.NewMCPServer()
	servers := &sessionServers{s: s, shared: shared}
	stateful := mcp.NewStreamableHTTPHandler(servers.get, &mcp.StreamableHTTPOptions{
		Logger:              log,
		SessionTimeout:      o.SessionTimeout,
		MaxRequestBodyBytes: o.MaxBodyBytes,
	})
	stateless := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return shared }, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		Logger:                       log,
		MaxRequestBodyBytes:          o.MaxBodyBytes,
		PropagateRequestCancellation: true,
	})

	mux := http.NewServeMux()
	mux.Handle("/mcp", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Protocol-Version") >= protocol.Modern {
			stateless.ServeHTTP(w, r)
			return
		}
		if s.Options().Promote && r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" {
			// A new legacy session gets a server of its own, so that
			// promoting tools changes no other session's list.
			r = r.WithContext(context.WithValue(r.Context(), newSessionKey{}, servers.fresh()))
		}
		stateful.ServeHTTP(w, r)
	}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, r *http.Request) {
		snap := s.Snapshot()
		body := map[string]any{"ready": true, "entries": len(snap.Entries)}
		if o.Ready != nil {
			body["upstreams"] = o.Ready()
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(body)
	})
	addStatus(s, mux)
	return guard(mux, o)
}

type newSessionKey struct{}

// sessionServers hands out MCP servers to the stateful handler: the shared
// one, or with promotion a fresh one per new session, released once its
// session has gone.
type sessionServers struct {
	s      *server.Server
	shared *mcp.Server

	mu         sync.Mutex
	perSession []sessionServer
}

type sessionServer struct {
	ms      *mcp.Server
	created time.Time
}

// sessionGrace is how long a fresh server may go without a session before
// it counts as abandoned: its session is being set up meanwhile.
const sessionGrace = time.Minute

func (p *sessionServers) get(r *http.Request) *mcp.Server {
	if ms, ok := r.Context().Value(newSessionKey{}).(*mcp.Server); ok {
		return ms
	}
	return p.shared
}

func (p *sessionServers) fresh() *mcp.Server {
	ms := p.s.NewMCPServer()
	now := time.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	// Release the servers whose sessions are gone, or never came.
	p.perSession = slices.DeleteFunc(p.perSession, func(ss sessionServer) bool {
		if now.Sub(ss.created) < sessionGrace {
			return false
		}
		for range ss.ms.Sessions() {
			return false
		}
		p.s.Release(ss.ms)
		return true
	})
	p.perSession = append(p.perSession, sessionServer{ms, now})
	return ms
}

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

func validBearer(r *http.Request, token string) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		// Browsers cannot set headers on EventSource and page loads; the
		// status page passes the token as a query parameter instead.
		got = r.URL.Query().Get("token")
	}
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
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

// Serve serves h on ln until ctx ends, then shuts down gracefully: new
// requests are refused, requests in flight get grace to finish, and
// whatever still runs after it (long calls, scripts) is cancelled.
func Serve(ctx context.Context, s *server.Server, ln net.Listener, h http.Handler, grace time.Duration) error {
	base, cancelAll := context.WithCancel(context.Background())
	defer cancelAll()
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return base },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	deadline, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(deadline) }()
	// Idle notification streams would hold Shutdown for the whole grace
	// period: wait only for the requests in flight, then end the sessions.
	for s.InFlight() > 0 && deadline.Err() == nil {
		time.Sleep(20 * time.Millisecond)
	}
	cancelAll()
	s.CloseSessions()
	err := <-shut
	if errors.Is(err, context.DeadlineExceeded) {
		err = srv.Close()
	}
	if e := <-errc; !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	return err
}
