package web

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/server"
)

//go:embed status.html
var statusPage []byte

// maxStatusEntries bounds the entries the status page gets at once; the
// page filters on the server beyond that.
const maxStatusEntries = 500

// statusQueries is about how many queries the page's measurement runs.
const statusQueries = 200

// Status is what the status page shows.
type Status struct {
	Version   string        `json:"version"`
	Tokenizer string        `json:"tokenizer"`
	Started   time.Time     `json:"started"`
	Catalog   CatalogReport `json:"catalog"`
	// EntriesTotal is how many entries the catalog holds; Catalog.Entries
	// holds those that pass the page's filter, at most maxStatusEntries.
	EntriesTotal int `json:"entriesTotal"`
	// Tokens is the measurement of the current catalog; nil while it is
	// being computed.
	Tokens   *server.Report `json:"tokens,omitempty"`
	Activity []server.Event `json:"activity"`
	// Pending are the tools and skills waiting for approval, with their
	// diffs, at most maxPendingShown.
	Pending []Pending `json:"pending,omitempty"`
	// Quarantined is everything held, tools and what else servers define
	// (see quarantined).
	Quarantined []HeldReport `json:"quarantined,omitempty"`
	// Logins names the upstream servers the page offers a login for.
	Logins []string `json:"logins,omitempty"`
	// Cluster are the replicas sharing the state, with their upstreams'
	// states; nil with a state of files (this process alone).
	Cluster *ClusterStatus `json:"cluster,omitempty"`
}

// statusView serves the status page and its data.
type statusView struct {
	s         *server.Server
	approvals Approvals // nil without approvals
	confirms  confirmations
	started   time.Time
	// logins names the servers the page offers a login for; nil when
	// the page offers none.
	logins func() []string
	// cluster lists the replicas sharing the state (Options.Cluster).
	cluster func() ([]ReplicaStatus, error)
	// measure measures the catalog for the page; statusView.measureCatalog,
	// or a stand-in in tests.
	measure func(context.Context, *catalog.Snapshot) (*server.Report, error)

	// life ends with close, and with it any measurement.
	life context.Context
	end  context.CancelFunc

	mu       sync.Mutex
	measured *server.Report // the last figures, of an earlier version maybe
	done     uint64         // catalog version measured (or failed to)
	want     uint64         // latest catalog version seen
	running  bool           // a measurement goroutine runs
	cancel   context.CancelFunc
}

func newStatusView(s *server.Server, approvals Approvals) *statusView {
	v := &statusView{s: s, approvals: approvals, started: time.Now(), done: ^uint64(0), want: ^uint64(0)}
	v.measure = v.measureCatalog
	v.life, v.end = context.WithCancel(context.Background())
	return v
}

// register serves the status page on mux: / (the page), /status.json,
// /events (server-sent events when something changes) and /search (what
// the model receives for a query).
func (v *statusView) register(mux *http.ServeMux) {
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:")
		// The page's address may carry the token (?token=): no link
		// followed from it may send that address on.
		w.Header().Set("Referrer-Policy", "no-referrer")
		w.Write(statusPage)
	})
	mux.HandleFunc("GET /status.json", v.serveStatus)
	mux.HandleFunc("GET /events", v.serveEvents)
	mux.HandleFunc("GET /search", v.serveSearch)
	mux.HandleFunc("POST /approve", v.serveApprove)
}

// close stops the measurement running in the background, if any.
func (v *statusView) close() { v.end() }

func (v *statusView) serveStatus(w http.ResponseWriter, r *http.Request) {
	snap := v.s.Snapshot()
	st := Status{
		Version:   v.s.Options().Version,
		Tokenizer: v.s.Tokens().Name(),
		Started:   v.started,
		Catalog:   BuildCatalogReport(snap),
		Tokens:    v.tokens(),
		Activity:  []server.Event{},
		Pending:   v.pending(),
	}
	st.Quarantined = quarantined(snap, st.Pending)
	st.EntriesTotal = len(st.Catalog.Entries)
	if q := r.URL.Query().Get("filter"); q != "" {
		st.Catalog.Entries = filterEntries(st.Catalog.Entries, q)
	}
	if len(st.Catalog.Entries) > maxStatusEntries {
		st.Catalog.Entries = st.Catalog.Entries[:maxStatusEntries]
	}
	if a := v.s.Options().Activity; a != nil {
		st.Activity = a.Recent()
	}
	if v.logins != nil {
		st.Logins = v.logins()
	}
	st.Cluster = clusterStatus(v.cluster)
	writeJSON(w, st)
}

// tokens returns the latest figures, and has the current catalog measured
// in the background when it has changed since. One measurement runs at a
// time, and a newer catalog cancels it: on a catalog that changes often,
// measurements would otherwise pile up, each of a catalog already gone.
func (v *statusView) tokens() *server.Report {
	version := v.s.Snapshot().Version
	v.mu.Lock()
	defer v.mu.Unlock()
	if version != v.want {
		v.want = version
		if v.cancel != nil {
			v.cancel() // the running measurement is of an older catalog
		}
		if !v.running {
			v.running = true
			go v.measureLatest()
		}
	}
	return v.measured
}

// measureLatest measures the latest catalog until the figures are of it.
func (v *statusView) measureLatest() {
	for {
		v.mu.Lock()
		version := v.want
		if version == v.done || v.life.Err() != nil {
			v.running, v.cancel = false, nil
			v.mu.Unlock()
			return
		}
		ctx, cancel := context.WithCancel(v.life)
		v.cancel = cancel
		v.mu.Unlock()

		rep, err := v.measure(ctx, v.s.Snapshot())
		cancel()
		v.mu.Lock()
		switch {
		case err == nil:
			v.measured, v.done = rep, version
		case ctx.Err() == nil:
			// Not cancelled: it would fail again on this catalog.
			v.s.Options().Logger.Warn("measuring the catalog for the status page", "err", err)
			v.done = version
		}
		v.mu.Unlock()
	}
}

// measureCatalog measures a sample of queries: enough on large catalogs,
// since the figures are means and percentiles, which a sample estimates.
func (v *statusView) measureCatalog(ctx context.Context, snap *catalog.Snapshot) (*server.Report, error) {
	queries := server.OneLinerQueries(snap)
	if step := len(queries) / statusQueries; step > 1 {
		sample := queries[:0:0]
		for i := 0; i < len(queries); i += step {
			sample = append(sample, queries[i])
		}
		queries = sample
	}
	return v.s.Measure(ctx, server.MeasureOptions{Queries: queries, QuerySource: fmt.Sprintf("one-liners of %d entries", len(queries)), DefaultOnly: true})
}

// serveEvents tells the page when to refresh: on every request the server
// handles and every catalog change, at most a few times a second.
func (v *statusView) serveEvents(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	var activity <-chan struct{}
	if a := v.s.Options().Activity; a != nil {
		ch, stop := a.Subscribe()
		defer stop()
		activity = ch
	}
	cat := make(chan struct{}, 1)
	defer v.s.Catalog().Subscribe(func(_, _ *catalog.Snapshot) {
		select {
		case cat <- struct{}{}:
		default:
		}
	})()
	tick := time.NewTicker(15 * time.Second) // keeps proxies from closing an idle stream
	defer tick.Stop()
	fmt.Fprint(w, "retry: 2000\n\n")
	flusher.Flush()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-activity:
			fmt.Fprint(w, "event: update\ndata: activity\n\n")
		case <-cat:
			fmt.Fprint(w, "event: update\ndata: catalog\n\n")
		case <-tick.C:
			fmt.Fprint(w, ": keepalive\n\n")
		}
		flusher.Flush()
		// Coalesce bursts: the page refetches everything anyway.
		select {
		case <-r.Context().Done():
			return
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// serveSearch answers the page's search box with exactly what the model
// would receive: the text and the structured result.
func (v *statusView) serveSearch(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	args := server.SearchArgs{Query: q.Get("q"), Kind: q.Get("kind"), Detail: q.Get("detail")}
	if l := q.Get("limit"); l != "" {
		args.Limit, _ = strconv.Atoi(l)
	}
	res, err := v.s.Search(args)
	if err != nil {
		writeJSON(w, map[string]any{"error": err.Error()})
		return
	}
	text := res.Text()
	writeJSON(w, map[string]any{"text": text, "tokens": v.s.Tokens().Count(text), "result": res})
}

// filterEntries keeps the entries whose name, source or summary holds q,
// whatever the case. q is lowered once: it comes from the page, as long as
// a URL may be, and the catalog may hold 100,000 entries.
func filterEntries(entries []EntryReport, q string) []EntryReport {
	q = strings.ToLower(q)
	holds := func(s string) bool { return strings.Contains(strings.ToLower(s), q) }
	var out []EntryReport
	for _, e := range entries {
		if holds(e.Name) || holds(e.Source) || holds(e.Summary) {
			out = append(out, e)
		}
	}
	return out
}

func writeJSON(w http.ResponseWriter, v any) { writeJSONStatus(w, http.StatusOK, v) }

// writeJSONStatus answers with v and the status code: the headers go
// first, as nothing set after WriteHeader is sent.
func writeJSONStatus(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}
