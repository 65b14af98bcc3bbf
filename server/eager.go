package server

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// eagerBook keeps the price of eager loading: what the catalog would cost
// loaded up front, which StatsURI and every session's summary report.
//
// Pricing a catalog means encoding every tool and counting its tokens: at
// 100,000 tools some 8 s of CPU, which a stdio session's summary, written
// as the process exits, used to spend then, far beyond the shutdown grace.
// So a catalog is priced once it is indexed and no server is listing its
// tools, in the background, and entry by entry: entries never change once
// published, and a new snapshot shares most of them with the last, so only
// the entries it adds are counted. Whoever needs the price of the current
// snapshot waits for the pass under way rather than starting its own.
type eagerBook struct {
	mu     sync.Mutex
	snap   *catalog.Snapshot // the last snapshot priced
	cost   EagerCost         // its price
	counts map[*catalog.Entry]int
	// running is closed when the pass under way ends; nil when none is.
	running chan struct{}
	counted int // entries counted, over all passes
}

// testEagerGate, when set, runs before each pricing pass: tests hold
// pricing back to stop a server while it is still to come. Atomic, since
// passes of servers a test is done with may still be starting.
var testEagerGate atomic.Pointer[func()]

// eagerCost returns the price of the current snapshot, waiting for it.
func (s *Server) eagerCost() EagerCost {
	cost, _ := s.eagerCostBy(context.Background())
	return cost
}

// eagerCostBy returns the price of the current snapshot, or false when it
// is not priced before ctx ends or the server closes.
func (s *Server) eagerCostBy(ctx context.Context) (EagerCost, bool) {
	b := &s.eager
	for {
		snap := s.Snapshot()
		b.mu.Lock()
		if b.snap == snap {
			cost := b.cost
			b.mu.Unlock()
			return cost, true
		}
		running := b.running
		if running == nil {
			running = make(chan struct{})
			b.running = running
			go s.priceEager(snap, running)
		}
		b.mu.Unlock()
		select {
		case <-running:
		case <-ctx.Done():
			return EagerCost{}, false
		case <-s.done:
			return EagerCost{}, false
		}
	}
}

// priceEagerLater starts pricing the current snapshot, unless it is priced
// or being priced, or a server in it is still listing its tools: pricing
// takes a core for seconds, which a start's listing and indexing need,
// and the listing will change the catalog anyway. The indexer calls it
// after each pass; a change of state is a new snapshot, so the pass after
// the last listing prices the catalog.
func (s *Server) priceEagerLater() {
	b := &s.eager
	snap := s.Snapshot()
	if listing(snap) {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.snap == snap || b.running != nil {
		return
	}
	b.running = make(chan struct{})
	go s.priceEager(snap, b.running)
}

// listing reports whether a server of snap is listing its tools.
func listing(snap *catalog.Snapshot) bool {
	for _, src := range snap.Sources {
		if src.State == catalog.StateConnecting || src.State == catalog.StateValidating {
			return true
		}
	}
	return false
}

// priceEager prices snap, counting only the entries not counted before,
// then closes running. A pass cut short by Close keeps what it counted.
func (s *Server) priceEager(snap *catalog.Snapshot, running chan struct{}) {
	s.pricing.Add(1)
	defer s.pricing.Add(-1)
	if gate := testEagerGate.Load(); gate != nil {
		(*gate)()
	}
	b := &s.eager
	b.mu.Lock()
	known := b.counts
	b.mu.Unlock()
	counts := make(map[*catalog.Entry]int, len(known))
	cost := EagerCost{CatalogVersion: snap.Version}
	complete, counted := true, 0
	for i, e := range snap.Listed() {
		if !e.ForModel() {
			continue // see eagerCosts
		}
		if i%256 == 0 && s.closed() {
			complete = false
			break
		}
		n, ok := known[e]
		if !ok {
			n = s.tok.Count(eagerText(e))
			counted++
		}
		counts[e] = n
		cost.Entries++
		cost.Tokens += n
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.counted += counted
	if complete {
		b.snap, b.cost, b.counts = snap, cost, counts
	} else {
		for e, n := range known {
			counts[e] = n
		}
		b.counts = counts
	}
	close(running)
	b.running = nil
}

// closed reports whether Close was called.
func (s *Server) closed() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// eagerText is what eager loading puts in the model's context for an
// entry: a tool's JSON as in a tools/list result (json.Marshal is what the
// SDK sends), a skill's SKILL.md body.
func eagerText(e *catalog.Entry) string {
	if e.Kind == catalog.KindSkill {
		return e.Skill.Body
	}
	if data, err := json.Marshal(e.Exposed()); err == nil {
		return string(data)
	}
	return ""
}
