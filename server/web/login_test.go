package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
	"github.com/toolsearch/toolsearch/server"
)

func TestLoginRoutes(t *testing.T) {
	s, _ := server.New(testCatalog(t), server.Options{ListingBudget: server.DefaultListingBudget, Upstreams: &fakeUpstreams{}})
	defer s.Close()
	var redirect string
	o := Options{
		Token:     "page-token",
		Callbacks: oauth.NewCallbacks(),
		Logins:    func() []string { return []string{"srv"} },
		Login: func(ctx context.Context, server string, p *oauth.Prompter) error {
			redirect = p.RedirectURL
			return p.Show(ctx, server, "https://as.example.com/authorize?state=s1")
		},
	}
	h := NewHandler(s, o)
	do := func(method, target, body, token, host string) (int, string) {
		req := httptest.NewRequest(method, target, strings.NewReader(body))
		req.Host = "127.0.0.1:7777"
		if host != "" {
			req.Host = host
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}

	if code, _ := do("POST", "/oauth/login", `{"server":"srv"}`, "", ""); code != http.StatusUnauthorized {
		t.Errorf("login without the page's token: %d", code)
	}
	code, body := do("POST", "/oauth/login", `{"server":"srv"}`, "page-token", "")
	var got struct{ URL string }
	json.Unmarshal([]byte(body), &got)
	if code != http.StatusOK || got.URL != "https://as.example.com/authorize?state=s1" || redirect != "http://127.0.0.1:7777/oauth/callback" {
		t.Errorf("login: %d %s, redirect %q", code, body, redirect)
	}
	// The authorization server's redirect carries no token of ours.
	if code, body := do("GET", "/oauth/callback?state=unknown&code=c", "", "", ""); code != http.StatusBadRequest || !strings.Contains(body, "not waiting for this login") {
		t.Errorf("callback: %d %s", code, body)
	}
	if code, body := do("GET", "/status.json", "", "page-token", ""); code != http.StatusOK || !strings.Contains(body, `"logins":["srv"]`) {
		t.Errorf("status.json: %d %s", code, body)
	}

	// Without a token the server is on loopback only: another host name
	// came through a rebound DNS name.
	o.Token = ""
	h = NewHandler(s, o)
	if code, _ := do("POST", "/oauth/login", `{"server":"srv"}`, "", "attacker.example.com:7777"); code != http.StatusForbidden {
		t.Errorf("login through another host name: %d", code)
	}
	if code, _ := do("POST", "/oauth/login", `{}`, "", ""); code != http.StatusBadRequest {
		t.Errorf("login without a server: %d", code)
	}
}
