package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/internal/ownership"
)

// TestForwardTellsALostOwnerFromOneThatDiedServing: an owner that cannot
// be reached did nothing, and its session is lost (404, the client opens
// a new one); an owner that took the request and went away before it
// answered may have done it, which a lost session's answer would deny:
// that is a 502, whose outcome the client does not know.
func TestForwardTellsALostOwnerFromOneThatDiedServing(t *testing.T) {
	diedServing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		c, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		c.Close()
	}))
	defer diedServing.Close()
	gone := httptest.NewServer(nil)
	goneURL := gone.URL
	gone.Close()

	f := newForwarder(&Replicas{Sealer: ownership.New([]byte("0123456789abcdef0123456789abcdef"), "replica-a")})
	tests := []struct {
		name     string
		owner    string
		wantCode int
		wantLost bool
	}{
		{"an owner that cannot be reached", goneURL, http.StatusNotFound, true},
		{"an owner that took the request and died", diedServing.URL, http.StatusBadGateway, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lost := false
			rec := httptest.NewRecorder()
			req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`))
			f.forward(rec, req, tt.owner, func(w http.ResponseWriter, _ *http.Request) {
				lost = true
				http.Error(w, "session not found", http.StatusNotFound)
			})
			if rec.Code != tt.wantCode || lost != tt.wantLost {
				t.Errorf("answered %d (lost: %v), want %d (lost: %v): %s", rec.Code, lost, tt.wantCode, tt.wantLost, rec.Body)
			}
		})
	}
}
