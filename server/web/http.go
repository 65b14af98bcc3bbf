// Package web serves toolsearch over HTTP: MCP Streamable HTTP at /mcp for
// both protocol eras, the live status page, and the health probes. It sits
// above package server, which knows nothing of HTTP: the handler builds the
// MCP servers it needs through server.Server and reads the rest through its
// accessors.
package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
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
	DefaultBodyTimeout    = 30 * time.Second
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
	// Ready reports readiness details for /readyz: the catalog is loaded
	// when the handler exists, so this only adds per-upstream states.
	Ready func() map[string]string
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
	if o.BodyTimeout == 0 {
		o.BodyTimeout = DefaultBodyTimeout
	}
	log := s.Options().Logger
	shared := s.NewMCPServer()
	servers := &sessionServers{s: s, shared: shared}
	// The guard checks the Host header of every request, /mcp included, and
	// knows the allowed names: the go-sdk's own check would refuse them.
	stateful := mcp.NewStreamableHTTPHandler(servers.get, &mcp.StreamableHTTPOptions{
		DisableLocalhostProtection: true,
		Logger:                     log,
		SessionTimeout:             o.SessionTimeout,
		MaxRequestBodyBytes:        o.MaxBodyBytes,
	})
	stateless := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return shared }, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		DisableLocalhostProtection:   true,
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
	return newGuard(mux, o)
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
