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

// TestPersonLoginRoutes: every principal, whatever its token reaches
// otherwise, sees its own logins and begins its own, bound to it and to its
// browser; only a token that reaches everything starts a shared login.
func TestPersonLoginRoutes(t *testing.T) {
	s, _ := server.New(testCatalog(t), server.Options{ListingBudget: server.DefaultListingBudget, Upstreams: &fakeUpstreams{}})
	defer s.Close()
	type begun struct{ server, who, redirect, nonce string }
	var began []begun
	o := Options{
		Token:     "op-token",
		Tokens:    []ProfileToken{{Token: "alice-token", Profile: "small", Principal: "alice"}},
		Profiles:  map[string]*server.Server{"small": s},
		Callbacks: oauth.NewCallbacks(),
		Login: func(context.Context, string, *oauth.Prompter) error {
			t.Error("a shared login was started")
			return nil
		},
		People: &People{
			Servers: func() []string { return []string{"github"} },
			Needed: func(server, who string) string {
				if who == "alice" {
					return ""
				}
				return "no login is stored for " + who
			},
			Begin: func(_ context.Context, server, who, redirect, nonce string) (string, error) {
				began = append(began, begun{server, who, redirect, nonce})
				return "https://as.example.com/authorize?state=s-" + who, nil
			},
		},
	}
	h := NewHandler(s, o)
	do := func(method, target, body, token string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, target, strings.NewReader(body))
		req.Host = "127.0.0.1:7777"
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}

	if rec := do("GET", "/login", "", ""); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Your logins") {
		t.Errorf("the page without a token: %d", rec.Code)
	}
	if rec := do("GET", "/login.json", "", ""); rec.Code != http.StatusUnauthorized {
		t.Errorf("login.json without a token: %d", rec.Code)
	}
	for who, tok := range map[string]string{"alice": "alice-token", "operator": "op-token"} {
		rec := do("GET", "/login.json", "", tok)
		var mine struct {
			Principal string
			Logins    []personLogin
		}
		json.Unmarshal(rec.Body.Bytes(), &mine)
		wantNeeded := ""
		if who != "alice" {
			wantNeeded = "no login is stored for " + who
		}
		if rec.Code != http.StatusOK || mine.Principal != who || len(mine.Logins) != 1 || mine.Logins[0].Needed != wantNeeded {
			t.Errorf("%s's login.json: %d %s", who, rec.Code, rec.Body)
		}
	}

	rec := do("POST", "/oauth/login", `{"server":"github","person":true}`, "alice-token")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "state=s-alice") {
		t.Fatalf("alice's own login: %d %s", rec.Code, rec.Body)
	}
	cookie := rec.Result().Cookies()
	if len(began) != 1 || began[0].who != "alice" || began[0].redirect != "http://127.0.0.1:7777/oauth/callback" ||
		len(cookie) != 1 || cookie[0].Name != oauth.LoginCookie || cookie[0].Value != began[0].nonce || !cookie[0].HttpOnly || cookie[0].Path != "/oauth/" {
		t.Errorf("alice's login began as %+v with cookies %+v", began, cookie)
	}
	if rec := do("POST", "/oauth/login", `{"server":"github"}`, "alice-token"); rec.Code != http.StatusForbidden {
		t.Errorf("alice started the shared login: %d %s", rec.Code, rec.Body)
	}
	if rec := do("GET", "/status.json", "", "alice-token"); rec.Code != http.StatusForbidden {
		t.Errorf("alice's profile token reached the status page: %d", rec.Code)
	}
}
