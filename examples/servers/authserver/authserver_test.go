package authserver

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

const verifier = "a-verifier-of-at-least-forty-three-characters-long-0123456789"

func challenge(v string) string {
	sum := sha256.Sum256([]byte(v))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// env is a server with one registered client.
type env struct {
	t              *testing.T
	s              *Server
	url            string
	client, secret string
	redirect       string
}

func newEnv(t *testing.T) *env {
	s := New(Options{Scopes: []string{"tasks"}})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	s.SetIssuer(srv.URL)
	e := &env{t: t, s: s, url: srv.URL, redirect: "http://127.0.0.1:5555/callback"}
	resp, err := http.Post(srv.URL+"/register", "application/json", strings.NewReader(`{"redirect_uris":["`+e.redirect+`"],"client_name":"test"}`))
	if err != nil {
		t.Fatal(err)
	}
	var reg struct{ ClientID, ClientSecret string }
	var raw map[string]any
	json.NewDecoder(resp.Body).Decode(&raw)
	reg.ClientID, _ = raw["client_id"].(string)
	reg.ClientSecret, _ = raw["client_secret"].(string)
	if resp.StatusCode != http.StatusCreated || reg.ClientID == "" || reg.ClientSecret == "" {
		t.Fatalf("register: %d %v", resp.StatusCode, raw)
	}
	e.client, e.secret = reg.ClientID, reg.ClientSecret
	return e
}

// authorize returns the redirect's query.
func (e *env) authorize(q url.Values) url.Values {
	e.t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(e.url + "/authorize?" + q.Encode())
	if err != nil {
		e.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		return url.Values{"status": {resp.Status}}
	}
	loc, _ := url.Parse(resp.Header.Get("Location"))
	return loc.Query()
}

func (e *env) query() url.Values {
	return url.Values{
		"response_type": {"code"}, "client_id": {e.client}, "redirect_uri": {e.redirect}, "state": {"st"},
		"code_challenge": {challenge(verifier)}, "code_challenge_method": {"S256"}, "scope": {"tasks"},
		"resource": {"http://mcp.example/mcp"},
	}
}

func (e *env) token(form url.Values) (int, map[string]any) {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.url+"/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(e.client, e.secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func (e *env) exchange(code, v string) (int, map[string]any) {
	return e.token(url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {e.redirect}, "code_verifier": {v}, "resource": {"http://mcp.example/mcp"}})
}

func TestCodeFlow(t *testing.T) {
	e := newEnv(t)
	back := e.authorize(e.query())
	if back.Get("state") != "st" || back.Get("iss") != e.url || back.Get("code") == "" {
		t.Fatalf("redirect query %v", back)
	}
	if status, out := e.exchange(back.Get("code"), "a-different-verifier-that-is-also-long-enough-0123456789"); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
		t.Errorf("wrong verifier: %d %v", status, out)
	}
	// The code was spent by the failed attempt.
	if status, _ := e.exchange(back.Get("code"), verifier); status != http.StatusBadRequest {
		t.Errorf("spent code: %d", status)
	}

	back = e.authorize(e.query())
	status, out := e.exchange(back.Get("code"), verifier)
	if status != http.StatusOK || out["scope"] != "tasks" {
		t.Fatalf("exchange: %d %v", status, out)
	}
	at, rt := out["access_token"].(string), out["refresh_token"].(string)
	if in := e.s.Introspect(at); !in.Active || in.Aud != "http://mcp.example/mcp" || in.Sub != Subject {
		t.Errorf("introspection %+v", in)
	}

	status, out = e.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rt}})
	if status != http.StatusOK || out["refresh_token"] == rt {
		t.Fatalf("refresh: %d %v", status, out)
	}
	if status, _ := e.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rt}}); status != http.StatusBadRequest {
		t.Errorf("a rotated refresh token was accepted again: %d", status)
	}
	e.s.RevokeAll()
	if status, out := e.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {out["refresh_token"].(string)}}); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
		t.Errorf("refresh after RevokeAll: %d %v", status, out)
	}
	if st := e.s.Stats(); st.Registrations != 1 || st.Authorizations != 2 || st.Refreshes != 3 {
		t.Errorf("stats %+v", st)
	}
}

func TestAuthorizeRefusals(t *testing.T) {
	e := newEnv(t)
	for name, tc := range map[string]struct {
		change func(url.Values)
		want   string // in the redirect's error, or the status shown
	}{
		"unknown client": {func(q url.Values) { q.Set("client_id", "nobody") }, "400 Bad Request"},
		"other redirect": {func(q url.Values) { q.Set("redirect_uri", "http://127.0.0.1:5556/callback") }, "400 Bad Request"},
		"no PKCE":        {func(q url.Values) { q.Del("code_challenge") }, "invalid_request"},
		"plain PKCE":     {func(q url.Values) { q.Set("code_challenge_method", "plain") }, "invalid_request"},
		"token response": {func(q url.Values) { q.Set("response_type", "token") }, "unsupported_response_type"},
	} {
		q := e.query()
		tc.change(q)
		back := e.authorize(q)
		if got := back.Get("error") + back.Get("status"); got != tc.want {
			t.Errorf("%s: got %q, want %q", name, got, tc.want)
		}
	}
}
