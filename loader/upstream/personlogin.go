package upstream

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// UserLogins returns how people log in to the servers with identity: user
// (see oauth.UserLogins): their pending logins in Options.Logins, their
// grants in Options.TokenStore. The HTTP server's callback completes them
// with it, on whichever replica the redirect reaches. Nil when there is no
// place to keep them.
func (m *Manager) UserLogins() *oauth.UserLogins {
	if m.opts.TokenStore == nil || m.opts.Logins == nil {
		return nil
	}
	return &oauth.UserLogins{Pending: m.opts.Logins, Grants: m.opts.TokenStore, Client: m.opts.OAuthClient, Log: m.log}
}

// PerUserServers names the servers whose logins are each person's own
// (identity: user) and that log in with OAuth, sorted.
func (m *Manager) PerUserServers() []string {
	var out []string
	for _, name := range m.Names() {
		if u, err := m.server(name); err == nil && u.settings().OAuth.PerUser() && u.auth != nil {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// BeginPersonLogin starts who's own login to a server with identity: user
// and returns the authorization page's URL, for that person to open. The
// redirect comes back to redirectURL (the HTTP server's callback), on any
// replica, and stores the grant under who's key alone. nonce, when set,
// binds the login to the browser holding it (oauth.LoginCookie).
func (m *Manager) BeginPersonLogin(ctx context.Context, server, who, redirectURL, nonce string) (string, error) {
	u, err := m.server(server)
	if err != nil {
		return "", err
	}
	switch {
	case !u.settings().OAuth.PerUser():
		return "", fmt.Errorf("%s has one login for everyone (identity: shared): the operator logs in to it", server)
	case u.auth == nil:
		return "", fmt.Errorf("%s takes no OAuth login (a stdio server, or one whose entry sends its own Authorization header)", server)
	}
	ul := m.UserLogins()
	if ul == nil {
		return "", fmt.Errorf("no place to keep logins: %w", m.tokenStoreErr)
	}
	if !m.begun.admit(who, time.Now()) {
		return "", fmt.Errorf("%s began %d logins in the last %v, which is as many as anyone may: finish one of them, or wait", who, maxBegunPerPerson, oauth.LoginLife)
	}
	authURL, err := ul.Begin(ctx, oauth.LoginStart{
		Principal: who, Server: server, Resource: u.cfg.URL, Settings: u.settings().OAuth,
		RedirectURL: redirectURL, Nonce: nonce,
	})
	if err != nil {
		return "", u.redact.Error(err)
	}
	u.log.Info("a person's login begun", "principal", who)
	return authURL, nil
}

// PersonLoginNeeded says why who cannot call a server with identity: user
// under their own login ("" when they can: a usable grant, or one that is
// refreshed at the next call).
func (m *Manager) PersonLoginNeeded(server, who string) string {
	u, err := m.server(server)
	if err != nil {
		return err.Error()
	}
	if u.auth == nil {
		return "the server takes no OAuth login"
	}
	return personReason(who, m.tokensFor(u, who).NeedsLogin())
}

// maxBegunPerPerson bounds the logins one principal may begin within
// oauth.LoginLife, and maxBegun those of everyone: each is a registration
// at the authorization server and a pending login kept, which a token
// holder could otherwise pile up.
const (
	maxBegunPerPerson = 10
	maxBegun          = 1000
)

// begunLogins counts the logins begun recently, by principal.
type begunLogins struct {
	mu  sync.Mutex
	at  map[string][]time.Time
	all int
}

// admit records a login who begins at now, unless they, or everyone, began
// too many within oauth.LoginLife.
func (b *begunLogins) admit(who string, now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.at == nil {
		b.at = map[string][]time.Time{}
	}
	if b.all >= maxBegun || len(b.at[who]) >= maxBegunPerPerson {
		b.expire(now)
	}
	if b.all >= maxBegun || len(b.at[who]) >= maxBegunPerPerson {
		return false
	}
	b.at[who] = append(b.at[who], now)
	b.all++
	return true
}

// expire forgets the logins begun before oauth.LoginLife ago.
func (b *begunLogins) expire(now time.Time) {
	b.all = 0
	for who, ts := range b.at {
		keep := ts[:0]
		for _, t := range ts {
			if now.Sub(t) < oauth.LoginLife {
				keep = append(keep, t)
			}
		}
		if len(keep) == 0 {
			delete(b.at, who)
			continue
		}
		b.at[who] = keep
		b.all += len(keep)
	}
}
