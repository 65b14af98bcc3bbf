package upstream

import (
	"context"
	"maps"
	"reflect"
	"slices"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// runHandle is a server's running connection loop.
type runHandle struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// settings returns a copy of the server's current settings.
func (u *upstream) settings() *Settings {
	u.setMu.RLock()
	defer u.setMu.RUnlock()
	set := u.set
	return &set
}

// startRun starts the server's connection loop, unless it runs already.
func (m *Manager) startRun(u *upstream) {
	m.runsMu.Lock()
	defer m.runsMu.Unlock()
	if m.runs == nil {
		m.runs = map[*upstream]*runHandle{}
	}
	if m.runs[u] != nil || m.ctx.Err() != nil {
		return
	}
	ctx, cancel := context.WithCancel(m.ctx)
	h := &runHandle{cancel: cancel, done: make(chan struct{})}
	m.runs[u] = h
	m.wg.Go(func() {
		defer close(h.done)
		u.run(ctx)
	})
}

// stopRun stops the server's connection loop and waits until it has ended,
// with its process.
func (m *Manager) stopRun(u *upstream) {
	m.runsMu.Lock()
	h := m.runs[u]
	delete(m.runs, u)
	m.runsMu.Unlock()
	if h != nil {
		h.cancel()
		<-h.done
	}
}

// Changes says what Reconfigure did, by server name.
type Changes struct {
	Added, Removed, Restarted, Updated []string
}

// Empty reports whether nothing changed.
func (c Changes) Empty() bool {
	return len(c.Added)+len(c.Removed)+len(c.Restarted)+len(c.Updated) == 0
}

// Reconfigure moves a started Manager to a new configuration, touching only
// what changed: a server added is started (its last known catalog published
// first); a server removed is stopped and its entries leave the catalog; a
// server whose entry changed (or its OAuth settings) is restarted; a server
// whose other settings changed gets them at once, without a restart
// (policies and alwaysLoad re-applied to its entries, a server disabled
// stopped, one enabled started). Servers that did not change keep their
// connections and the calls in flight on them.
func (m *Manager) Reconfigure(servers []ServerConfig, settings map[string]Settings) Changes {
	m.reconfMu.Lock()
	defer m.reconfMu.Unlock()
	var ch Changes
	if m.ctx.Err() != nil {
		return ch
	}
	m.opts.Settings = settings
	want := map[string]ServerConfig{}
	for _, cfg := range servers {
		if _, dup := want[cfg.Name]; !dup {
			want[cfg.Name] = cfg
		}
	}
	m.mu.RLock()
	old := maps.Clone(m.servers)
	m.mu.RUnlock()

	for _, name := range slices.Sorted(maps.Keys(old)) {
		if _, ok := want[name]; !ok {
			m.retire(old[name], "removed from the configuration")
			m.mu.Lock()
			delete(m.servers, name)
			m.names = slices.DeleteFunc(m.names, func(n string) bool { return n == name })
			m.mu.Unlock()
			m.opts.Catalog.Remove(name)
			ch.Removed = append(ch.Removed, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(want)) {
		cfg, set := want[name], m.settings(name)
		u, ok := old[name]
		switch {
		case !ok:
			m.add(newUpstream(m, cfg, set))
			ch.Added = append(ch.Added, name)
		case !sameServer(u.cfg, cfg) || !reflect.DeepEqual(u.settings().OAuth, set.OAuth):
			m.retire(u, "restarted with its new configuration")
			next := newUpstream(m, cfg, set)
			next.feat.subs.takeOver(&u.feat.subs)
			m.add(next)
			ch.Restarted = append(ch.Restarted, name)
		case !reflect.DeepEqual(*u.settings(), set):
			m.updateSettings(u, set)
			ch.Updated = append(ch.Updated, name)
		}
	}
	// Which variables a server must not inherit depends on every entry.
	for _, u := range m.upstreams() {
		withheld := withheldEnv(u.cfg, servers, m.opts.WithheldEnv)
		u.setMu.Lock()
		u.withheld = withheld
		u.setMu.Unlock()
	}
	for _, name := range slices.Sorted(maps.Keys(settings)) {
		if _, ok := want[name]; !ok {
			m.log.Warn("settings for an upstream server that is not configured", "server", name)
		}
	}
	if !ch.Empty() {
		m.log.Info("upstream servers reconfigured", "added", ch.Added, "removed", ch.Removed, "restarted", ch.Restarted, "updated", ch.Updated)
	}
	return ch
}

// sameServer reports whether two entries reach a server the same way;
// their problems do not count.
func sameServer(a, b ServerConfig) bool {
	a.Problems, b.Problems = nil, nil
	return reflect.DeepEqual(a, b)
}

// add publishes a new server's last known catalog and starts it (a server
// that takes its place, too).
func (m *Manager) add(u *upstream) {
	m.mu.Lock()
	if _, ok := m.servers[u.cfg.Name]; !ok {
		m.names = append(m.names, u.cfg.Name)
		slices.Sort(m.names)
	}
	m.servers[u.cfg.Name] = u
	m.mu.Unlock()
	u.loadPersisted()
	if !u.settings().Disabled {
		m.startRun(u)
	}
}

// retire stops a server that is removed or replaced: its connection loop
// and process end, it publishes nothing more, and calls waiting for it are
// told why.
func (m *Manager) retire(u *upstream, why string) {
	u.pubMu.Lock()
	u.retired = true
	u.pubMu.Unlock()
	m.stopRun(u)
	u.update(func() {
		u.state, u.sess, u.lastErr = catalog.StateDisabled, nil, why
	})
}

// updateSettings gives a running server new settings.
func (m *Manager) updateSettings(u *upstream, set Settings) {
	was := *u.settings()
	u.setMu.Lock()
	u.set = set
	u.setMu.Unlock()
	switch {
	case set.Disabled && !was.Disabled:
		m.stopRun(u)
		u.update(func() {
			u.state, u.sess, u.lastErr = catalog.StateDisabled, nil, ""
			u.rebuild()
		})
	case !set.Disabled && was.Disabled:
		u.update(func() {
			u.state = catalog.StateConnecting
			u.rebuild()
		})
		m.startRun(u)
	default:
		u.update(u.rebuild)
	}
}

// takeOver moves the watchers of another server's subscriptions here: a
// restarted server's new connection subscribes again for them.
func (s *subscriptions) takeOver(from *subscriptions) {
	from.mu.Lock()
	byURI, next := from.byURI, from.next
	from.byURI = nil
	from.mu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byURI, s.next = byURI, next
}
