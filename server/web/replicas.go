package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/toolsearch/toolsearch/internal/ownership"
	"github.com/toolsearch/toolsearch/internal/principal"
)

// Replicas makes the handler one replica of several behind a load
// balancer, sharing the state (docs/teams.md). Sessions of protocol eras
// before 2026-07-28 and the calls of 2026-07-28 clients parked for their
// input live in the memory of the replica that made them; their ids (the
// Mcp-Session-Id, the requestState) name that replica, signed with the
// cluster's key and bound to the caller (package internal/ownership). A
// request naming one that reaches another replica is forwarded to its
// owner; one whose owner is gone gets what a lost session gets.
type Replicas struct {
	// Sealer signs the ids this replica issues and reads the others'.
	Sealer *ownership.Sealer
	// Address returns where the live replica id is reached
	// (http://host:port), or false when it is not live.
	Address func(id string) (string, bool)
	// MaxForwards bounds the requests forwarded at once
	// (DefaultMaxForwards when 0); beyond it a request gets 503 with
	// Retry-After.
	MaxForwards int
	// Transport carries forwarded requests (a transport of bounded dials
	// when nil; tests set their own).
	Transport http.RoundTripper
}

// forwardedHeader marks a request one replica forwarded to another, which
// forwards it no further: two replicas that disagree on an owner must not
// pass a request back and forth.
const forwardedHeader = "Toolsearch-Forwarded-By"

// Answers to ids this cluster did not issue to the caller, and to sessions
// whose replica is gone (the spec's answer to a lost session, after which
// a client initializes again).
const (
	forgedSession = "Forbidden: this Mcp-Session-Id was not issued to this caller by a replica of this cluster: initialize a new session"
	forgedState   = "Forbidden: this requestState was not issued to this caller by a replica of this cluster: make the request again without it"
	lostSession   = "session not found: the replica that held it is gone; initialize a new session"
)

// routeLegacy serves a request of an era with sessions that names one:
// at its owner (this replica, under the id the go-sdk knows), forwarded to
// another, or refused. It reports whether it answered the request itself.
func (e *mcpEndpoint) routeLegacy(w http.ResponseWriter, r *http.Request, sealed string) bool {
	owner, id, err := e.replicas.Sealer.Open(ownership.Session, principal.From(r.Context()), sealed)
	if err != nil {
		http.Error(w, forgedSession, http.StatusForbidden)
		return true
	}
	if owner == e.replicas.Sealer.Self() {
		r.Header.Set("Mcp-Session-Id", id)
		return false
	}
	addr, ok := e.replicas.Address(owner)
	if !ok || r.Header.Get(forwardedHeader) != "" {
		http.Error(w, lostSession, http.StatusNotFound)
		return true
	}
	e.fwd.forward(w, r, addr, func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, lostSession, http.StatusNotFound)
	})
	return true
}

// routeModern serves a 2026-07-28 request whose body names a parked call
// (its requestState): forwarded to the call's replica, or refused; it
// reports whether it answered. A call whose replica is gone is looked for
// here, and the relay gives the error it gives any call that ended.
func (e *mcpEndpoint) routeModern(w http.ResponseWriter, r *http.Request) bool {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		bodyError(w, err)
		return true
	}
	restore := func(r *http.Request) { r.Body = io.NopCloser(bytes.NewReader(body)) }
	restore(r)
	state := requestState(body)
	if state == "" {
		return false
	}
	owner, _, err := e.replicas.Sealer.Open(ownership.RequestState, principal.From(r.Context()), state)
	if err != nil {
		http.Error(w, forgedState, http.StatusForbidden)
		return true
	}
	if owner == e.replicas.Sealer.Self() || r.Header.Get(forwardedHeader) != "" {
		return false
	}
	addr, ok := e.replicas.Address(owner)
	if !ok {
		return false
	}
	e.fwd.forward(w, r, addr, func(w http.ResponseWriter, r *http.Request) {
		restore(r)
		e.stateless.ServeHTTP(w, r)
	})
	return true
}

// requestState is the requestState a request's params carry, if any.
func requestState(body []byte) string {
	if !bytes.Contains(body, []byte(`"requestState"`)) {
		return ""
	}
	var msg struct {
		Params struct {
			RequestState string `json:"requestState"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil {
		return ""
	}
	return msg.Params.RequestState
}

// bodyError answers a request whose body could not be read.
func bodyError(w http.ResponseWriter, err error) {
	status := http.StatusBadRequest
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		status = http.StatusRequestEntityTooLarge
	}
	http.Error(w, "reading the request body: "+err.Error(), status)
}

// sealingWriter turns the session id the go-sdk sets on an initialize
// response into one that names this replica and the caller. It flushes
// itself, so that http.ResponseController finds its Flush before the
// writer it wraps, and the header is sealed before anything goes out.
type sealingWriter struct {
	http.ResponseWriter
	sealer    *ownership.Sealer
	principal string
	internal  string // the go-sdk's id, once seen
	done      bool
}

func (s *sealingWriter) seal() {
	if s.done {
		return
	}
	s.done = true
	h := s.ResponseWriter.Header()
	if id := h.Get("Mcp-Session-Id"); id != "" {
		s.internal = id
		h.Set("Mcp-Session-Id", s.sealer.Seal(ownership.Session, s.principal, id))
	}
}

func (s *sealingWriter) WriteHeader(code int) {
	s.seal()
	s.ResponseWriter.WriteHeader(code)
}

func (s *sealingWriter) Write(b []byte) (int, error) {
	s.seal()
	return s.ResponseWriter.Write(b)
}

func (s *sealingWriter) Flush() {
	s.seal()
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (s *sealingWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }
