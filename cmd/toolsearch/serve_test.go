package main

import (
	"bytes"
	"context"
	"log/slog"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestGCPercent(t *testing.T) {
	const mb = 1 << 20
	tests := []struct {
		live uint64
		want int
	}{
		{0, 100},
		{20 * mb, 100},  // a usual catalog: Go's default
		{64 * mb, 100},  // the headroom exactly
		{128 * mb, 50},  // twice the headroom: half the default
		{160 * mb, 40},  // 100,000 tools
		{1024 * mb, 25}, // the floor: still in proportion
		{1 << 40, 25},   // no overflow
	}
	for _, tt := range tests {
		if got := gcPercent(tt.live); got != tt.want {
			t.Errorf("gcPercent(%d MB) = %d, want %d", tt.live/mb, got, tt.want)
		}
	}
	// At bulk work (indexing, pricing): the smaller headroom, down to the lower floor.
	for _, tt := range []struct {
		live uint64
		want int
	}{{24 * mb, 100}, {32 * mb, 75}, {160 * mb, 15}, {240 * mb, 10}, {1024 * mb, bulkFloor}} {
		if got := gcPercentFor(tt.live, bulkHeadroom, bulkFloor); got != tt.want {
			t.Errorf("at bulk work, gcPercentFor(%d MB) = %d, want %d", tt.live/mb, got, tt.want)
		}
	}
}

// The pacer follows the live heap from collection to collection: up when a
// large catalog comes, and back to Go's default when it goes.
func TestPaceGC(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("the operator's GOGC or GOMEMLIMIT turns the pacer off")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := paceGC(ctx)
	var buf lockedBuffer
	p.log.Store(slog.New(slog.NewTextHandler(&buf, nil)))
	current := func() int {
		percent := debug.SetGCPercent(100)
		debug.SetGCPercent(percent)
		return percent
	}
	// What the pacer should set follows from the live heap, which holds
	// whatever else this test process keeps besides the catalog below.
	want := func(headroom uint64) int {
		live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(live)
		floor := 25
		if headroom == bulkHeadroom {
			floor = bulkFloor
		}
		return gcPercentFor(live[0].Value.Uint64(), headroom, floor)
	}
	waitPercent := func(what string, headroom uint64) {
		t.Helper()
		var got, w int
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			runtime.GC()
			if got, w = current(), want(headroom); got-w <= 1 && w-got <= 1 {
				return
			}
		}
		t.Fatalf("GOGC = %d, want %d (%s)", got, w, what)
	}
	catalog := make([][]byte, 160) // 160 MB live and a little more: about 40 at most, as gcPercent says
	for i := range catalog {
		catalog[i] = make([]byte, 1<<20)
	}
	waitPercent("a large catalog", gcHeadroom)
	if p := current(); p > 40 {
		t.Fatalf("GOGC = %d with a catalog of 160 MB; want 40 or less", p)
	}
	// A memory limit is set above the heap's goal, so that free pages go back
	// to the system at once without the collector running any sooner. The
	// pacer sets it when it learns of a collection, a moment after the
	// collection has moved the goal: so it is looked for after a collection
	// whose news the pacer has had, as waitPercent does.
	goal := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	var limit int64
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		metrics.Read(goal)
		if limit = debug.SetMemoryLimit(-1); limit != math.MaxInt64 && uint64(limit) >= goal[0].Value.Uint64() {
			break
		}
	}
	if limit == math.MaxInt64 || uint64(limit) < goal[0].Value.Uint64() {
		t.Errorf("memory limit %d with a catalog of 160 MB and a heap goal of %d: want one above the goal", limit, goal[0].Value.Uint64())
	}
	var indexing atomic.Bool // while an index is built: half the headroom
	isIndexing := indexing.Load
	p.bulk.Store(&isIndexing)
	indexing.Store(true)
	waitPercent("while indexing", bulkHeadroom)
	indexing.Store(false)
	waitPercent("after indexing", gcHeadroom)
	runtime.KeepAlive(catalog)
	catalog = nil
	waitPercent("once the catalog is gone", gcHeadroom)
	if limit := debug.SetMemoryLimit(-1); limit != math.MaxInt64 {
		t.Errorf("memory limit %d once the catalog is gone, want none", limit)
	}
	if !strings.Contains(buf.String(), "large catalog: collecting garbage sooner") {
		t.Errorf("log: %s", buf.String())
	}
}

// lockedBuffer is a bytes.Buffer that a logger on another goroutine may
// write while a test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
