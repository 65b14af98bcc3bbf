package oauth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestGuardAddresses: the addresses and URLs every OAuth request is held
// to. Nothing here is dialled.
func TestGuardAddresses(t *testing.T) {
	for _, tc := range []struct {
		addr     string
		loopback bool // the MCP server is on loopback
		ok       bool
	}{
		{"93.184.215.14", false, true},
		{"2606:2800:21f:cb07:6820:80da:af6b:8b2c", false, true},
		{"127.0.0.1", true, true},
		{"::1", true, true},
		{"127.0.0.1", false, false},
		{"::1", false, false},
		{"::ffff:127.0.0.1", false, false},
		{"10.1.2.3", true, false},
		{"172.16.0.1", true, false},
		{"192.168.1.1", true, false},
		{"169.254.169.254", true, false}, // cloud metadata
		{"fe80::1", true, false},
		{"fd00::1", true, false},
		{"100.64.0.1", true, false},
		{"224.0.0.1", true, false},
		{"0.0.0.0", true, false},
		{"::", true, false},
	} {
		ip := netip.MustParseAddr(tc.addr)
		if err := checkAddr(ip, tc.loopback); (err == nil) != tc.ok {
			t.Errorf("checkAddr(%s, loopback allowed %v) = %v, want ok %v", tc.addr, tc.loopback, err, tc.ok)
		}
		if err := dialGuard(tc.loopback)("tcp", netip.AddrPortFrom(ip, 443).String(), nil); (err == nil) != tc.ok {
			t.Errorf("dial guard for %s (loopback allowed %v) = %v, want ok %v", tc.addr, tc.loopback, err, tc.ok)
		}
	}
	for _, tc := range []struct {
		url      string
		loopback bool
		ok       bool
	}{
		{"https://as.example.com/token", false, true},
		{"http://as.example.com/token", false, false}, // a token endpoint over plain http
		{"http://127.0.0.1:8080/token", true, true},
		{"http://localhost:8080/token", true, true},
		{"http://localhost:8080/token", false, false},
		{"https://127.0.0.1/token", false, false},
		{"https://[fd00::1]/token", true, false},
		{"ftp://as.example.com/token", true, false},
	} {
		u, _ := url.Parse(tc.url)
		if err := checkURL(u, tc.loopback); (err == nil) != tc.ok {
			t.Errorf("checkURL(%s, loopback allowed %v) = %v, want ok %v", tc.url, tc.loopback, err, tc.ok)
		}
	}
}

// hostileServer is an authorization server on loopback that counts what
// reaches it.
func hostileServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"access_token":"stolen","token_type":"Bearer"}`))
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// TestRemoteServerCannotDirectToLoopback: for an MCP server that is not on
// this machine, metadata, token and revocation endpoints that a server
// names on loopback are never contacted. The login's recorder wrapped the
// transport, so the SDK skipped its dial-time check, and the SDK checks no
// registration or token request at all.
func TestRemoteServerCannotDirectToLoopback(t *testing.T) {
	const remote = "https://mcp.example.com/mcp"
	hostile, hits := hostileServer(t)

	// Metadata the server names in its challenge, fetched by the SDK's
	// discovery during a login.
	tokens := NewTokens(testStore(t), "remote", remote, nil, nil)
	h := NewHandler(tokens, Settings{}, nil).ForLogin(&Prompter{Wait: time.Second,
		Show: func(context.Context, string, string) error { t.Error("a login page was shown"); return nil }})
	req := httptest.NewRequest(http.MethodPost, remote, nil)
	resp := &http.Response{StatusCode: http.StatusUnauthorized, Request: req, Body: http.NoBody, Header: http.Header{
		"Www-Authenticate": {`Bearer resource_metadata="` + hostile.URL + `/.well-known/oauth-protected-resource/mcp"`}}}
	if err := h.Authorize(context.Background(), req, resp); err == nil {
		t.Error("a login through metadata on loopback succeeded")
	}

	// A stored grant whose token and revocation endpoints are on loopback.
	g := expiring(hostile.URL + "/token")
	g.Resource, g.RevocationURL = remote, hostile.URL+"/revoke"
	if err := tokens.Save(g); err != nil {
		t.Fatal(err)
	}
	if _, err := tokens.Token(); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("refresh through a loopback token endpoint: %v, want it refused as loopback", err)
	}
	if _, err := Revoke(context.Background(), Guard(nil, remote), g); err == nil {
		t.Error("revocation at a loopback endpoint succeeded")
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the loopback authorization server received %d requests", n)
	}
}

// TestTokenRequestsStayOnTheirOrigin: a token endpoint that redirects the
// request (a 307 keeps the body: client secret, code, verifier) to another
// origin is not followed.
func TestTokenRequestsStayOnTheirOrigin(t *testing.T) {
	away, hits := hostileServer(t)
	redirecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, away.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirecting.Close)
	tokens := NewTokens(testStore(t), "remote", resource, nil, nil)
	if err := tokens.Save(expiring(redirecting.URL + "/token")); err != nil {
		t.Fatal(err)
	}
	if _, err := tokens.Token(); err == nil || strings.Contains(err.Error(), "client-secret-value") {
		t.Errorf("refresh redirected to another origin: %v, want an error without the secret", err)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the other origin received %d token requests", n)
	}
}

// TestSameOrigin: scheme, host (in any case) and port (the default one
// spelled or not) make an origin; a longer host is another.
func TestSameOrigin(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"https://x.example/mcp", "https://X.example:443/other", true},
		{"http://x.example/mcp", "http://x.example:80", true},
		{"http://x.example", "https://x.example", false},
		{"https://x.example", "https://x.example:8443", false},
		{"https://x.example", "https://y.example", false},
		{"https://x.example", "https://x.example.evil", false},
	} {
		a, _ := url.Parse(tt.a)
		b, _ := url.Parse(tt.b)
		if got := SameOrigin(a, b); got != tt.want {
			t.Errorf("SameOrigin(%s, %s) = %v", tt.a, tt.b, got)
		}
	}
}
