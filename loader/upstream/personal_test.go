package upstream

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/internal/principal"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// fingerprint names a token without showing it.
func fingerprint(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:6])
}

// peopleEnv is the OAuth example server under identity: user, logged in to
// once for the listing (shared), with the HTTP server's callback.
type peopleEnv struct {
	*oauthEnv
	m        *Manager
	callback string
}

func newPeopleEnv(t *testing.T, opts func(*Options)) *peopleEnv {
	e := &peopleEnv{oauthEnv: newOAuthEnv(t, false)}
	e.opts.Settings = map[string]Settings{"remote": {OAuth: oauth.Settings{Identity: oauth.IdentityUser}}}
	if opts != nil {
		opts(&e.opts)
	}
	e.m = e.start(TypeHTTP)
	e.login(e.m)
	waitSource(t, e.catalog, "remote", "active", inState(catalog.StateActive))
	cb := oauth.NewCallbacks()
	cb.SetUserLogins(e.m.UserLogins(), nil)
	srv := httptest.NewServer(cb)
	t.Cleanup(srv.Close)
	e.callback = srv.URL + "/oauth/callback"
	return e
}

// logIn takes who through their own login: the page opened, the redirect
// followed back to the callback.
func (e *peopleEnv) logIn(who string) {
	e.t.Helper()
	u, err := e.m.BeginPersonLogin(context.Background(), "remote", who, e.callback, "")
	if err != nil {
		e.t.Fatal(err)
	}
	resp, err := http.Get(u)
	if err != nil {
		e.t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "Logged in to remote as "+who) {
		e.t.Fatalf("%s's login: %s", who, body)
	}
}

// grantOf is who's stored grant.
func (e *peopleEnv) grantOf(who string) *oauth.Grant {
	e.t.Helper()
	g, _, err := e.store.LoadGrant(context.Background(), oauth.GrantKey{Principal: who, Server: "remote", Resource: e.url})
	if err != nil || g == nil {
		e.t.Fatalf("%s's grant: %v, %v", who, g, err)
	}
	return g
}

func (e *peopleEnv) bearerOf(who string) (string, error) {
	res, err := e.m.Call(principal.With(context.Background(), who), "remote", "bearer", nil)
	if err != nil {
		return "", err
	}
	return textOf(res), nil
}

// TestPeopleCallWithTheirOwnTokens: two people log in as themselves and
// call at once; each call reaches the example OAuth server with its
// caller's own token, never the other's nor the shared one, over one
// connection per person; a third person is told how to log in.
func TestPeopleCallWithTheirOwnTokens(t *testing.T) {
	e := newPeopleEnv(t, nil)
	e.logIn("alice")
	e.logIn("bob")
	want := map[string]string{"alice": fingerprint(e.grantOf("alice").Token.AccessToken), "bob": fingerprint(e.grantOf("bob").Token.AccessToken)}
	shared, _ := e.store.Load("remote", e.url)
	if want["alice"] == want["bob"] || want["alice"] == fingerprint(shared.Token.AccessToken) {
		t.Fatal("the logins gave the same token")
	}
	var wg sync.WaitGroup
	for range 10 {
		for who := range want {
			wg.Go(func() {
				got, err := e.bearerOf(who)
				if err != nil {
					t.Errorf("%s's call: %v", who, err)
				} else if got != want[who] {
					t.Errorf("%s's call went out with another token (%s, want %s)", who, got, want[who])
				}
			})
		}
	}
	wg.Wait()
	if n := e.m.people.open(); n != 2 {
		t.Errorf("%d connections for two people, want 2", n)
	}
	_, err := e.bearerOf("carol")
	var ul *UserLoginRequiredError
	if !errors.As(err, &ul) || !strings.Contains(err.Error(), "Log in to remote as carol") {
		t.Fatalf("carol's call: %v", err)
	}
}

// TestPersonRefreshedOnceAndAlone: a person's expiring token is refreshed
// once for their many calls, stored under their key, and nobody else's
// grant changes.
func TestPersonRefreshedOnceAndAlone(t *testing.T) {
	e := newPeopleEnv(t, nil)
	e.logIn("alice")
	e.logIn("bob")
	bob := e.grantOf("bob").Token.AccessToken
	g := e.grantOf("alice")
	old := g.Token.AccessToken
	g.Obtained, g.Token.Expiry = time.Now().Add(-time.Hour), time.Now().Add(30*time.Second)
	if _, err := e.store.SaveGrant(context.Background(), oauth.GrantKey{Principal: "alice", Server: "remote", Resource: e.url}, g); err != nil {
		t.Fatal(err)
	}
	before := e.as.Stats().Refreshes
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if _, err := e.bearerOf("alice"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := e.as.Stats().Refreshes - before; n != 1 {
		t.Errorf("%d refreshes for alice's 20 calls, want 1", n)
	}
	now := e.grantOf("alice").Token.AccessToken
	if now == old {
		t.Error("alice's refreshed token was not stored")
	}
	if got, _ := e.bearerOf("alice"); got != fingerprint(now) {
		t.Error("alice's call does not carry her refreshed token")
	}
	if e.grantOf("bob").Token.AccessToken != bob {
		t.Error("bob's grant changed with alice's refresh")
	}
}

// TestPeopleConnectionsBounded: past MaxPersonal, the connection idle
// longest is closed for the newcomer; an idle one closes by itself.
func TestPeopleConnectionsBounded(t *testing.T) {
	e := newPeopleEnv(t, func(o *Options) { o.MaxPersonal, o.PersonalIdle = 2, 300*time.Millisecond })
	for _, who := range []string{"alice", "bob", "carol"} {
		e.logIn(who)
		if _, err := e.bearerOf(who); err != nil {
			t.Fatal(err)
		}
		if n := e.m.people.open(); n > 2 {
			t.Fatalf("%d connections kept, past the bound of 2", n)
		}
	}
	deadline := time.Now().Add(waitLimit)
	for e.m.people.open() > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := e.m.people.open(); n != 0 {
		t.Errorf("%d idle connections still open", n)
	}
	if got, err := e.bearerOf("alice"); err != nil || got != fingerprint(e.grantOf("alice").Token.AccessToken) {
		t.Errorf("alice's call after her connection closed: %q, %v", got, err)
	}
}

// TestBegunLoginsBounded: a principal may begin only so many logins at
// once (each a registration and a pending login kept); others still may,
// and the count frees itself as they expire.
func TestBegunLoginsBounded(t *testing.T) {
	var b begunLogins
	now := time.Now()
	for i := range maxBegunPerPerson {
		if !b.admit("mallory", now) {
			t.Fatalf("login %d refused", i)
		}
	}
	if b.admit("mallory", now) {
		t.Error("mallory began more logins than the bound")
	}
	if !b.admit("alice", now) {
		t.Error("alice was refused for mallory's logins")
	}
	if !b.admit("mallory", now.Add(oauth.LoginLife)) {
		t.Error("mallory is still refused once her logins expired")
	}
}
