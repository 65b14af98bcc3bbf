package upstream

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// A server renaming its tools without end grew the names remembered
// without bound: names go after forgetAfter unlisted, and beyond
// maxRemembered the least recently listed go first.
func TestSeenToolsAreForgotten(t *testing.T) {
	now := time.Now()
	s := seenTools{
		"old":    {first: "d-old", last: now.Add(-forgetAfter - time.Hour).Unix()},
		"recent": {first: "d-recent", last: now.Add(-forgetAfter + time.Hour).Unix()},
	}
	s.listed([]string{"a"}, func(int) string { return "d-a" }, now)
	if got := slices.Sorted(mapsKeys(s)); !slices.Equal(got, []string{"a", "recent"}) {
		t.Errorf("remembered %q", got)
	}
	// A renaming flood: every listing names new tools, and only the
	// latest limit stay.
	for i := range 100 {
		s.listed([]string{fmt.Sprint("t", i)}, func(int) string { return "d" }, now.Add(time.Duration(i)*time.Second))
	}
	s.forget(now.Add(100*time.Second), 40)
	if len(s) != 40 {
		t.Errorf("%d names remembered, want 40", len(s))
	}
	if _, ok := s["t99"]; !ok {
		t.Error("the latest name was forgotten")
	}
	if _, ok := s["t59"]; ok {
		t.Error("an older name is still remembered")
	}
}

func mapsKeys(s seenTools) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range s {
			if !yield(k) {
				return
			}
		}
	}
}

// restoreSeen remembers what the file says, and keeps the names and digests
// of the file's tools as the tools have them rather than the maps' copies.
func TestRestoreSeen(t *testing.T) {
	listed := time.Unix(1_700_000_000, 0)
	// Strings made at run time, so that equal ones are separate copies as
	// a decoder's are.
	own := func(s string) string { return string([]byte(s)) }
	tools := []*mcp.Tool{{Name: own("kept")}, {Name: own("changed")}, {Name: own("new")}}
	digests := []string{own("d-kept"), own("d-changed-2"), own("d-new")}
	first := map[string]string{own("kept"): own("d-kept"), own("changed"): own("d-changed-1"), own("unlisted"): own("d-unlisted")}
	last := map[string]int64{own("kept"): 5, own("unlisted"): 7}
	s := restoreSeen(first, last, listed, tools, digests)
	want := seenTools{
		"kept":     {first: "d-kept", last: 5},
		"changed":  {first: "d-changed-1", last: listed.Unix()}, // no last-listed time: the file's
		"unlisted": {first: "d-unlisted", last: 7},
	}
	if !maps.Equal(s, want) {
		t.Fatalf("restored %v, want %v", s, want)
	}
	for name := range s {
		if name == "kept" && unsafe.StringData(name) != unsafe.StringData(tools[0].Name) {
			t.Error("the name of a listed tool is a copy, not the tool's")
		}
	}
	if unsafe.StringData(s["kept"].first) != unsafe.StringData(digests[0]) {
		t.Error("a first digest that is the tool's current one is a copy, not the tool's")
	}
	// Digests that are not one for each tool are not taken by position.
	if s := restoreSeen(first, last, listed, tools, digests[:1]); unsafe.StringData(s["kept"].first) == unsafe.StringData(digests[0]) || s["kept"].first != "d-kept" {
		t.Errorf("with digests for some tools only: %v", s["kept"])
	}
}

// A cache file without last-listed times (an older version's) loads, its
// names counting as listed when its catalog was; names unlisted for
// forgetAfter are gone after a load, and the file keeps last-listed times.
func TestSeenToolsPersist(t *testing.T) {
	e := newEnv(t)
	f := e.add("srv", nil)
	f.addEcho("a", "A.")
	file := keysOf(e.opts.CacheDir, e.configs()[0]).file
	old := time.Now().Add(-forgetAfter - time.Hour)
	os.MkdirAll(e.opts.CacheDir, 0o700)
	saveCache(file, &persisted{Server: "srv", Listed: old, Tools: []*mcp.Tool{{Name: "gone", InputSchema: json.RawMessage(`{"type":"object"}`)}},
		FirstSeen: map[string]string{"gone": "x", "a": "y"}})
	e.start()
	waitSource(t, e.catalog, "srv", "active", inState(catalog.StateActive))
	var p *persisted
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(10 * time.Millisecond) { // the file is written after the listing is published
		var err error
		if p, err = loadCache(file, "srv"); err == nil && p != nil && p.Listed.After(old) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cache was not rewritten: %v", err)
		}
	}
	if _, ok := p.FirstSeen["gone"]; ok {
		t.Errorf("a name unlisted for %v is remembered: %v", forgetAfter, p.FirstSeen)
	}
	if p.FirstSeen["a"] == "" || p.LastSeen["a"] < time.Now().Add(-time.Minute).Unix() {
		t.Errorf("a: first %q, last listed %v", p.FirstSeen["a"], time.Unix(p.LastSeen["a"], 0))
	}
}

// Change announcements coalesced into at most one listing per minRelist:
// a server announcing without end was re-listed, and its cache rewritten,
// as fast as it announced (205 times in 20 s). Refreshes are not held.
func TestAnnouncedChangesAreCoalesced(t *testing.T) {
	e := newEnv(t)
	f := e.add("srv", nil)
	f.addEcho("t0", "T.")
	var listings atomic.Int32
	f.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				listings.Add(1)
			}
			return next(ctx, method, req)
		}
	})
	m := New(e.configs(), e.opts)
	m.firstBackoff, m.minRelist = time.Millisecond, time.Hour
	m.Start(context.Background())
	defer m.Close()
	waitSource(t, e.catalog, "srv", "active", inState(catalog.StateActive))
	const rounds = 20
	for i := range rounds {
		f.addEcho(fmt.Sprint("t", i+1), "T.") // announces the change
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		if err := m.Refresh(ctx, "srv"); err != nil {
			t.Fatal(err)
		}
		cancel()
	}
	if n := listings.Load(); n != 1+rounds {
		t.Errorf("%d listings, want %d: the first and one per refresh", n, 1+rounds)
	}
	waitSource(t, e.catalog, "srv", "every tool", func(s *catalog.Source) bool { return len(s.Entries) == 1+rounds })
}
