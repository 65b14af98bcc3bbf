package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/server"
)

// readiness answers /readyz. It answers anybody, as a load balancer's
// health check carries no token and may name no host this server knows:
// ready or not, and nothing more (200 or 503, {"ready": bool}). A request
// that would pass the guard's checks of who it is (Host, Origin, the
// operator's token) gets the details besides: the catalog's size, the
// sessions, each upstream's state and why one is not serving.
//
// A handler is ready once it exists (the catalog is loaded) and has read
// what it serves from the shared state (Options.Loaded), until it drains
// (Handler.Drain): then it turns not ready at once, so that the load
// balancer sends it nothing new while what it serves finishes.
type readiness struct {
	s        *server.Server
	o        Options
	sessions func() int
	draining atomic.Bool
	// insiders are the checks a request must pass to see the details.
	insiders []check
}

func newReadiness(s *server.Server, o Options, sessions func() int) *readiness {
	return &readiness{s: s, o: o, sessions: sessions, insiders: whoChecks(o)}
}

func (rd *readiness) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	draining, loaded := rd.draining.Load(), rd.loaded()
	ready := !draining && loaded
	status := http.StatusOK
	if !ready {
		status = http.StatusServiceUnavailable
	}
	body := map[string]any{"ready": ready}
	if rd.insider(r) {
		rd.details(body)
		if draining {
			body["draining"] = true
		}
		if !loaded {
			body["loading"] = "the shared state (the approvals and the OAuth logins) is not read yet"
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(body)
}

// loaded reports whether what the server serves from the shared state was
// read (Options.Loaded).
func (rd *readiness) loaded() bool {
	if rd.o.Loaded == nil {
		return true
	}
	select {
	case <-rd.o.Loaded:
		return true
	default:
		return false
	}
}

// insider reports whether r passes the checks of who it is, answering
// nothing itself.
func (rd *readiness) insider(r *http.Request) bool {
	r = r.Clone(r.Context())
	for _, c := range rd.insiders {
		if !c(discardWriter{}, r) {
			return false
		}
	}
	return true
}

// details adds to body what the operator sees of readiness.
func (rd *readiness) details(body map[string]any) {
	snap := rd.s.Snapshot()
	body["entries"], body["sessions"] = len(snap.Entries), rd.sessions()
	if rd.o.Ready != nil {
		body["upstreams"] = rd.o.Ready()
	}
	// Why a server is not serving: its error and the last lines of its
	// stderr, where the cause usually is.
	errs := map[string]any{}
	for _, src := range snap.Sources {
		if src.Kind == catalog.SourceServer && src.LastError != "" {
			first, _, _ := strings.Cut(src.LastError, "\n")
			errs[src.Name] = map[string]any{"state": src.State, "error": first, "stderr": catalog.LastLines(src.Stderr, 5)}
		}
	}
	if len(errs) > 0 {
		body["errors"] = errs
	}
}

// discardWriter takes what a check would answer a request it refuses.
type discardWriter struct{}

func (discardWriter) Header() http.Header         { return http.Header{} }
func (discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (discardWriter) WriteHeader(int)             {}

// Drain turns the handler not ready: /readyz answers 503 from now on,
// while everything else is served as before. Serve drains before it
// stops.
func (h *Handler) Drain() { h.ready.draining.Store(true) }
