package upstream

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// maxSubscriptions bounds the resources of one server subscribed to at once.
const maxSubscriptions = 1_000

// subscriptions are a server's subscribed resources: one upstream
// subscription per URI, shared by every watcher of it, renewed on every
// new connection, and ended with the last watcher.
type subscriptions struct {
	mu    sync.Mutex
	byURI map[string]map[int]func(*mcp.ResourceUpdatedNotificationParams)
	next  int
	// pending are the URIs whose first watcher is subscribing upstream;
	// their channels close when it is done, in place or failed.
	pending map[string]chan struct{}
}

// Subscribe watches a resource of the server: fn is called (on the
// connection's goroutine, so it must not block) each time the server says
// the resource was updated, until cancel. The first watcher of a URI
// subscribes upstream, with the rules of Call, and others that come
// meanwhile wait for it to be in place (or try themselves if it failed);
// the last one's cancel unsubscribes.
func (m *Manager) Subscribe(ctx context.Context, server, uri string, fn func(*mcp.ResourceUpdatedNotificationParams)) (cancel func(), err error) {
	u, err := m.server(server)
	if err != nil {
		return nil, err
	}
	what := "resource " + uri
	if err := checkReserved(uri); err != nil {
		return nil, err
	}
	if pol := u.resourcePolicy(uri); pol != catalog.PolicyCallable {
		return nil, &PolicyError{Server: server, What: what, Policy: pol}
	}
	subs := &u.feat.subs
	var (
		id    int
		first bool
	)
	for {
		var pending <-chan struct{}
		id, first, pending, err = subs.add(uri, fn)
		if err != nil {
			return nil, err
		}
		if pending == nil {
			break
		}
		// Another watcher is subscribing: join it once it is in place, or
		// try again once it failed.
		select {
		case <-pending:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	cancel = func() {
		// A restart hands the watchers to the server's new instance.
		if cur, err := m.server(server); err == nil && cur.feat.subs.remove(uri, id) {
			go cur.unsubscribe(uri)
		}
	}
	if !first {
		return cancel, nil
	}
	err = m.forward(ctx, u, what, u.live, func(ctx context.Context, s *session, _ *callClock) error {
		if !supportsSubscribe(s) {
			return &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("server %s does not support resource subscriptions", server)}
		}
		return s.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri})
	})
	if err != nil {
		subs.remove(uri, id)
	}
	subs.settle(uri)
	if err != nil {
		return nil, err
	}
	return cancel, nil
}

func supportsSubscribe(s *session) bool {
	res := s.cs.InitializeResult()
	return res != nil && res.Capabilities != nil && res.Capabilities.Resources != nil && res.Capabilities.Resources.Subscribe
}

// add records a watcher; first reports whether it is the URI's first,
// which subscribes upstream and then calls settle. While a first watcher
// subscribes, add records nobody and returns its pending channel.
func (s *subscriptions) add(uri string, fn func(*mcp.ResourceUpdatedNotificationParams)) (id int, first bool, pending <-chan struct{}, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.pending[uri]; p != nil {
		return 0, false, p, nil
	}
	if s.byURI == nil {
		s.byURI = map[string]map[int]func(*mcp.ResourceUpdatedNotificationParams){}
	}
	if s.pending == nil { // takeOver moves byURI, not what is pending
		s.pending = map[string]chan struct{}{}
	}
	fns := s.byURI[uri]
	if fns == nil {
		if len(s.byURI) >= maxSubscriptions {
			return 0, false, nil, fmt.Errorf("%d resources of this server are subscribed to already, the most toolsearch keeps", maxSubscriptions)
		}
		fns = map[int]func(*mcp.ResourceUpdatedNotificationParams){}
		s.byURI[uri] = fns
		s.pending[uri] = make(chan struct{})
	}
	s.next++
	fns[s.next] = fn
	return s.next, len(fns) == 1, nil, nil
}

// settle ends the first watcher's subscribing to uri, in place or failed,
// and lets the watchers waiting for it go on.
func (s *subscriptions) settle(uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.pending[uri]; p != nil {
		close(p)
		delete(s.pending, uri)
	}
}

// remove drops a watcher and reports whether it was the URI's last.
func (s *subscriptions) remove(uri string, id int) (last bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fns := s.byURI[uri]
	if _, ok := fns[id]; !ok {
		return false
	}
	delete(fns, id)
	if len(fns) == 0 {
		delete(s.byURI, uri)
		return true
	}
	return false
}

// updated calls the watchers of the updated resource.
func (s *subscriptions) updated(p *mcp.ResourceUpdatedNotificationParams) {
	if p == nil {
		return
	}
	s.mu.Lock()
	fns := slices.Collect(maps.Values(s.byURI[p.URI]))
	s.mu.Unlock()
	for _, fn := range fns {
		fn(p)
	}
}

// renew subscribes a new connection to every resource watched.
func (s *subscriptions) renew(sess *session, u *upstream) {
	s.mu.Lock()
	uris := slices.Sorted(maps.Keys(s.byURI))
	s.mu.Unlock()
	if len(uris) == 0 || !supportsSubscribe(sess) {
		return
	}
	for _, uri := range uris {
		ctx, cancel := context.WithTimeout(sess.ctx, u.m.opts.ConnectTimeout)
		if err := sess.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
			u.log.Warn("could not renew a resource subscription", "uri", uri, "err", u.redact.Error(err))
		}
		cancel()
	}
}

// unsubscribe ends the upstream subscription to uri, unless someone
// subscribed again meanwhile.
func (u *upstream) unsubscribe(uri string) {
	u.mu.Lock()
	s := u.sess
	u.mu.Unlock()
	if s == nil {
		return // the next connection will not subscribe
	}
	u.feat.subs.mu.Lock()
	_, again := u.feat.subs.byURI[uri]
	u.feat.subs.mu.Unlock()
	if again {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, u.m.opts.ConnectTimeout)
	defer cancel()
	if err := s.cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri}); err != nil {
		u.log.Debug("could not unsubscribe", "uri", uri, "err", u.redact.Error(err))
	}
}

// logLevels orders the levels of MCP log messages, most verbose first.
var logLevels = []mcp.LoggingLevel{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// SetLogLevel asks every server for log messages at level or above, unless
// a client asked for more before: one connection serves every client, so
// servers send what the most verbose client wants, and each client gets
// only what it asked for.
func (m *Manager) SetLogLevel(level mcp.LoggingLevel) {
	i := slices.Index(logLevels, level)
	if i < 0 {
		return
	}
	m.logMu.Lock()
	if cur := slices.Index(logLevels, m.logLevel); cur >= 0 && cur <= i {
		m.logMu.Unlock()
		return
	}
	m.logLevel = level
	m.logMu.Unlock()
	for _, u := range m.upstreams() {
		u.mu.Lock()
		s := u.sess
		u.mu.Unlock()
		if s != nil {
			go u.applyLogLevel(s)
		}
	}
}

// applyLogLevel sets the level asked for on a connection to a server that
// logs.
func (u *upstream) applyLogLevel(s *session) {
	u.m.logMu.Lock()
	level := u.m.logLevel
	u.m.logMu.Unlock()
	res := s.cs.InitializeResult()
	if level == "" || res == nil || res.Capabilities == nil || res.Capabilities.Logging == nil || res.ProtocolVersion >= "2026-07-28" {
		return // 2026-07-28 sets the level per request
	}
	ctx, cancel := context.WithTimeout(s.ctx, u.m.opts.ConnectTimeout)
	defer cancel()
	if err := s.cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: level}); err != nil {
		u.log.Debug("could not set the log level", "level", level, "err", u.redact.Error(err))
	}
}

// logWatchers get the log messages of servers that no request in flight
// claims.
type logWatchers struct {
	mu   sync.Mutex
	fns  map[int]func(server string, p *mcp.LoggingMessageParams)
	next int
}

// WatchLogs calls fn with every log message a server sends while no client
// has a request in flight to it (those go to the clients with requests in
// flight, through their Callers). fn must not block. stop ends it.
func (m *Manager) WatchLogs(fn func(server string, p *mcp.LoggingMessageParams)) (stop func()) {
	w := &m.watchers
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fns == nil {
		w.fns = map[int]func(string, *mcp.LoggingMessageParams){}
	}
	w.next++
	id := w.next
	w.fns[id] = fn
	return func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		delete(w.fns, id)
	}
}

func (w *logWatchers) log(server string, p *mcp.LoggingMessageParams) {
	w.mu.Lock()
	fns := slices.Collect(maps.Values(w.fns))
	w.mu.Unlock()
	for _, fn := range fns {
		fn(server, p)
	}
}
