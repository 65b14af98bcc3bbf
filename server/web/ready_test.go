package web

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/server"
)

func TestReadyzAnswersALoadBalancerWithoutDetails(t *testing.T) {
	s, _ := server.New(testCatalog(t), server.Options{})
	defer s.Close()
	h := NewHandler(s, Options{Token: "secret", Ready: func() map[string]string { return map[string]string{"srv": "active"} }})
	defer h.Close()
	get := func(token, host string) (int, map[string]any) {
		t.Helper()
		return getReadyz(t, h, token, host)
	}
	for _, tc := range []struct{ name, token, host string }{
		{"no token", "", "127.0.0.1:7777"},
		{"a wrong token", "nope", "127.0.0.1:7777"},
		{"no Host, as HAProxy's check over HTTP/1.0 sends", "", ""},
		{"the operator's token from a rebinding page", "secret", "evil.example:7777"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := get(tc.token, tc.host)
			if code != http.StatusOK || len(body) != 1 || body["ready"] != true {
				t.Errorf("got %d %v, want 200 {ready: true} alone", code, body)
			}
		})
	}
	code, body := get("secret", "127.0.0.1:7777")
	if code != http.StatusOK || body["ready"] != true || body["upstreams"] == nil || body["entries"] == nil {
		t.Errorf("the operator got %d %v, want the details", code, body)
	}
	h.Drain()
	if code, body := get("", "127.0.0.1:7777"); code != http.StatusServiceUnavailable || len(body) != 1 || body["ready"] != false {
		t.Errorf("draining, a check got %d %v, want 503 {ready: false}", code, body)
	}
	if code, body := get("secret", "127.0.0.1:7777"); code != http.StatusServiceUnavailable || body["draining"] != true {
		t.Errorf("draining, the operator got %d %v", code, body)
	}
}

// TestReadyzWaitsForTheSharedState: a replica is not ready until it has
// read what it serves from the shared state (Options.Loaded: the approvals
// and the OAuth logins), so that one whose database went down as it
// started takes no calls it would refuse; it turns ready by itself once
// they are read, and stays ready after.
func TestReadyzWaitsForTheSharedState(t *testing.T) {
	s, _ := server.New(testCatalog(t), server.Options{})
	defer s.Close()
	loaded := make(chan struct{})
	h := NewHandler(s, Options{Token: "secret", Loaded: loaded})
	defer h.Close()
	get := func(token string) (int, map[string]any) {
		t.Helper()
		return getReadyz(t, h, token, "127.0.0.1:7777")
	}
	if code, body := get(""); code != http.StatusServiceUnavailable || len(body) != 1 || body["ready"] != false {
		t.Errorf("the shared state not read, a check got %d %v, want 503 {ready: false}", code, body)
	}
	if code, body := get("secret"); code != http.StatusServiceUnavailable || body["loading"] == nil || body["draining"] != nil {
		t.Errorf("the shared state not read, the operator got %d %v, want 503 saying it is loading", code, body)
	}
	close(loaded)
	for range 2 {
		if code, body := get(""); code != http.StatusOK || body["ready"] != true {
			t.Errorf("the shared state read, a check got %d %v, want 200", code, body)
		}
	}
}

// TestServeDrainsBeforeItStops: once asked to stop, a server answers
// /readyz not ready and goes on serving for its DrainDelay before it
// closes its listener.
func TestServeDrainsBeforeItStops(t *testing.T) {
	s, _ := server.New(testCatalog(t), server.Options{})
	defer s.Close()
	h := NewHandler(s, Options{DrainDelay: time.Hour})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, h, time.Second) }()
	url := "http://" + ln.Addr().String()
	status := func(path string) int {
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := status("/readyz"); got != http.StatusOK {
		t.Fatalf("/readyz before the stop: %d", got)
	}
	stop()
	waitFor(t, "/readyz to turn not ready", func() bool { return status("/readyz") == http.StatusServiceUnavailable })
	if got := status("/healthz"); got != http.StatusOK {
		t.Errorf("draining, /healthz: %d; the server must go on serving", got)
	}
	select {
	case err := <-done:
		t.Fatalf("Serve returned during the drain delay: %v", err)
	default:
	}
	ln.Close() // ends the test's hour of draining
	<-done
}

// getReadyz asks h's /readyz as a client at host would, with token if
// given, and returns the status and the JSON body.
func getReadyz(t *testing.T, h http.Handler, token, host string) (int, map[string]any) {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, "/readyz", nil)
	r.Host = host
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	var body map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatalf("/readyz answered %d %q", w.Code, w.Body)
	}
	return w.Code, body
}
