package main

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/toolsearch/toolsearch/internal/ownership"
	"github.com/toolsearch/toolsearch/internal/state/pgstate"
	"github.com/toolsearch/toolsearch/server/web"
)

// replicaLookupWait bounds the registry query for a replica this one has
// not seen yet (one started since the last heartbeat).
const replicaLookupWait = 2 * time.Second

// A replicaSet is what this replica knows of the others sharing the
// state: their addresses, for the requests it forwards to them, and the
// registry as last read, for the status page. Every heartbeat updates it;
// a replica not in it is looked up in the database once per request, as it
// may have started since. While the database cannot be read, a replica
// not in it is reached at the address it last had (one that left the
// registry and started again under its id, before this one read it again):
// one that is really gone does not answer there, and its session is lost
// as it would be anyway.
type replicaSet struct {
	db   *pgstate.DB
	self string

	mu    sync.Mutex
	live  []pgstate.Replica
	err   error             // of the last read
	known map[string]string // id -> the address it last had, live or not
}

func newReplicaSet(db *pgstate.DB, self string) *replicaSet {
	return &replicaSet{db: db, self: self, known: map[string]string{}}
}

// maxKnownReplicas bounds the addresses remembered of replicas that left.
const maxKnownReplicas = 1024

// update takes the registry as a heartbeat read it.
func (s *replicaSet) update(live []pgstate.Replica, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.err = err
	if err == nil {
		s.live = live
		if len(s.known)+len(live) > maxKnownReplicas {
			clear(s.known)
		}
		for _, r := range live {
			s.known[r.ID] = r.Address
		}
	}
}

// address is where replica id is reached, if it is live (or, while the
// registry cannot be read, may be).
func (s *replicaSet) address(id string) (string, bool) {
	if addr, ok := s.find(id); ok {
		return addr, true
	}
	ctx, cancel := context.WithTimeout(context.Background(), replicaLookupWait)
	defer cancel()
	live, err := s.db.Replicas(ctx, pgstate.LiveWithin)
	if err != nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		addr, ok := s.known[id]
		return addr, ok
	}
	s.update(live, nil)
	return s.find(id)
}

func (s *replicaSet) find(id string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.live {
		if r.ID == id {
			return r.Address, true
		}
	}
	return "", false
}

// status lists the replicas for the status page, this one marked.
func (s *replicaSet) status() ([]web.ReplicaStatus, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]web.ReplicaStatus, 0, len(s.live))
	for _, r := range s.live {
		out = append(out, web.ReplicaStatus{ID: r.ID, Address: r.Address, ConfigDigest: r.ConfigDigest, Upstreams: r.Upstreams,
			Started: r.Started, Heartbeat: r.Heartbeat, Self: r.ID == s.self})
	}
	return out, s.err
}

// clusterOptions makes serve one replica of several when the state is
// shared: the status page lists them, and with state.keyFile sessions and
// parked calls name their replica, to which the others forward them.
func (a *app) clusterOptions(o *web.Options) *replicaSet {
	if a.state == nil {
		return nil
	}
	reps := newReplicaSet(a.state, a.replicaID())
	o.Cluster = reps.status
	if a.stateKey == nil {
		a.log.Warn("state.keyFile is not set: sessions of protocol eras before 2026-07-28, and calls waiting for a 2026-07-28 client's input, stay on the replica that made them, and a load balancer must keep each client on one replica")
		return reps
	}
	o.Replicas = &web.Replicas{Sealer: ownership.New(a.stateKey.OwnershipKey(), reps.self), Address: reps.address}
	return reps
}

// An earlyListener holds serve's address while the shared state loads,
// answering /healthz (alive) and /readyz (not ready, 503), and everything
// else 503 with Retry-After; serve takes its listener over once the state
// is loaded, so that no check meets a refused connection meanwhile.
type earlyListener struct {
	ln   net.Listener
	srv  *http.Server
	done chan struct{}
}

// listenEarly listens on addr for the time the state loads; nil when it
// cannot (serve then listens as usual, and reports the error).
func listenEarly(addr string, log *slog.Logger) *earlyListener {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil
	}
	e := &earlyListener{ln: ln, done: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(`{"ready":false}` + "\n"))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "1")
		http.Error(w, "Service Unavailable: toolsearch is loading the shared state; retry shortly", http.StatusServiceUnavailable)
	})
	e.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(e.done)
		e.srv.Serve(keepOpen{ln})
	}()
	log.Info("answering /readyz, not ready, while the shared state loads", "addr", ln.Addr().String())
	return e
}

// take stops answering and hands the listener over, open; nil for a nil
// earlyListener.
func (e *earlyListener) take() net.Listener {
	if e == nil {
		return nil
	}
	// The early server's Accept waits on the listener, which keepOpen
	// keeps open: a deadline passed ends the wait, so that Shutdown,
	// which waits for Serve to return, returns, and no connection meant
	// for serve goes to the early server.
	dl, ok := e.ln.(interface{ SetDeadline(time.Time) error })
	if ok {
		dl.SetDeadline(time.Now())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	e.srv.Shutdown(ctx) // closes the connections it served
	<-e.done
	if ok {
		dl.SetDeadline(time.Time{})
	}
	return e.ln
}

// close closes the listener of an earlyListener serve never took.
func (e *earlyListener) close() {
	if e != nil {
		e.take().Close()
	}
}

// keepOpen is a listener whose Close leaves the one it wraps open, so that
// shutting the early server down keeps the address for serve.
type keepOpen struct{ net.Listener }

func (keepOpen) Close() error { return nil }
