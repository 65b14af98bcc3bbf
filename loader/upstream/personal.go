package upstream

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// Defaults of the connections people's calls make (identity: user).
const (
	// DefaultMaxPersonal bounds the connections kept at once, over every
	// person and server: past it, the one idle longest is closed, and a
	// call finding every one busy is refused as busy.
	DefaultMaxPersonal = 256
	// DefaultPersonalIdle closes a person's connection unused this long.
	DefaultPersonalIdle = 5 * time.Minute
)

// A personKey names one person's connection to one server at one URL: a
// server whose URL changed is another resource, and its grant another.
type personKey struct{ principal, server, url string }

// A personConn is one person's connection to one server, over their own
// grant: the handler attaches their token, refreshed once for every
// replica (the store's lock), and never anyone else's.
type personConn struct {
	key    personKey
	tokens *oauth.Tokens
	ready  chan struct{} // closed once cs or err is set
	cs     *mcp.ClientSession
	err    error

	// Guarded by personal.mu.
	inUse    int
	lastUsed time.Time
	idle     *time.Timer
	gone     bool // removed from the map; closed once unused
}

// personal keeps the people's connections, bounded in number, each closed
// once idle.
type personal struct {
	mu    sync.Mutex
	conns map[personKey]*personConn
	// read are the people's grants read at start (Manager.GrantsRead),
	// held so that a first call made while the shared state cannot be
	// reached is served from them rather than refused.
	read map[personKey]*oauth.Tokens
	max  int
	idle time.Duration
}

// ErrTooManyPeople is the refusal of a person's call while every one of
// the connections kept for people is busy.
var ErrTooManyPeople = errors.New("every connection kept for people's own logins is busy")

// tokensFor returns the tokens of a person's grant for the server: those of
// their open connection, else those read at start, else new ones over the
// grant store.
func (m *Manager) tokensFor(u *upstream, who string) *oauth.Tokens {
	k := personKey{who, u.cfg.Name, u.cfg.URL}
	m.people.mu.Lock()
	c, read := m.people.conns[k], m.people.read[k]
	m.people.mu.Unlock()
	if c != nil {
		return c.tokens
	}
	if read != nil {
		return read
	}
	return oauth.NewTokensFor(m.opts.TokenStore, oauth.GrantKey{Principal: who, Server: u.cfg.Name, Resource: u.cfg.URL}, m.opts.OAuthClient, u.log)
}

// personSession returns the person's connection to the server, connecting
// it when there is none; release hands it back. tokens are the person's,
// from tokensFor.
func (m *Manager) personSession(ctx context.Context, u *upstream, who string, tokens *oauth.Tokens) (c *personConn, release func(broken bool), err error) {
	k := personKey{who, u.cfg.Name, u.cfg.URL}
	p := &m.people
	p.mu.Lock()
	if p.conns == nil {
		p.conns = map[personKey]*personConn{}
	}
	c = p.conns[k]
	if c == nil {
		if len(p.conns) >= p.max && !p.evictLocked() {
			p.mu.Unlock()
			return nil, nil, fmt.Errorf("upstream %s: %w (%d); try again in a moment", u.cfg.Name, ErrTooManyPeople, p.max)
		}
		c = &personConn{key: k, tokens: tokens, ready: make(chan struct{})}
		p.conns[k] = c
		go m.connectPerson(u, c)
	}
	c.inUse++
	if c.idle != nil {
		c.idle.Stop()
		c.idle = nil
	}
	p.mu.Unlock()
	release = func(broken bool) { p.release(c, broken) }
	select {
	case <-c.ready:
	case <-ctx.Done():
		release(false)
		return nil, nil, context.Cause(ctx)
	}
	if c.err != nil {
		release(true)
		return nil, nil, c.err
	}
	return c, release, nil
}

// connectPerson connects a person's connection, within the server's
// connect timeout; its life is the manager's, not the first call's.
func (m *Manager) connectPerson(u *upstream, c *personConn) {
	defer close(c.ready)
	ctx, cancel := context.WithTimeout(m.ctx, m.opts.ConnectTimeout)
	defer cancel()
	h := oauth.NewPersonHandler(c.tokens, u.settings().OAuth, m.opts.OAuthClient)
	c.cs, c.err = mcp.NewClient(m.opts.ClientInfo, nil).Connect(ctx, httpTransport(u.cfg, h), nil)
	if c.err == nil {
		u.log.Debug("connected as a person", "principal", c.key.principal)
	}
}

// release hands a connection back; a broken one is forgotten, so that the
// person's next call connects anew, and closed once nobody uses it.
func (p *personal) release(c *personConn, broken bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	c.inUse--
	c.lastUsed = time.Now()
	if broken && !c.gone {
		p.forgetLocked(c)
	}
	if c.inUse > 0 {
		return
	}
	if c.gone {
		go closeSession(c)
		return
	}
	c.idle = time.AfterFunc(p.idle, func() { p.expire(c) })
}

// expire closes a connection that stayed idle.
func (p *personal) expire(c *personConn) {
	p.mu.Lock()
	if c.inUse > 0 || c.gone || time.Since(c.lastUsed) < p.idle {
		p.mu.Unlock()
		return
	}
	p.forgetLocked(c)
	p.mu.Unlock()
	closeSession(c)
}

func (p *personal) forgetLocked(c *personConn) {
	c.gone = true
	if p.conns[c.key] == c {
		delete(p.conns, c.key)
	}
}

// evictLocked closes the connection idle longest to make room, and reports
// whether there was one.
func (p *personal) evictLocked() bool {
	var oldest *personConn
	for _, c := range p.conns {
		if c.inUse == 0 && (oldest == nil || c.lastUsed.Before(oldest.lastUsed)) {
			oldest = c
		}
	}
	if oldest == nil {
		return false
	}
	if oldest.idle != nil {
		oldest.idle.Stop()
	}
	p.forgetLocked(oldest)
	go closeSession(oldest)
	return true
}

// closeAll closes every person's connection, at the manager's end.
func (p *personal) closeAll() {
	p.mu.Lock()
	conns := make([]*personConn, 0, len(p.conns))
	for _, c := range p.conns {
		if c.idle != nil {
			c.idle.Stop()
		}
		p.forgetLocked(c)
		conns = append(conns, c)
	}
	p.mu.Unlock()
	for _, c := range conns {
		closeSession(c)
	}
}

// open counts the connections kept, for tests and the status.
func (p *personal) open() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.conns)
}

func closeSession(c *personConn) {
	<-c.ready
	if c.cs != nil {
		c.cs.Close()
	}
}
