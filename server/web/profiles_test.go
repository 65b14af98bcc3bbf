package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/server"
)

// fakeApprovals approves what it was given.
type fakeApprovals struct {
	pending  []Pending
	approved []string
}

func (f *fakeApprovals) Pending() []Pending { return f.pending }

func (f *fakeApprovals) Approve(_ context.Context, name, digest string) error {
	for _, p := range f.pending {
		if p.Name == name {
			if p.Digest != digest { // whole, as Approvals asks
				return ErrChanged
			}
			f.approved = append(f.approved, name)
			return nil
		}
	}
	return ErrNotPending
}

// TestProfileRouting: who reaches which endpoint, by token and address.
func TestProfileRouting(t *testing.T) {
	s, err := server.New(testCatalog(t), server.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	appr := &fakeApprovals{pending: []Pending{{Name: "srv__echo", Kind: "tool", Digest: "abcdef"}}}
	h := NewHandler(s, Options{
		Token:     "admin",
		Tokens:    []ProfileToken{{Token: "tri", Profile: "triage"}, {Token: "all", Profile: ""}},
		Profiles:  map[string]*server.Server{"triage": s},
		Approvals: appr,
	})
	defer h.Close()
	for _, tc := range []struct {
		name, method, path, token, remote, body string
		want                                    int
	}{
		{"no token", "GET", "/status.json", "", "127.0.0.1:1", "", http.StatusUnauthorized},
		{"admin status", "GET", "/status.json", "admin", "127.0.0.1:1", "", http.StatusOK},
		{"full token status", "GET", "/status.json", "all", "127.0.0.1:1", "", http.StatusOK},
		{"profile token status", "GET", "/status.json", "tri", "127.0.0.1:1", "", http.StatusForbidden},
		{"profile token readyz, without details", "GET", "/readyz", "tri", "127.0.0.1:1", "", http.StatusOK},
		{"profile token approve", "POST", "/approve", "tri", "127.0.0.1:1", `{"name":"srv__echo","digest":"abc"}`, http.StatusForbidden},
		{"profile path off loopback", "GET", "/mcp/p/triage", "admin", "10.1.2.3:5", "", http.StatusForbidden},
		{"profile path, another profile's token", "GET", "/mcp/p/other", "tri", "127.0.0.1:1", "", http.StatusForbidden},
		{"unknown profile", "GET", "/mcp/p/nope", "admin", "127.0.0.1:1", "", http.StatusNotFound},
		{"healthz", "GET", "/healthz", "", "10.1.2.3:5", "", http.StatusOK},
		{"approve, changed", "POST", "/approve", "admin", "127.0.0.1:1", `{"name":"srv__echo","digest":"zzz"}`, http.StatusConflict},
		{"approve, unknown", "POST", "/approve", "admin", "127.0.0.1:1", `{"name":"srv__nope","digest":"abc"}`, http.StatusNotFound},
		{"approve, bad body", "POST", "/approve", "admin", "127.0.0.1:1", `{}`, http.StatusBadRequest},
		{"approve, token in the URL", "POST", "/approve?token=admin", "", "127.0.0.1:1", `{"name":"srv__echo","digest":"abc"}`, http.StatusUnauthorized},
		{"approve, a prefix of the digest", "POST", "/approve", "admin", "127.0.0.1:1", `{"name":"srv__echo","digest":"abcde"}`, http.StatusConflict},
		{"approve", "POST", "/approve", "admin", "127.0.0.1:1", `{"name":"srv__echo","digest":"abcdef"}`, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(tc.method, tc.path, strings.NewReader(tc.body))
			r.Host = "localhost:7777"
			r.RemoteAddr = tc.remote
			r.Header.Set("Content-Type", "application/json")
			if tc.token != "" {
				r.Header.Set("Authorization", "Bearer "+tc.token)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tc.want {
				t.Errorf("%s %s: %d, want %d: %s", tc.method, tc.path, w.Code, tc.want, w.Body)
			}
		})
	}
	if len(appr.approved) != 1 {
		t.Errorf("approved %v, want srv__echo once", appr.approved)
	}
}
