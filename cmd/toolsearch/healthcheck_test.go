package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadyzURL(t *testing.T) {
	tests := []struct{ addr, want, err string }{
		{":8080", "http://127.0.0.1:8080/readyz", ""},
		{"0.0.0.0:8080", "http://127.0.0.1:8080/readyz", ""},
		{"[::]:8080", "http://[::1]:8080/readyz", ""},
		{"127.0.0.1:7777", "http://127.0.0.1:7777/readyz", ""},
		{"localhost:9", "http://localhost:9/readyz", ""},
		{"8080", "", "--http: address 8080: missing port"},
	}
	for _, tt := range tests {
		got, err := readyzURL(tt.addr)
		if got != tt.want || (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("readyzURL(%q) = %q, %v; want %q, error with %q", tt.addr, got, err, tt.want, tt.err)
		}
	}
}

func TestCheckReady(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		body    string
		wantErr string // "" means ready
	}{
		{"ready", 200, `{"ready":true,"entries":3,"sessions":0}`, ""},
		{"not ready", 200, `{"ready":false}`, "not ready"},
		{"no token", 401, ``, "give the server's token"},
		{"server error", 503, ``, "503"},
		{"another program", 200, `<html>hello</html>`, "not toolsearch's readiness report"},
		{"JSON without ready", 200, `{"status":"ok"}`, "not toolsearch's readiness report"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var gotAuth string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				gotAuth = r.Header.Get("Authorization")
				if r.URL.Path != "/readyz" {
					http.NotFound(w, r)
					return
				}
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			err := checkReady(t.Context(), srv.URL+"/readyz", "s3cret")
			if (err == nil) != (tt.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("checkReady: %v, want error with %q", err, tt.wantErr)
			}
			if gotAuth != "Bearer s3cret" {
				t.Errorf("Authorization %q, want the bearer token", gotAuth)
			}
		})
	}
	t.Run("nothing listening", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		url := srv.URL + "/readyz"
		srv.Close()
		if err := checkReady(t.Context(), url, ""); err == nil || !strings.Contains(err.Error(), "is toolsearch serve --http running") {
			t.Errorf("checkReady on a closed port: %v", err)
		}
	})
}

// TestHealthcheckAgainstServe runs the check as a container's HEALTHCHECK
// would, against a real serve --http that wants a token: /readyz answers a
// check without it too (a load balancer's has none), only whether it is
// ready.
func TestHealthcheckAgainstServe(t *testing.T) {
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("healthcheck-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	base := startHTTP(t, "--token-file", tokenFile)
	addr := strings.TrimPrefix(base, "http://")
	for _, tt := range []struct {
		name     string
		args     []string
		env      []string
		wantCode int
		wantOut  string
	}{
		{"token file", []string{"healthcheck", "--http", addr, "--token-file", tokenFile}, nil, 0, "ready\n"},
		{"TOOLSEARCH_TOKEN", []string{"healthcheck", "--http", addr}, []string{"TOOLSEARCH_TOKEN=healthcheck-token"}, 0, "ready\n"},
		{"no token", []string{"healthcheck", "--http", addr}, []string{"TOOLSEARCH_TOKEN="}, 0, "ready\n"},
		{"wrong port", []string{"healthcheck", "--http", "127.0.0.1:1"}, []string{"TOOLSEARCH_TOKEN=healthcheck-token"}, 1, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd := toolsearch(t.Context(), tt.args...)
			cmd.Env = append(cmd.Env, tt.env...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, _ := cmd.Output()
			if code := cmd.ProcessState.ExitCode(); code != tt.wantCode || string(out) != tt.wantOut {
				t.Errorf("exit %d, stdout %q, want %d, %q; stderr: %s", code, out, tt.wantCode, tt.wantOut, stderr.String())
			}
			if strings.Contains(stderr.String(), "healthcheck-token") {
				t.Errorf("stderr shows the token: %s", stderr.String())
			}
		})
	}
}
