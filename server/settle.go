package server

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// Hosts ask for tools/list 0.1–0.3 s after they start toolsearch, before
// upstream servers have listed, and many keep that first answer for the
// whole session (Codex never lists again). Two things get the complete
// listing to them:
//
//   - The first tools/list answers wait, up to FirstListWait after start,
//     while a server that has no last known catalog is still starting
//     (on a very first start with a configuration; later starts have the
//     catalogs and do not wait). initialize never waits.
//   - tools/list_changed, for the hosts that list again, goes out once the
//     listing is complete and quiet, not at every server's listing: a host
//     that re-lists at each one (Gemini, 6 times in 1.5 s) loses its prompt
//     cache each time. tools/list itself always answers with the current
//     listing.

// DefaultFirstListWait is Options.FirstListWait when it is zero: long
// enough for a server started with npx or uvx from a warm cache, short
// enough that no host gives up on toolsearch (hosts wait 10 s or more for
// a server's tools).
const DefaultFirstListWait = 2 * time.Second

// Timing of list_changed: a change is announced once the listing has been
// quiet for listQuiet and no server is still starting, or at the latest
// listHold after the first change not announced (a server that keeps
// failing to start would otherwise hold every announcement back).
const (
	listQuiet = 500 * time.Millisecond
	listHold  = 30 * time.Second
)

// announcer coalesces the announcements of tool_search's new listing.
type announcer struct {
	mu      sync.Mutex
	timer   *time.Timer
	pending time.Time // when the first change not announced came; zero if none
	quiet   time.Duration
	hold    time.Duration
}

// settleSnapshot follows a new snapshot: when the listing changed, or one
// is pending and the catalog may now be complete, the announcement is
// (re)scheduled. Called by update, in snapshot order.
func (s *Server) settleSnapshot(snap *catalog.Snapshot, listingChanged bool) {
	a := &s.announce
	a.mu.Lock()
	defer a.mu.Unlock()
	now := time.Now()
	if listingChanged && a.pending.IsZero() {
		a.pending = now
	}
	if a.pending.IsZero() {
		return
	}
	limit := time.Until(a.pending.Add(a.hold))
	delay := limit
	if complete(snap) {
		delay = min(a.quiet, limit)
	}
	delay = max(delay, 0)
	if a.timer == nil {
		a.timer = time.AfterFunc(delay, s.announceListing)
		return
	}
	a.timer.Reset(delay)
}

// announceListing gives every connection tool_search with the current
// listing, which the SDK announces with tools/list_changed.
func (s *Server) announceListing() {
	s.announce.mu.Lock()
	s.announce.pending = time.Time{}
	s.announce.mu.Unlock()
	select {
	case <-s.done:
		return
	default:
	}
	s.mu.RLock()
	conns := make([]*mcp.Server, 0, len(s.conns))
	for ms := range s.conns {
		conns = append(conns, ms)
	}
	own := s.own
	s.mu.RUnlock()
	for _, ms := range conns {
		// One list_changed for both: the SDK debounces its notifications.
		s.syncOwnTools(ms, own)
		s.addSearchTool(ms)
	}
}

// stopAnnouncing ends a pending announcement, at Close.
func (s *Server) stopAnnouncing() {
	s.announce.mu.Lock()
	defer s.announce.mu.Unlock()
	if s.announce.timer != nil {
		s.announce.timer.Stop()
	}
}

// firstList is the middleware of tools/list: it waits, early on, for the
// servers still starting (see above), and answers with tool_search's
// current listing and the own tools the current catalog wants, which the
// connection's copies may not have yet (their update waits for the
// announcement).
func (s *Server) firstList(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "tools/list" {
			return next(ctx, method, req)
		}
		s.awaitComplete(ctx)
		res, err := next(ctx, method, req)
		if r, ok := res.(*mcp.ListToolsResult); ok && err == nil {
			if r.NextCursor == "" && listsFromStart(req) {
				s.mu.RLock()
				own := s.own
				s.mu.RUnlock()
				r.Tools = s.withOwnTools(r.Tools, own)
			}
			desc := s.Description()
			for i, t := range r.Tools {
				if t != nil && t.Name == ToolSearch && t.Description != desc {
					c := *t // the SDK's own copy must not change
					c.Description = desc
					r.Tools[i] = &c
				}
			}
		}
		return res, err
	}
}

// awaitComplete waits until no server is still starting without a last
// known catalog, until FirstListWait after the server was made, or until
// ctx ends, whichever comes first.
func (s *Server) awaitComplete(ctx context.Context) {
	wait := time.Until(s.started.Add(s.opts.FirstListWait))
	if wait <= 0 {
		return // past the window: every tools/list after it answers at once
	}
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for {
		s.mu.RLock()
		snap, changed := s.snap, s.snapChanged
		s.mu.RUnlock()
		if complete(snap) {
			return
		}
		select {
		case <-changed:
		case <-deadline.C:
			return
		case <-ctx.Done():
			return
		case <-s.done:
			return
		}
	}
}

// listsFromStart reports whether a tools/list request asks for the first
// page.
func listsFromStart(req mcp.Request) bool {
	p, ok := req.GetParams().(*mcp.ListToolsParams)
	return !ok || p == nil || p.Cursor == ""
}

// withOwnTools returns tools with toolsearch's own tools as want has them:
// those wanted and missing added, those listed and no longer wanted left
// out, in the SDK's order (by name).
func (s *Server) withOwnTools(tools []*mcp.Tool, want map[string]bool) []*mcp.Tool {
	own := map[string]bool{}
	for _, name := range ownTools {
		own[name] = true
	}
	out := make([]*mcp.Tool, 0, len(tools)+len(want))
	listed := map[string]bool{}
	for _, t := range tools {
		if t != nil && own[t.Name] && !want[t.Name] {
			continue
		}
		if t != nil {
			listed[t.Name] = true
		}
		out = append(out, t)
	}
	for _, name := range ownTools {
		if want[name] && !listed[name] {
			def, _ := s.ownTool(name)
			out = append(out, def)
		}
	}
	slices.SortStableFunc(out, func(a, b *mcp.Tool) int {
		if a == nil || b == nil {
			return 0
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}
