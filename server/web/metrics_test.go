package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/server"
	"github.com/toolsearch/toolsearch/server/metrics"
)

// /metrics is the operator's, as the status page is: without the token, or
// with a profile's, it is refused; with it, it answers in the Prometheus
// text format. The token goes in the Authorization header, never the URL.
func TestMetricsNeedsTheOperatorsToken(t *testing.T) {
	catalog := testCatalog(t)
	s, err := server.New(catalog, server.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	m := metrics.New(metrics.Options{Snapshot: catalog.Snapshot})
	m.ObserveSearch(metrics.OutcomeOK, 0)
	h := NewHandler(s, Options{
		Token:    "operator",
		Tokens:   []ProfileToken{{Token: "reader", Profile: "readers"}},
		Profiles: map[string]*server.Server{"readers": s},
		Metrics:  m.Handler(),
	})
	defer h.Close()
	tests := []struct {
		name, method, target, auth string
		want                       int
	}{
		{"no token", "GET", "/metrics", "", http.StatusUnauthorized},
		{"wrong token", "GET", "/metrics", "Bearer nope", http.StatusUnauthorized},
		{"the token in the URL", "GET", "/metrics?token=operator", "", http.StatusUnauthorized},
		{"a profile's token", "GET", "/metrics", "Bearer reader", http.StatusForbidden},
		{"the operator's token", "GET", "/metrics", "Bearer operator", http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, tt.target, nil)
			r.Host = "localhost:7777"
			if tt.auth != "" {
				r.Header.Set("Authorization", tt.auth)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tt.want {
				t.Fatalf("status %d, want %d: %s", w.Code, tt.want, w.Body)
			}
			if tt.want != http.StatusOK {
				if strings.Contains(w.Body.String(), "toolsearch_") {
					t.Errorf("a refusal shows metrics: %s", w.Body)
				}
				return
			}
			if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
				t.Errorf("Content-Type %q, want the Prometheus text format", ct)
			}
			for _, want := range []string{
				"# TYPE toolsearch_searches_total counter",
				`toolsearch_searches_total{outcome="ok"} 1`,
				`toolsearch_upstream_state{server="srv",state="active"} 1`,
			} {
				if !strings.Contains(w.Body.String(), want) {
					t.Errorf("no %q in:\n%s", want, w.Body)
				}
			}
		})
	}
}

// Without Options.Metrics there is no /metrics.
func TestNoMetricsEndpointUnlessGiven(t *testing.T) {
	s, err := server.New(testCatalog(t), server.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	h := NewHandler(s, Options{})
	defer h.Close()
	r := httptest.NewRequest("GET", "/metrics", nil)
	r.Host = "localhost:7777"
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusNotFound {
		t.Errorf("status %d, want 404", w.Code)
	}
}
