package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestGuardFor: Guard holds another handler to serve --http's rules: the
// token, the Host header, the Origin.
func TestGuardFor(t *testing.T) {
	h := Guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }), Options{Token: "s3cret"})
	cases := []struct {
		name           string
		host, auth, or string
		want           int
	}{
		{"the token", "127.0.0.1:7777", "Bearer s3cret", "", http.StatusOK},
		{"no token", "127.0.0.1:7777", "", "", http.StatusUnauthorized},
		{"a wrong token", "127.0.0.1:7777", "Bearer guess", "", http.StatusUnauthorized},
		{"another site's name on loopback", "evil.example", "Bearer s3cret", "", http.StatusForbidden},
		{"another site's page", "127.0.0.1:7777", "Bearer s3cret", "https://evil.example", http.StatusForbidden},
	}
	for _, c := range cases {
		r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader("{}"))
		r.Host = c.host
		if c.auth != "" {
			r.Header.Set("Authorization", c.auth)
		}
		if c.or != "" {
			r.Header.Set("Origin", c.or)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != c.want {
			t.Errorf("%s: %d %s, want %d", c.name, w.Code, w.Body, c.want)
		}
	}
}
