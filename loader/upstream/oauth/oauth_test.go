package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/oauth2"
)

// tokenEndpoint is a token endpoint that counts refreshes and answers
// them with answer.
type tokenEndpoint struct {
	*httptest.Server
	refreshes atomic.Int32
	mu        sync.Mutex
	answer    func(w http.ResponseWriter, refreshToken string)
}

func newTokenEndpoint(t *testing.T) *tokenEndpoint {
	te := &tokenEndpoint{}
	n := atomic.Int32{}
	te.answer = func(w http.ResponseWriter, _ string) {
		i := n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"access_token":  "access-" + string(rune('a'+i)),
			"refresh_token": "refresh-" + string(rune('a'+i)),
			"token_type":    "Bearer",
			"expires_in":    3600,
		})
	}
	te.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		if r.PostForm.Get("grant_type") != "refresh_token" {
			http.Error(w, "want a refresh", http.StatusBadRequest)
			return
		}
		te.refreshes.Add(1)
		time.Sleep(10 * time.Millisecond) // let concurrent callers pile up
		te.mu.Lock()
		answer := te.answer
		te.mu.Unlock()
		answer(w, r.PostForm.Get("refresh_token"))
	}))
	t.Cleanup(te.Close)
	return te
}

func (te *tokenEndpoint) refuse() {
	te.mu.Lock()
	defer te.mu.Unlock()
	te.answer = func(w http.ResponseWriter, _ string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":"invalid_grant","error_description":"refresh token revoked"}`)
	}
}

// resource is on loopback, as the token servers of these tests are: the
// guard lets a remote server name no loopback address.
const resource = "http://127.0.0.1:9/mcp"

func testStore(t *testing.T) *Store {
	s, err := NewStore(filepath.Join(t.TempDir(), "oauth"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// expiring is a grant whose access token is about to expire.
func expiring(tokenURL string) *Grant {
	return &Grant{
		Server: "remote", Resource: resource,
		TokenURL: tokenURL, ClientID: "client", ClientSecret: "client-secret-value", AuthStyle: oauth2.AuthStyleInHeader,
		Token:    &oauth2.Token{AccessToken: "access-old", RefreshToken: "refresh-old", TokenType: "Bearer", Expiry: time.Now().Add(20 * time.Second)},
		Obtained: time.Now().Add(-time.Hour),
	}
}

func TestStore(t *testing.T) {
	s := testStore(t)
	if g, err := s.Load("remote", resource); g != nil || err != nil {
		t.Fatalf("Load before Save = %v, %v; want nothing", g, err)
	}
	g := expiring("https://as.example.com/token")
	if err := s.Save(g); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load("remote", resource)
	if err != nil || got.Token.RefreshToken != "refresh-old" || got.ClientSecret != "client-secret-value" {
		t.Fatalf("Load = %+v, %v", got, err)
	}
	if runtime.GOOS != "windows" {
		for path, want := range map[string]os.FileMode{s.Dir(): 0o700, s.Path("remote", resource): 0o600} {
			info, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if info.Mode().Perm() != want {
				t.Errorf("%s: mode %v, want %v", path, info.Mode().Perm(), want)
			}
		}
	}
	// The same name at another URL is another resource: its tokens are
	// never those of the old URL.
	if g, _ := s.Load("remote", "https://elsewhere.example.com/mcp"); g != nil {
		t.Error("a grant was found for another URL")
	}
	// No temporary files are left behind.
	entries, _ := os.ReadDir(s.Dir())
	if len(entries) != 1 {
		t.Errorf("%d files in the store, want 1", len(entries))
	}
	if err := s.Delete("remote", resource); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete("remote", resource); err != nil {
		t.Errorf("deleting twice: %v", err)
	}
}

func TestStoreUnreadable(t *testing.T) {
	s := testStore(t)
	os.MkdirAll(s.Dir(), 0o700)
	os.WriteFile(s.Path("remote", resource), []byte(`{"token": {"access_token": "at-secret-in-file"`), 0o600)
	_, err := s.Load("remote", resource)
	if err == nil || strings.Contains(err.Error(), "at-secret-in-file") {
		t.Errorf("Load of a broken file: %v; want an error without the file's content", err)
	}
}

// TestRefreshOnce: one refresh for 50 callers at once, stored at once.
func TestRefreshOnce(t *testing.T) {
	te := newTokenEndpoint(t)
	s := testStore(t)
	s.Save(expiring(te.URL))
	tokens := NewTokens(s, "remote", resource, nil, nil)
	var wg sync.WaitGroup
	got := make(chan string, 50)
	for range 50 {
		wg.Go(func() {
			tok, err := tokens.Token()
			if err != nil {
				t.Error(err)
				return
			}
			got <- tok.AccessToken
		})
	}
	wg.Wait()
	close(got)
	for at := range got {
		if at != "access-b" {
			t.Errorf("a caller got %q, want the refreshed token", at)
		}
	}
	if n := te.refreshes.Load(); n != 1 {
		t.Errorf("%d refresh requests, want 1", n)
	}
	g, _ := s.Load("remote", resource)
	if g.Token.AccessToken != "access-b" || g.Token.RefreshToken != "refresh-b" || g.ClientSecret != "client-secret-value" {
		t.Errorf("stored after refresh: %+v", g.Token)
	}
}

// TestRefreshRefused: a refused refresh needs a login, for every process,
// and its error quotes no secret.
func TestRefreshRefused(t *testing.T) {
	te := newTokenEndpoint(t)
	te.refuse()
	s := testStore(t)
	s.Save(expiring(te.URL))
	tokens := NewTokens(s, "remote", resource, nil, nil)
	_, err := tokens.Token()
	var lr *LoginRequiredError
	if !errors.As(err, &lr) || !errors.Is(err, ErrLoginRequired) {
		t.Fatalf("Token: %v, want a *LoginRequiredError", err)
	}
	for _, secret := range []string{"refresh-old", "access-old", "client-secret-value"} {
		if strings.Contains(err.Error(), secret) {
			t.Errorf("error %q quotes a secret", err)
		}
	}
	if !strings.Contains(lr.Reason, "invalid_grant") {
		t.Errorf("reason %q does not say what the server answered", lr.Reason)
	}
	other := NewTokens(s, "remote", resource, nil, nil)
	if why := other.NeedsLogin(); why == "" {
		t.Error("another process does not see that a login is needed")
	}
	if _, err := other.Token(); !errors.Is(err, ErrLoginRequired) {
		t.Errorf("another process: %v", err)
	}
	if n := te.refreshes.Load(); n != 1 {
		t.Errorf("%d refresh requests, want 1: a refused refresh is not retried", n)
	}
}

// TestRefreshedElsewhere: when another process refreshed first (and the
// authorization server retired the refresh token both had), its tokens are
// used instead of asking for a login.
func TestRefreshedElsewhere(t *testing.T) {
	te := newTokenEndpoint(t)
	s := testStore(t)
	s.Save(expiring(te.URL))
	tokens := NewTokens(s, "remote", resource, nil, nil)
	if _, err := tokens.Token(); err != nil { // read the file once
		t.Fatal(err)
	}
	// The other process refreshes: the endpoint now refuses the refresh
	// token this one holds.
	g := expiring(te.URL)
	g.Token = &oauth2.Token{AccessToken: "access-other", RefreshToken: "refresh-other", Expiry: time.Now().Add(time.Hour)}
	g.Obtained = time.Now()
	te.refuse()
	tokens.mu.Lock()
	tokens.grant.Token.Expiry = time.Now() // this process thinks it must refresh
	tokens.mu.Unlock()
	s.Save(g)
	tok, err := tokens.Token()
	if err != nil || tok.AccessToken != "access-other" {
		t.Fatalf("Token = %v, %v; want the other process's token", tok, err)
	}
}

func TestRefreshUnreachable(t *testing.T) {
	te := newTokenEndpoint(t)
	s := testStore(t)
	s.Save(expiring(te.URL))
	te.Close()
	tokens := NewTokens(s, "remote", resource, nil, nil)
	_, err := tokens.Token()
	if err == nil || errors.Is(err, ErrLoginRequired) {
		t.Fatalf("Token with the authorization server down: %v; want a plain error", err)
	}
	if tokens.NeedsLogin() != "" {
		t.Error("an unreachable authorization server made the server need a login")
	}
}

// downStore is a store behind a database that can go down: while down,
// every operation fails with ErrUnavailable.
type downStore struct {
	Grants
	down atomic.Bool
}

func (d *downStore) err() error {
	if d.down.Load() {
		return fmt.Errorf("the shared state (PostgreSQL) cannot be reached: %w", ErrUnavailable)
	}
	return nil
}

func (d *downStore) LoadGrant(ctx context.Context, k GrantKey) (*Grant, Stamp, error) {
	if err := d.err(); err != nil {
		return nil, nil, err
	}
	return d.Grants.LoadGrant(ctx, k)
}

func (d *downStore) GrantStamp(ctx context.Context, k GrantKey) (Stamp, error) {
	if err := d.err(); err != nil {
		return nil, err
	}
	return d.Grants.GrantStamp(ctx, k)
}

func (d *downStore) UpdateGrant(ctx context.Context, k GrantKey, fn func(*Grant) (*Grant, error)) (*Grant, Stamp, error) {
	if err := d.err(); err != nil {
		return nil, nil, err
	}
	return d.Grants.UpdateGrant(ctx, k, fn)
}

// TestRefreshWhileStoreDown: a replica whose database is down keeps using
// the token it holds while it lasts, though it is due to be refreshed
// (refreshing takes the grant's lock, in the database); only once it has
// expired are calls refused, with a sentence that says why; and the
// refresh is made once the database is back.
func TestRefreshWhileStoreDown(t *testing.T) {
	te := newTokenEndpoint(t)
	s := &downStore{Grants: testStore(t)}
	k := GrantKey{Server: "remote", Resource: resource}
	if _, err := s.SaveGrant(context.Background(), k, expiring(te.URL)); err != nil {
		t.Fatal(err)
	}
	tokens := NewTokensFor(s, k, nil, nil)
	tokens.now = func() time.Time { return time.Now().Add(-10 * time.Minute) } // not yet due
	if tok, err := tokens.Token(); err != nil || tok.AccessToken != "access-old" {
		t.Fatalf("Token: %v, %v", tok, err)
	}
	s.down.Store(true)
	tokens.now = time.Now // due: within a minute of its expiry
	for range 3 {
		if tok, err := tokens.Token(); err != nil || tok.AccessToken != "access-old" {
			t.Fatalf("Token while the database is down, the token valid for 20 s more: %v, %v; want the token held", tok, err)
		}
	}
	if why := tokens.NeedsLogin(); why != "" {
		t.Errorf("the database down made the server need a login: %s", why)
	}
	tokens.now = func() time.Time { return time.Now().Add(time.Minute) } // expired
	_, err := tokens.Token()
	if err == nil || errors.Is(err, ErrLoginRequired) || !strings.Contains(err.Error(), "cannot be reached") {
		t.Errorf("Token while the database is down, the token expired: %v; want a plain error saying the shared state cannot be reached", err)
	}
	s.down.Store(false)
	tokens.now = time.Now
	if tok, err := tokens.Token(); err != nil || tok.AccessToken != "access-b" {
		t.Errorf("Token once the database is back: %v, %v; want the refreshed token", tok, err)
	}
	if n := te.refreshes.Load(); n != 1 {
		t.Errorf("%d refreshes, want 1", n)
	}
}

func TestCallbacks(t *testing.T) {
	cb := NewCallbacks()
	done, stop := cb.expect("state-1", "remote")
	defer stop()
	get := func(query string) (*http.Response, string) {
		rec := httptest.NewRecorder()
		cb.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/callback?"+query, nil))
		return rec.Result(), rec.Body.String()
	}

	resp, body := get("code=the-code-123&state=unknown")
	if resp.StatusCode != http.StatusBadRequest || strings.Contains(body, "the-code-123") {
		t.Errorf("unknown state: %d %q", resp.StatusCode, body)
	}
	resp, body = get("code=the-code-123&state=state-1&iss=https%3A%2F%2Fas.example.com")
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "close this page") || strings.Contains(body, "the-code-123") {
		t.Errorf("callback page: %d %q", resp.StatusCode, body)
	}
	if resp.Header.Get("Referrer-Policy") != "no-referrer" || resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("callback headers: %v", resp.Header)
	}
	r := <-done
	if r.err != nil || r.res.Code != "the-code-123" || r.res.Iss != "https://as.example.com" {
		t.Errorf("delivered %+v, %v", r.res, r.err)
	}
	// A state is good once.
	if resp, _ := get("code=again&state=state-1"); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("replayed state: %d", resp.StatusCode)
	}

	done2, stop2 := cb.expect("state-2", "remote")
	defer stop2()
	get("error=access_denied&error_description=the+user+said+no&state=state-2")
	if r := <-done2; r.err == nil || !strings.Contains(r.err.Error(), "the user said no") {
		t.Errorf("refusal delivered as %v", r.err)
	}

	// A long description is cut short, between characters.
	done3, stop3 := cb.expect("state-3", "remote")
	defer stop3()
	get("error=access_denied&error_description=" + strings.Repeat("a", 284) + strings.Repeat("%C3%A9", 20) + "&state=state-3")
	if r := <-done3; r.err == nil || !utf8.ValidString(r.err.Error()) || !strings.HasSuffix(r.err.Error(), "a…") {
		t.Errorf("long refusal delivered as %v", r.err)
	}
}

func TestLoopbackRefusesOtherHosts(t *testing.T) {
	cb := NewCallbacks()
	redirect, stop, err := listenLoopback(0, cb)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if !strings.HasPrefix(redirect, "http://127.0.0.1:") || !strings.HasSuffix(redirect, "/callback") {
		t.Errorf("redirect URL %q", redirect)
	}
	req, _ := http.NewRequest(http.MethodGet, redirect+"?state=x&code=y", nil)
	req.Host = "attacker.example.com"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("a request naming another host got %d", resp.StatusCode)
	}
}

func TestSettingsCheck(t *testing.T) {
	for _, tc := range []struct {
		s    Settings
		want []string
	}{
		{Settings{}, nil},
		{Settings{ClientID: "id", ClientSecret: "s", Scopes: []string{"read", "write"}, CallbackPort: 8765}, nil},
		{Settings{ClientMetadataURL: "https://toolsearch.example.com/client.json"}, nil},
		{Settings{ClientSecret: "s"}, []string{"x.clientSecret"}},
		{Settings{ClientMetadataURL: "http://toolsearch.example.com/client.json"}, []string{"x.clientMetadataUrl"}},
		{Settings{ClientMetadataURL: "https://toolsearch.example.com/"}, []string{"x.clientMetadataUrl"}},
		{Settings{Scopes: []string{"a b", ""}, CallbackPort: 70000}, []string{"x.scopes[0]", "x.scopes[1]", "x.callbackPort"}},
		{Settings{Identity: IdentityShared}, nil},
		{Settings{Identity: IdentityUser}, nil},
		{Settings{Identity: "users"}, []string{"x.identity"}},
	} {
		got := tc.s.Check("x")
		if len(got) != len(tc.want) {
			t.Errorf("%+v: %q, want problems at %q", tc.s, got, tc.want)
			continue
		}
		for i := range got {
			if !strings.HasPrefix(got[i], tc.want[i]+":") {
				t.Errorf("%+v: problem %q, want one at %s", tc.s, got[i], tc.want[i])
			}
		}
	}
}

func TestRevoke(t *testing.T) {
	var forms []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		id, secret, _ := r.BasicAuth()
		forms = append(forms, r.PostForm.Get("token_type_hint")+":"+r.PostForm.Get("token")+":"+id+":"+secret)
	}))
	defer srv.Close()
	g := expiring("https://as.example.com/token")
	if ok, err := Revoke(context.Background(), nil, g); ok || err != nil {
		t.Errorf("without an endpoint: %v %v", ok, err)
	}
	g.RevocationURL = srv.URL
	if ok, err := Revoke(context.Background(), nil, g); !ok || err != nil {
		t.Fatalf("Revoke: %v %v", ok, err)
	}
	want := []string{"refresh_token:refresh-old:client:client-secret-value", "access_token:access-old:client:client-secret-value"}
	if strings.Join(forms, " ") != strings.Join(want, " ") {
		t.Errorf("revocation requests %q, want %q", forms, want)
	}
}

// TestLegacyIssuer: only a 2025-03-26 server's root metadata naming an
// issuer on its own origin is read as the origin's.
func TestLegacyIssuer(t *testing.T) {
	const doc = `{"issuer": %q, "authorization_endpoint": "x", "token_endpoint": "y", "code_challenge_methods_supported": ["S256"]}`
	for _, tc := range []struct {
		name, resource, fetched, issuer string
		prm                             bool
		want                            string
	}{
		{"legacy path issuer", "https://mcp.example.com/mcp", "https://mcp.example.com/.well-known/oauth-authorization-server", "https://mcp.example.com/oauth", false, "https://mcp.example.com"},
		{"matching issuer", "https://mcp.example.com/mcp", "https://mcp.example.com/.well-known/oauth-authorization-server", "https://mcp.example.com", false, "https://mcp.example.com"},
		{"resource metadata found", "https://mcp.example.com/mcp", "https://mcp.example.com/.well-known/oauth-authorization-server", "https://mcp.example.com/oauth", true, "https://mcp.example.com/oauth"},
		{"another origin's issuer", "https://mcp.example.com/mcp", "https://mcp.example.com/.well-known/oauth-authorization-server", "https://as.example.com", false, "https://as.example.com"},
		{"another origin's document", "https://mcp.example.com/mcp", "https://as.example.com/.well-known/oauth-authorization-server", "https://as.example.com/oauth", false, "https://as.example.com/oauth"},
		{"document at a path", "https://mcp.example.com/mcp", "https://mcp.example.com/.well-known/oauth-authorization-server/tenant", "https://mcp.example.com/other", false, "https://mcp.example.com/other"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := fmt.Sprintf(doc, tc.issuer)
			srv := roundTripFunc(func(*http.Request) (*http.Response, error) {
				return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader(body)), Header: http.Header{}}, nil
			})
			rec := &metadataRecorder{base: srv, prm: tc.prm}
			rec.resource, _ = url.Parse(tc.resource)
			req, _ := http.NewRequest(http.MethodGet, tc.fetched, nil)
			resp, err := rec.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			var got struct{ Issuer string }
			json.NewDecoder(resp.Body).Decode(&got)
			if got.Issuer != tc.want {
				t.Errorf("issuer passed on: %q, want %q", got.Issuer, tc.want)
			}
		})
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestBrowser(t *testing.T) {
	dir := t.TempDir()
	got := filepath.Join(dir, "opened")
	script := filepath.Join(dir, "browser")
	os.WriteFile(script, []byte("#!/bin/sh\nprintf '%s' \"$1\" > "+got+"\n"), 0o755)
	const page = "https://as.example.com/authorize?state=a&scope=x%20y"
	for _, tc := range []struct {
		name, browser string
		noBrowser     bool
		opened        bool
	}{
		{"$BROWSER", script, false, true},
		{"no browser", script, true, false},
		{"a browser that cannot start", filepath.Join(dir, "missing"), false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if runtime.GOOS == "windows" {
				t.Skip("a shell script as the browser")
			}
			os.Remove(got)
			t.Setenv("BROWSER", tc.browser)
			var out strings.Builder
			if err := Browser(&out, tc.noBrowser)(context.Background(), "remote", page); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), "\n  "+page+"\n") {
				t.Errorf("the URL was not printed: %q", out.String())
			}
			deadline := time.Now().Add(10 * time.Second)
			for tc.opened && time.Now().Before(deadline) {
				if b, _ := os.ReadFile(got); string(b) == page {
					return
				}
				time.Sleep(20 * time.Millisecond)
			}
			if tc.opened {
				t.Error("$BROWSER was not called with the URL")
			} else if _, err := os.Stat(got); err == nil {
				t.Error("a browser was opened")
			}
		})
	}
}

// TestTokensVersion: the version changes when the file does, and only
// then, so that a server waiting for a login is not woken for nothing.
func TestTokensVersion(t *testing.T) {
	s := testStore(t)
	tokens := NewTokens(s, "remote", resource, nil, nil)
	v := tokens.Version()
	if tokens.Version() != v {
		t.Error("the version changed without a file")
	}
	os.MkdirAll(s.Dir(), 0o700)
	os.WriteFile(s.Path("remote", resource), []byte("not json"), 0o600)
	v2 := tokens.Version()
	if v2 == v || tokens.Version() != v2 {
		t.Errorf("versions %d, %d, %d: want one change for one broken file", v, v2, tokens.Version())
	}
	s.Save(expiring("https://as.example.com/token"))
	if tokens.Version() == v2 || tokens.Grant() == nil {
		t.Error("a login stored by another process was not noticed")
	}
}

// TestRejected: a 401 to a request is a refused token only when the request
// carried the current one.
func TestRejected(t *testing.T) {
	s := testStore(t)
	g := expiring("https://as.example.com/token")
	g.Token.Expiry, g.Obtained = time.Now().Add(time.Hour), time.Now()
	s.Save(g)
	tokens := NewTokens(s, "remote", resource, nil, nil)
	for _, sent := range []string{"", "an-older-token"} {
		if err := tokens.rejected(sent); err != nil {
			t.Errorf("401 to a request with %q while a login is stored: %v, want a retry", sent, err)
		}
	}
	if why := tokens.NeedsLogin(); why != "" {
		t.Fatalf("the stored login was marked refused: %s", why)
	}
	// The current token, just issued, refused: no refresh will help.
	if err := tokens.rejected("access-old"); !errors.Is(err, ErrLoginRequired) {
		t.Errorf("401 to the current token: %v", err)
	}
	if tokens.NeedsLogin() == "" {
		t.Error("a refused current token did not mark the login refused")
	}
}

// The authorization server's error description is cut to 200 bytes for
// the messages; the cut must not split a character.
func TestRefusalCutsBetweenCharacters(t *testing.T) {
	desc := strings.Repeat("a", 199) + "ééé"
	msg := refusal(&oauth2.RetrieveError{ErrorCode: "invalid_grant", ErrorDescription: desc})
	if !utf8.ValidString(msg) {
		t.Errorf("refusal %q is not valid UTF-8", msg)
	}
	if want := "it answered invalid_grant (" + strings.Repeat("a", 199) + "…)"; msg != want {
		t.Errorf("refusal = %q, want %q", msg, want)
	}
}

// TestGrantUnreadableWhileStoreDown: a process that holds no grant yet (a
// replica just started, a person's first call) while the database is down
// does not know whether a login is stored: it asks for none, and its calls
// fail with a sentence saying the shared state cannot be reached, until
// the database is back and the stored grant is used.
func TestGrantUnreadableWhileStoreDown(t *testing.T) {
	s := &downStore{Grants: testStore(t)}
	k := GrantKey{Server: "remote", Resource: resource}
	g := expiring("http://127.0.0.1:9/token")
	g.Token.Expiry = time.Now().Add(time.Hour)
	if _, err := s.SaveGrant(context.Background(), k, g); err != nil {
		t.Fatal(err)
	}
	s.down.Store(true)
	tokens := NewTokensFor(s, k, nil, nil)
	if why := tokens.NeedsLogin(); why != "" {
		t.Errorf("NeedsLogin while the database is down: %q, want none (the grant is not known to be missing)", why)
	}
	// Nothing is sent for a grant not read, so that a server that takes
	// no login answers; a 401 is told that the login cannot be read now,
	// never that there is none, even where a login could be run.
	h := NewHandler(tokens, Settings{}, nil)
	if src, err := h.TokenSource(context.Background()); src != nil || err != nil {
		t.Errorf("TokenSource while the grant cannot be read: %v, %v; want none, no error", src, err)
	}
	asked := &Prompter{Show: func(context.Context, string, string) error {
		t.Error("a login was run for a grant that could not be read")
		return errors.New("no")
	}}
	req := httptest.NewRequest(http.MethodPost, resource, nil)
	resp := &http.Response{StatusCode: http.StatusUnauthorized, Header: http.Header{"Www-Authenticate": {"Bearer"}}, Body: http.NoBody}
	if err := h.Authorize(WithPrompter(context.Background(), asked), req, resp); err == nil || errors.Is(err, ErrLoginRequired) || !errors.Is(err, ErrUnavailable) {
		t.Errorf("a 401 while the grant cannot be read: %v; want a plain error matching ErrUnavailable", err)
	}
	_, err := tokens.Token()
	if err == nil || errors.Is(err, ErrLoginRequired) || !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "cannot be reached") {
		t.Errorf("Token while the database is down: %v; want a plain error saying the shared state cannot be reached", err)
	}
	if err := tokens.rejected(""); err == nil || errors.Is(err, ErrLoginRequired) {
		t.Errorf("a 401 while the grant cannot be read: %v; want a plain error", err)
	}
	s.down.Store(false)
	if tok, err := tokens.Token(); err != nil || tok.AccessToken != "access-old" {
		t.Errorf("Token once the database is back: %v, %v", tok, err)
	}
	if err := tokens.Forget(); err != nil {
		t.Fatal(err)
	}
	if why := tokens.NeedsLogin(); why != "no login is stored for it" {
		t.Errorf("NeedsLogin once forgotten: %q", why)
	}
}

// TestRejectedWhileStoreDown: a 401 to the token just issued, while the
// database is down, is no refused login: another replica may have
// refreshed the grant (which retires the token held here), and what is
// stored cannot be read to know. The call fails with a sentence saying
// the shared state cannot be reached, nothing is marked refused, and once
// the database is back the replacing token is used.
func TestRejectedWhileStoreDown(t *testing.T) {
	s := &downStore{Grants: testStore(t)}
	k := GrantKey{Server: "remote", Resource: resource}
	g := expiring("http://127.0.0.1:9/token")
	g.Token.Expiry, g.Obtained = time.Now().Add(time.Hour), time.Now()
	if _, err := s.SaveGrant(context.Background(), k, g); err != nil {
		t.Fatal(err)
	}
	tokens := NewTokensFor(s, k, nil, nil)
	if tok, err := tokens.Token(); err != nil || tok.AccessToken != "access-old" {
		t.Fatalf("Token: %v, %v", tok, err)
	}
	// Another replica refreshes, then the database goes down.
	next := *g
	tok := *g.Token
	tok.AccessToken = "access-new"
	next.Token = &tok
	if _, err := s.SaveGrant(context.Background(), k, &next); err != nil {
		t.Fatal(err)
	}
	s.down.Store(true)
	err := tokens.rejected("access-old")
	if err == nil || errors.Is(err, ErrLoginRequired) || !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "cannot be refreshed while the shared state (the database) cannot be reached") {
		t.Errorf("a 401 to the fresh token while the database is down: %v; want a plain error saying the shared state cannot be reached", err)
	}
	s.down.Store(false)
	if why := tokens.NeedsLogin(); why != "" {
		t.Errorf("the login was marked refused while the database was down: %s", why)
	}
	if tok, err := tokens.Token(); err != nil || tok.AccessToken != "access-new" {
		t.Errorf("Token once the database is back: %v, %v; want the replacing token", tok, err)
	}
}
