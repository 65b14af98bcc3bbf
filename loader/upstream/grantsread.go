package upstream

import (
	"context"
	"time"

	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// grantRetry bounds the wait before a server whose grant could not be read
// (the shared state out of reach) tries again, and how often the grants
// not read yet at start are read again: the server connects, and the
// replica turns ready, within it of the state coming back, however long
// the backoff of a server failing for other reasons would have grown.
const grantRetry = 2 * time.Second

// GrantsRead is closed once the OAuth grants this process needs were read
// from the store: every server's shared grant, and the grants people hold
// for the servers whose logins are each person's own (when the store can
// list them, as PostgreSQL and the files can). Read means known, a grant stored or
// none: a store that cannot be reached is read again every grantRetry
// until it answers. A replica is not ready until then (/readyz), since
// one that met its database's restart at start would otherwise hold no
// grant to serve with while the database is down.
func (m *Manager) GrantsRead() <-chan struct{} { return m.grantsRead }

// readGrants reads the grants of the servers started with it, until every
// one was read or the manager closes; it closes GrantsRead once they were.
func (m *Manager) readGrants(servers []*upstream) {
	var pending []*upstream
	for _, u := range servers {
		if u.auth != nil {
			pending = append(pending, u)
		}
	}
	logged := false
	for {
		var still []*upstream
		for _, u := range pending {
			if err := m.readGrantsOf(u); err != nil {
				if !logged {
					m.log.Warn("the OAuth logins cannot be read yet; not ready until they are", "server", u.cfg.Name, "err", err)
					logged = true
				}
				still = append(still, u)
			}
		}
		if pending = still; len(pending) == 0 {
			close(m.grantsRead)
			return
		}
		select {
		case <-m.ctx.Done():
			return
		case <-time.After(grantRetry):
		}
	}
}

// readGrantsOf reads a server's shared grant and, for a server whose
// logins are each person's own, the grants people hold for it, which
// their calls then use (tokensFor).
func (m *Manager) readGrantsOf(u *upstream) error {
	if err := u.auth.Tokens().Read(); err != nil {
		return err
	}
	if !u.settings().OAuth.PerUser() {
		return nil
	}
	ctx, cancel := context.WithTimeout(m.ctx, grantReadTimeout)
	defer cancel()
	people, err := oauth.ReadPeople(ctx, m.opts.TokenStore, u.cfg.Name, u.cfg.URL, m.opts.OAuthClient, u.log)
	if err != nil {
		return err
	}
	m.people.mu.Lock()
	defer m.people.mu.Unlock()
	if m.people.read == nil {
		m.people.read = map[personKey]*oauth.Tokens{}
	}
	for who, t := range people {
		k := personKey{who, u.cfg.Name, u.cfg.URL}
		if _, held := m.people.read[k]; !held {
			m.people.read[k] = t
		}
	}
	return nil
}

// grantReadTimeout bounds one read of the grants people hold for a server.
const grantReadTimeout = 10 * time.Second
