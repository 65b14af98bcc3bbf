package main

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
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
}

// The pacer follows the live heap from collection to collection: up when a
// large catalog comes, and back to Go's default when it goes.
func TestPaceGC(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("the operator's GOGC or GOMEMLIMIT turns the pacer off")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
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
	waitPercent := func(what string, ok func(int) bool) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			runtime.GC()
			if ok(current()) {
				return
			}
		}
		t.Fatalf("GOGC = %d, want %s", current(), what)
	}
	catalog := make([][]byte, 160) // 160 MB live and a little more: about 40, as gcPercent says
	for i := range catalog {
		catalog[i] = make([]byte, 1<<20)
	}
	waitPercent("38 to 40", func(p int) bool { return 38 <= p && p <= 40 })
	var indexing atomic.Bool // while an index is built: half the headroom
	isIndexing := indexing.Load
	p.indexing.Store(&isIndexing)
	indexing.Store(true)
	waitPercent("the floor, 25", func(p int) bool { return p == 25 })
	indexing.Store(false)
	waitPercent("38 to 40 again", func(p int) bool { return 38 <= p && p <= 40 })
	runtime.KeepAlive(catalog)
	catalog = nil
	waitPercent("100", func(p int) bool { return p == 100 })
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
