package server

import (
	"context"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/server/internal/protocol"
)

// subscriptions are the resource subscriptions of one MCP server's
// sessions. The SDK keeps which session subscribed to what, and sends
// updates to those sessions only; this keeps one upstream subscription per
// URI, shared by the server's sessions subscribed to it, and ends it with
// the last of them.
type subscriptions struct {
	mu      sync.Mutex
	byURI   map[string]*watch
	watched map[*mcp.ServerSession]bool // sessions whose end is watched
	ended   bool                        // endAll ran: the server is released
}

// watch is the upstream subscription to one URI.
type watch struct {
	sessions map[*mcp.ServerSession]bool
	cancel   func()
}

// subscribe handles resources/subscribe for ms. toolsearch's own resources
// (skill files, its stats) are accepted and never updated.
func (s *Server) subscribe(ms *mcp.Server, subs *subscriptions, ctx context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	if ownResource(uri) {
		return nil
	}
	e := s.resourceOf(s.Snapshot(), uri)
	p := s.passthrough()
	if e == nil || !s.sees(req.Session, e) || p == nil {
		return mcp.ResourceNotFoundError(uri)
	}
	if e.Policy != catalog.PolicyCallable {
		return policyRefusal(e)
	}
	subs.mu.Lock()
	if w := subs.byURI[uri]; w != nil {
		defer subs.mu.Unlock()
		subs.join(w, req)
		return nil
	}
	// The upstream is asked without the lock, which a slow server would
	// hold for every other subscription. The Manager shares one upstream
	// subscription among its watchers, so that two sessions subscribing at
	// once cost one request.
	subs.mu.Unlock()
	cancel, err := p.Subscribe(ctx, e.Source, uri, func(params *mcp.ResourceUpdatedNotificationParams) {
		s.notifyLater(func() { _ = ms.ResourceUpdated(context.Background(), params) })
	})
	if err != nil {
		return s.protocolError(e, err)
	}
	subs.mu.Lock()
	defer subs.mu.Unlock()
	if subs.ended {
		cancel() // nothing would end it now
		return mcp.ResourceNotFoundError(uri)
	}
	if subs.byURI == nil {
		subs.byURI, subs.watched = map[string]*watch{}, map[*mcp.ServerSession]bool{}
	}
	w := subs.byURI[uri]
	if w == nil {
		w = &watch{sessions: map[*mcp.ServerSession]bool{}, cancel: cancel}
		subs.byURI[uri] = w
	} else {
		cancel() // another session's watch, taken meanwhile, serves this one too
	}
	subs.join(w, req)
	return nil
}

// join adds the session of a subscription to a watch. Callers hold subs.mu.
func (subs *subscriptions) join(w *watch, req *mcp.SubscribeRequest) {
	w.sessions[req.Session] = true
	// A session of 2026-07-28 unsubscribes when its listen stream ends;
	// earlier ones may just go away.
	if ss := req.Session; !subs.watched[ss] && !protocol.IsModern(ss, req.Params.Meta) {
		subs.watched[ss] = true
		go func() {
			_ = ss.Wait()
			subs.drop(ss)
		}()
	}
}

// unsubscribe handles resources/unsubscribe.
func (subs *subscriptions) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	subs.mu.Lock()
	defer subs.mu.Unlock()
	subs.leave(req.Session, req.Params.URI)
	return nil
}

// leave takes a session off a URI's watch, ending the watch with its last
// session. Callers hold subs.mu.
func (subs *subscriptions) leave(ss *mcp.ServerSession, uri string) {
	w := subs.byURI[uri]
	if w == nil {
		return
	}
	delete(w.sessions, ss)
	if len(w.sessions) == 0 {
		delete(subs.byURI, uri)
		w.cancel()
	}
}

// drop ends every subscription of a session that went away.
func (subs *subscriptions) drop(ss *mcp.ServerSession) {
	subs.mu.Lock()
	defer subs.mu.Unlock()
	delete(subs.watched, ss)
	for uri := range subs.byURI {
		subs.leave(ss, uri)
	}
}

// endAll ends every upstream subscription; Release calls it.
func (subs *subscriptions) endAll() {
	subs.mu.Lock()
	defer subs.mu.Unlock()
	subs.ended = true
	for uri, w := range subs.byURI {
		delete(subs.byURI, uri)
		w.cancel()
	}
}

// ownResource reports whether a URI is one of toolsearch's own resources.
func ownResource(uri string) bool {
	return strings.HasPrefix(uri, "skill://") || strings.HasPrefix(uri, "toolsearch://")
}

// resourceOf finds the upstream resource a URI names: the resource of that
// URI, or the template it matches. A URI that templates of several servers
// match belongs to none of them.
func (s *Server) resourceOf(snap *catalog.Snapshot, uri string) *catalog.Entry {
	if e, ok := snap.Resource(uri); ok {
		return e
	}
	var found *catalog.Entry
	for _, t := range s.featuresOf(snap).templates {
		if t.tmpl.Match(uri) == nil {
			continue
		}
		if found != nil && found.Source != t.entry.Source {
			return nil
		}
		found = t.entry
	}
	return found
}

// notifyLater runs fn off the goroutine that reads an upstream connection,
// so that a slow client never holds up the upstream. Beyond what the queue
// holds, notifications are dropped.
func (s *Server) notifyLater(fn func()) {
	select {
	case s.notify <- fn:
	default:
		s.log.Debug("notification dropped: the queue is full")
	}
}

func (s *Server) notifyWorker() {
	for {
		select {
		case fn := <-s.notify:
			fn()
		case <-s.done:
			return
		}
	}
}

// broadcastLog passes a log message of an upstream that no request in
// flight claims to every session of a protocol before 2026-07-28 that sees
// the server; each gets it if it asked for its level.
func (s *Server) broadcastLog(server string, p *mcp.LoggingMessageParams) {
	s.notifyLater(func() {
		s.mu.RLock()
		conns := make([]*mcp.Server, 0, len(s.conns))
		for ms := range s.conns {
			conns = append(conns, ms)
		}
		s.mu.RUnlock()
		for _, ms := range conns {
			for ss := range ms.Sessions() {
				if protocol.IsLegacy(ss, nil) && s.seesSource(ss, server) {
					_ = ss.Log(context.Background(), p)
				}
			}
		}
	})
}

// seesSource reports whether a client sees a source at all: its log
// messages go only to clients that do.
func (s *Server) seesSource(_ *mcp.ServerSession, source string) bool {
	_, ok := s.Snapshot().Source(source)
	return ok
}
