package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/ownership"
	"github.com/toolsearch/toolsearch/internal/principal"
	"github.com/toolsearch/toolsearch/server"
	"github.com/toolsearch/toolsearch/server/internal/protocol"
)

// retryAfter is what a client refused for want of a session slot is told
// to wait, in seconds: sessions free up as clients leave or idle out.
const retryAfter = 30

// mcpEndpoint serves /mcp. Requests of protocol 2026-07-28 go to a
// stateless handler (the era has no sessions); older ones get sessions, so
// that notifications reach them. Every session is counted, up to the cap,
// from the initialize request that opens it until it ends.
//
// With promotion, a new session gets an MCP server of its own, so that
// promoting tools changes no other session's list; it is built only for an
// initialize request, the one that opens a session, and released when that
// session ends.
type mcpEndpoint struct {
	s           *server.Server
	shared      *mcp.Server
	stateful    http.Handler
	stateless   http.Handler
	promote     bool
	maxSessions int
	// newServer builds the MCP server of a promoting session;
	// s.NewMCPServer, or a counting stand-in in tests.
	newServer func() *mcp.Server

	// replicas, when set, routes requests naming another replica's
	// session or parked call to it (replicas.go); fwd forwards them.
	replicas *Replicas
	fwd      *forwarder

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]bool // open legacy sessions
	opening  int                         // initialize requests being served, each holding a slot
	inflight atomic.Int64                // POST requests being served
}

func newMCPEndpoint(s *server.Server, o Options) *mcpEndpoint {
	log := s.Options().Logger
	e := &mcpEndpoint{
		s:           s,
		shared:      s.NewMCPServer(),
		promote:     s.Options().Promote,
		maxSessions: o.MaxSessions,
		newServer:   s.NewMCPServer,
		sessions:    map[*mcp.ServerSession]bool{},
		replicas:    o.Replicas,
	}
	if o.Replicas != nil {
		e.fwd = newForwarder(o.Replicas)
	}
	// The guard checks the Host header of every request, /mcp included, and
	// knows the allowed names: the go-sdk's own check would refuse them.
	e.stateful = mcp.NewStreamableHTTPHandler(e.serverFor, &mcp.StreamableHTTPOptions{
		DisableLocalhostProtection: true,
		Logger:                     log,
		SessionTimeout:             o.SessionTimeout,
		MaxRequestBodyBytes:        o.MaxBodyBytes,
	})
	e.stateless = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return e.shared }, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		DisableLocalhostProtection:   true,
		Logger:                       log,
		MaxRequestBodyBytes:          o.MaxBodyBytes,
		PropagateRequestCancellation: true,
	})
	return e
}

type newSessionKey struct{}

// serverFor hands the stateful handler the MCP server of a request: the
// one built for a new promoting session, or the shared one.
func (e *mcpEndpoint) serverFor(r *http.Request) *mcp.Server {
	if ms, ok := r.Context().Value(newSessionKey{}).(*mcp.Server); ok {
		return ms
	}
	return e.shared
}

func (e *mcpEndpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		// Shutdown waits for these; streams (GET) it ends itself.
		e.inflight.Add(1)
		defer e.inflight.Add(-1)
	}
	if e.replicas != nil {
		// Request states made while serving this request name this
		// replica and its caller.
		r = r.WithContext(ownership.With(r.Context(), e.replicas.Sealer))
	}
	if r.Header.Get("Mcp-Protocol-Version") >= protocol.Modern {
		if e.replicas != nil && r.Method == http.MethodPost && e.routeModern(w, r) {
			return
		}
		e.stateless.ServeHTTP(w, r)
		return
	}
	if id := r.Header.Get("Mcp-Session-Id"); id != "" && e.replicas != nil && e.routeLegacy(w, r, id) {
		return
	}
	if r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" {
		e.stateful.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		bodyError(w, err)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	if !isInitialize(body) {
		e.stateful.ServeHTTP(w, r) // the SDK answers what it is
		return
	}
	e.openSession(w, r)
}

// isInitialize reports whether a request body holds an initialize
// request, the only one that opens a session: alone, or in a batch, which
// protocol 2025-03-26 allowed.
func isInitialize(body []byte) bool {
	type message struct {
		Method string `json:"method"`
	}
	var msg message
	if json.Unmarshal(body, &msg) == nil {
		return msg.Method == "initialize"
	}
	var batch []message
	return json.Unmarshal(body, &batch) == nil && slices.ContainsFunc(batch, func(m message) bool { return m.Method == "initialize" })
}

// openSession serves an initialize request if a session slot is free, and
// follows the session it opens until it ends.
func (e *mcpEndpoint) openSession(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	if len(e.sessions)+e.opening >= e.maxSessions {
		e.mu.Unlock()
		w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
		http.Error(w, fmt.Sprintf("Service Unavailable: %d sessions are open, the most this server keeps (http.maxSessions); retry later", e.maxSessions), http.StatusServiceUnavailable)
		return
	}
	e.opening++
	e.mu.Unlock()

	ms := e.shared
	if e.promote {
		ms = e.newServer()
		r = r.WithContext(context.WithValue(r.Context(), newSessionKey{}, ms))
	}
	id := e.serveInitialize(w, r)

	var ss *mcp.ServerSession
	if id != "" {
		for s := range ms.Sessions() {
			if s.ID() == id {
				ss = s
			}
		}
	}
	e.mu.Lock()
	e.opening--
	if ss != nil {
		e.sessions[ss] = true
	}
	e.mu.Unlock()
	if ss == nil {
		if ms != e.shared {
			e.s.Release(ms)
		}
		return
	}
	go func() {
		ss.Wait()
		e.mu.Lock()
		delete(e.sessions, ss)
		e.mu.Unlock()
		if ms != e.shared {
			e.s.Release(ms)
		}
	}()
}

// serveInitialize serves an initialize request and returns the id of the
// session it opened, as the go-sdk knows it; the client gets it sealed
// when this is one replica of several.
func (e *mcpEndpoint) serveInitialize(w http.ResponseWriter, r *http.Request) string {
	if e.replicas == nil {
		e.stateful.ServeHTTP(w, r)
		return w.Header().Get("Mcp-Session-Id")
	}
	sw := &sealingWriter{ResponseWriter: w, sealer: e.replicas.Sealer, principal: principal.From(r.Context())}
	e.stateful.ServeHTTP(sw, r)
	sw.seal()
	return sw.internal
}

// openSessions returns how many legacy sessions are open.
func (e *mcpEndpoint) openSessions() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.sessions)
}

// closeSessions ends every open session without waiting: a session waits
// for its requests to return, and a request that ignores cancellation must
// not hold up shutdown.
func (e *mcpEndpoint) closeSessions() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for ss := range e.sessions {
		go ss.Close()
	}
}
