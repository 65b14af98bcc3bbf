//go:build team && linux

package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestTeamFigures measures three replicas behind HAProxy for
// BENCHMARKS.md: latency (p50, p99) and requests per second of a search
// and of a call (a write to the ledger upstream), each from 8 sessionless
// (2026-07-28) clients through the load balancer; then failover: the
// calls lost when one replica is killed with SIGKILL under that load, and
// how long a replica takes from its start to ready.
//
//	TOOLSEARCH_TEAM_FIGURES=1 go test -tags team -count=1 -run TestTeamFigures -v ./cmd/toolsearch
func TestTeamFigures(t *testing.T) {
	if os.Getenv("TOOLSEARCH_TEAM_FIGURES") == "" {
		t.Skip("set TOOLSEARCH_TEAM_FIGURES=1 to measure (BENCHMARKS.md's team figures)")
	}
	tm := startTeam(t, teamOptions{tokenTTL: time.Hour, replicas: 3})
	const clients, span = 8, 10 * time.Second
	search := func(ctx context.Context, _ string) outcome {
		_, o := modernCall(ctx, tm.lb.base(), teamOperatorToken, "tool_search", map[string]any{"query": "record an entry in the team ledger"})
		return o
	}
	log := &callLog{}
	call := func(ctx context.Context, id string) outcome {
		text, o := modernCall(ctx, tm.lb.base(), teamOperatorToken, "call_tool", map[string]any{"name": "ledger__record", "arguments": map[string]any{"id": id}})
		if o == succeeded && !strings.Contains(text, "recorded "+id) {
			o = refused
		}
		return o
	}
	// Warm up: every replica has listed and indexed.
	measureLoad(log, clients, 2*time.Second, search, nil)

	var rows []string
	for _, m := range []struct {
		name string
		fn   func(context.Context, string) outcome
	}{{"search (tool_search)", search}, {"call (call_tool → ledger__record)", call}} {
		r := measureLoad(log, clients, span, m.fn, nil)
		rows = append(rows, fmt.Sprintf("| %s | %d | %s | %s | %.0f | %d |", m.name, r.ok, ms(r.quantile(0.5)), ms(r.quantile(0.99)), r.perSecond(), r.failed))
	}

	// Failover: kill -9 one replica 3 s into 10 s of calls.
	victim := tm.replicas[0]
	var killedAt time.Time
	r := measureLoad(log, clients, span, call, func() {
		time.Sleep(3 * time.Second)
		killedAt = time.Now()
		victim.signal(syscall.SIGKILL)
	})
	<-victim.exited()
	lostCut, lostRefused, cutDone := 0, 0, 0
	for _, c := range r.records {
		if c.at.Before(killedAt.Add(-time.Second)) {
			continue
		}
		switch c.outcome {
		case cut:
			lostCut++
			if n, _ := tm.up.count(c.id); n > 0 {
				cutDone++ // the write happened; its answer was lost with the replica
			}
		case refused:
			lostRefused++
		}
	}
	victim.start()
	ready := victim.waitReady(60 * time.Second)
	// A restart with the database's catalogs and approvals at hand, as
	// after a kill; and once more, for a second sample.
	victim.stop(syscall.SIGTERM, 30*time.Second)
	victim.start()
	ready2 := victim.waitReady(60 * time.Second)

	t.Logf("three replicas behind HAProxy, %d sessionless clients, %s each:", clients, span)
	t.Logf("| operation | requests | p50 | p99 | requests/s | failed |")
	t.Logf("|---|---|---|---|---|---|")
	for _, row := range rows {
		t.Log(row)
	}
	t.Logf("failover: kill -9 of one replica under %d clients' calls (%d calls in %s): %d cut in flight (%d of them done upstream, the answer lost), %d refused; %d succeeded", clients, r.ok+r.failed, span, lostCut, cutDone, lostRefused, r.ok)
	t.Logf("time to ready (process start to /readyz 200): %s after the kill, %s on a second start", ms(ready), ms(ready2))
}

// loadResult is what measureLoad saw.
type loadResult struct {
	took    []time.Duration // of the calls that succeeded
	ok      int
	failed  int
	elapsed time.Duration
	records []callRecord
}

func (r loadResult) quantile(q float64) time.Duration {
	if len(r.took) == 0 {
		return 0
	}
	s := slices.Clone(r.took)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

func (r loadResult) perSecond() float64 { return float64(r.ok) / r.elapsed.Seconds() }

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }

// measureLoad runs fn from n clients at once, one request after another,
// for span; during runs beside them.
func measureLoad(log *callLog, n int, span time.Duration, fn func(context.Context, string) outcome, during func()) loadResult {
	ctx, cancel := context.WithTimeout(context.Background(), span)
	defer cancel()
	var mu sync.Mutex
	var r loadResult
	var wg sync.WaitGroup
	start := time.Now()
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				id := log.newID(fmt.Sprintf("figures-%d", i))
				t0 := time.Now()
				o := fn(ctx, id)
				took := time.Since(t0)
				if ctx.Err() != nil && o != succeeded {
					return // cut by the end of the span, not by the cluster
				}
				mu.Lock()
				r.records = append(r.records, callRecord{id: id, outcome: o, at: t0, took: took})
				if o == succeeded {
					r.ok++
					r.took = append(r.took, took)
				} else {
					r.failed++
				}
				mu.Unlock()
			}
		}()
	}
	if during != nil {
		during()
	}
	wg.Wait()
	r.elapsed = time.Since(start)
	return r
}
