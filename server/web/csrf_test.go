package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
	"github.com/toolsearch/toolsearch/server"
)

// TestHostilePageCannotChangeState: a page on another loopback port (what
// checkOrigin lets through, for MCP clients) cannot approve a held tool or
// start a login, neither with the text/plain POST a browser sends from any
// page unasked nor with JSON; the server's own page can, and so can
// programs, which send no Origin. On loopback no token is needed, so these
// checks are all that stands in the way.
func TestHostilePageCannotChangeState(t *testing.T) {
	s, err := server.New(testCatalog(t), server.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const digest = "9f2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c0b2d4f6e8a1c3e5b7d9f1a3c5e7b9d1f"
	for _, tc := range []struct {
		name, path, origin, site, contentType string
		want                                  int
	}{
		{"approve, text/plain from another port", "/approve", "http://127.0.0.1:9999", "", "text/plain", http.StatusForbidden},
		{"approve, text/plain from another port, Sec-Fetch-Site", "/approve", "http://127.0.0.1:9999", "same-site", "text/plain", http.StatusForbidden},
		{"approve, JSON from another port", "/approve", "http://localhost:3000", "", "application/json", http.StatusForbidden},
		{"approve, text/plain without an Origin", "/approve", "", "", "text/plain;charset=UTF-8", http.StatusUnsupportedMediaType},
		{"approve, form from the own page", "/approve", "http://127.0.0.1:7777", "same-origin", "application/x-www-form-urlencoded", http.StatusUnsupportedMediaType},
		{"login, text/plain from another port", "/oauth/login", "http://127.0.0.1:9999", "", "text/plain", http.StatusForbidden},
		{"login, no type", "/oauth/login", "", "", "", http.StatusUnsupportedMediaType},
		{"approve, the own page", "/approve", "http://127.0.0.1:7777", "same-origin", "application/json", http.StatusOK},
		{"approve, a program", "/approve", "", "", "application/json", http.StatusOK},
		{"login, the own page", "/oauth/login", "http://127.0.0.1:7777", "same-origin", "application/json", http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			appr := &fakeApprovals{pending: []Pending{{Name: "srv__echo", Kind: "tool", Digest: digest}}}
			logins := 0
			h := NewHandler(s, Options{
				Approvals: appr,
				Callbacks: oauth.NewCallbacks(),
				Login: func(ctx context.Context, server string, p *oauth.Prompter) error {
					logins++
					return p.Show(ctx, server, "https://as.example.com/authorize")
				},
			})
			defer h.Close()
			body := `{"name":"srv__echo","digest":"` + digest + `"}`
			if tc.path == "/oauth/login" {
				body = `{"server":"srv"}`
			}
			r := httptest.NewRequest("POST", tc.path, strings.NewReader(body))
			r.Host = "127.0.0.1:7777"
			r.RemoteAddr = "127.0.0.1:50000"
			for k, v := range map[string]string{"Origin": tc.origin, "Sec-Fetch-Site": tc.site, "Content-Type": tc.contentType} {
				if v != "" {
					r.Header.Set(k, v)
				}
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tc.want {
				t.Errorf("%d, want %d: %s", w.Code, tc.want, w.Body)
			}
			if changed := len(appr.approved) + logins; (tc.want == http.StatusOK) != (changed > 0) {
				t.Errorf("status %d, yet %d approvals and %d logins", w.Code, len(appr.approved), logins)
			}
		})
	}
}

// TestApproveTakesTheWholeDigest: over HTTP, only the whole digest shown
// approves; a prefix, however long, is a definition not shown.
func TestApproveTakesTheWholeDigest(t *testing.T) {
	s, _ := server.New(testCatalog(t), server.Options{})
	defer s.Close()
	const digest = "9f2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c0b2d4f6e8a1c3e5b7d9f1a3c5e7b9d1f"
	for _, given := range []string{"9", "9f2c4e6a8b0d1f3e", digest[:63], digest + "0", strings.ToUpper(digest)} {
		appr := &fakeApprovals{pending: []Pending{{Name: "srv__echo", Kind: "tool", Digest: digest}}}
		h := NewHandler(s, Options{Approvals: appr})
		r := httptest.NewRequest("POST", "/approve", strings.NewReader(`{"name":"srv__echo","digest":"`+given+`"}`))
		r.Host = "127.0.0.1:7777"
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusConflict || len(appr.approved) > 0 {
			t.Errorf("digest %q: %d, approved %v", given, w.Code, appr.approved)
		}
		h.Close()
	}
}
