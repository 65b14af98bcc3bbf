package web

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestValidToken(t *testing.T) {
	tests := []struct {
		name, method, target, auth string
		want                       bool
	}{
		{"bearer header", "POST", "/mcp", "Bearer secret", true},
		{"scheme in lower case", "POST", "/mcp", "bearer secret", true},
		{"scheme in upper case", "GET", "/readyz", "BEARER secret", true},
		{"wrong token", "POST", "/mcp", "Bearer nope", false},
		{"another scheme", "POST", "/mcp", "Basic secret", false},
		{"no space", "POST", "/mcp", "Bearersecret", false},
		{"empty token", "POST", "/mcp", "Bearer ", false},
		{"query token on the status page", "GET", "/?token=secret", "", true},
		{"query token on status.json", "GET", "/status.json?token=secret", "", true},
		{"query token on the event stream", "GET", "/events?token=secret", "", true},
		{"query token on the search box", "GET", "/search?q=x&token=secret", "", true},
		{"query token on POST /mcp", "POST", "/mcp?token=secret", "", false},
		{"query token on GET /mcp", "GET", "/mcp?token=secret", "", false},
		{"query token on readyz", "GET", "/readyz?token=secret", "", false},
		{"query token posted to the page", "POST", "/?token=secret", "", false},
		{"wrong query token", "GET", "/?token=nope", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, tt.target, nil)
			if tt.auth != "" {
				r.Header.Set("Authorization", tt.auth)
			}
			if got := validToken(r, "secret"); got != tt.want {
				t.Errorf("validToken = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestQueryTokenRefusedOnMCP checks the whole handler: a token in the URL
// of POST /mcp gets 401, as URLs end up in logs and browser history.
func TestQueryTokenRefusedOnMCP(t *testing.T) {
	r := httptest.NewRequest(http.MethodPost, "/mcp?token=secret", nil)
	r.Host = "localhost:7777"
	w := httptest.NewRecorder()
	newGuard(http.NotFoundHandler(), Options{Token: "secret"}).ServeHTTP(w, r)
	if w.Code != http.StatusUnauthorized {
		t.Errorf("POST /mcp?token=: status %d, want 401", w.Code)
	}
}
