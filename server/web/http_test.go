package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/server"
)

// bearer adds a token to every request.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// startHTTP serves s over real HTTP on a loopback port until the test ends.
func startHTTP(t *testing.T, s *server.Server, o Options) (url string, stop func()) {
	t.Helper()
	return serveHandlerGrace(t, NewHandler(s, o), 5*time.Second)
}

// serveHandler serves h on a loopback port until the test ends.
func serveHandler(t *testing.T, h *Handler) (url string) {
	t.Helper()
	url, _ = serveHandlerGrace(t, h, 5*time.Second)
	return url
}

// serveHandlerGrace serves h on a loopback port until stop or the end of
// the test, with the given shutdown grace.
func serveHandlerGrace(t *testing.T, h *Handler, grace time.Duration) (url string, stop func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, h, grace) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("serve: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return "http://" + ln.Addr().String(), stop
}

func httpClient(t *testing.T, url, token, version string) *mcp.ClientSession {
	t.Helper()
	hc := &http.Client{Transport: http.DefaultTransport}
	if token != "" {
		hc.Transport = bearer{token, http.DefaultTransport}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "http-test"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: hc}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect (%s): %v", version, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestHTTPBothEras(t *testing.T) {
	up := &fakeUpstreams{}
	s, _ := server.New(testCatalog(t), server.Options{ListingBudget: server.DefaultListingBudget, Upstreams: up})
	defer s.Close()
	url, _ := startHTTP(t, s, Options{Token: "secret"})
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			cs := httpClient(t, url, "secret", version)
			if got := cs.InitializeResult().ProtocolVersion; got != version {
				t.Errorf("negotiated %s, want %s", got, version)
			}
			if names := toolNames(t, cs); !strings.Contains(names, "tool_search") {
				t.Errorf("tools/list = %s", names)
			}
			text, res := callText(t, cs, server.CallTool, map[string]any{"name": "srv__echo", "arguments": map[string]any{"message": version}})
			if res.IsError || !strings.Contains(text, version) {
				t.Errorf("call: %v %q", res.IsError, text)
			}
		})
	}
}

func TestHTTPGuards(t *testing.T) {
	s, _ := server.New(testCatalog(t), server.Options{ListingBudget: server.DefaultListingBudget})
	defer s.Close()
	url, _ := startHTTP(t, s, Options{Token: "secret", MaxBodyBytes: 1 << 10, AllowedOrigins: []string{"https://app.example.com"}})
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	tests := []struct {
		name   string
		path   string
		body   string
		header map[string]string
		want   int
	}{
		{"no token", "/mcp", initialize, nil, http.StatusUnauthorized},
		{"wrong token", "/mcp", initialize, map[string]string{"Authorization": "Bearer nope"}, http.StatusUnauthorized},
		{"token", "/mcp", initialize, map[string]string{"Authorization": "Bearer secret"}, http.StatusOK},
		{"foreign origin", "/mcp", initialize, map[string]string{"Authorization": "Bearer secret", "Origin": "https://evil.example"}, http.StatusForbidden},
		{"allowed origin", "/mcp", initialize, map[string]string{"Authorization": "Bearer secret", "Origin": "https://app.example.com"}, http.StatusOK},
		{"loopback origin", "/mcp", initialize, map[string]string{"Authorization": "Bearer secret", "Origin": "http://localhost:3000"}, http.StatusOK},
		{"oversized body", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 4<<10) + `"}}`, map[string]string{"Authorization": "Bearer secret"}, http.StatusRequestEntityTooLarge},
		{"healthz is open", "/healthz", "", nil, http.StatusOK},
		{"readyz is open, without details", "/readyz", "", nil, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			method := http.MethodPost
			if tt.body == "" {
				method = http.MethodGet
			}
			req, _ := http.NewRequest(method, url+tt.path, bytes.NewReader([]byte(tt.body)))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Errorf("status = %d, want %d", resp.StatusCode, tt.want)
			}
		})
	}
}

func TestHTTPManyClients(t *testing.T) {
	up := &fakeUpstreams{}
	s, _ := server.New(testCatalog(t), server.Options{ListingBudget: server.DefaultListingBudget, Upstreams: up})
	defer s.Close()
	url, _ := startHTTP(t, s, Options{})
	const clients = 200
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			version := "2025-11-25"
			if i%2 == 0 {
				version = "2026-07-28"
			}
			client := mcp.NewClient(&mcp.Implementation{Name: "load"}, nil)
			cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url + "/mcp"}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				errs <- fmt.Errorf("client %d connect: %w", i, err)
				return
			}
			defer cs.Close()
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: server.ToolSearch, Arguments: map[string]any{"query": "echo message"}})
			if err != nil || res.IsError {
				errs <- fmt.Errorf("client %d search: %v %v", i, err, res)
				return
			}
			res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: server.CallTool, Arguments: map[string]any{"name": "srv__echo", "arguments": map[string]any{"message": fmt.Sprint(i)}}})
			if err != nil || res.IsError {
				errs <- fmt.Errorf("client %d call: %v %v", i, err, res)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if len(up.calls) != clients {
		t.Errorf("%d upstream calls, want %d", len(up.calls), clients)
	}
}

// callEchoInBackground calls srv__echo through call_tool without waiting:
// the channel gets the result's text, or "error: " and why the call failed.
func callEchoInBackground(cs *mcp.ClientSession) <-chan string {
	result := make(chan string, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: server.CallTool, Arguments: map[string]any{"name": "srv__echo", "arguments": map[string]any{"message": "x"}}})
		if err != nil {
			result <- "error: " + err.Error()
			return
		}
		result <- res.Content[0].(*mcp.TextContent).Text
	}()
	return result
}

// blockingUpstreams holds every call until released or cancelled.
type blockingUpstreams struct {
	started chan struct{}
	release chan struct{}
}

func (b *blockingUpstreams) Call(ctx context.Context, server, tool string, args json.RawMessage) (*mcp.CallToolResult, error) {
	b.started <- struct{}{}
	select {
	case <-b.release:
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "finished"}}}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func TestHTTPShutdownWithCallInFlight(t *testing.T) {
	up := &blockingUpstreams{started: make(chan struct{}, 1), release: make(chan struct{})}
	s, _ := server.New(testCatalog(t), server.Options{ListingBudget: server.DefaultListingBudget, Upstreams: up})
	defer s.Close()
	url, stop := startHTTP(t, s, Options{})
	cs := httpClient(t, url, "", "2025-11-25")
	result := callEchoInBackground(cs)
	<-up.started
	stopped := make(chan struct{})
	go func() { stop(); close(stopped) }()
	// The call in flight gets to finish during the grace period.
	time.Sleep(100 * time.Millisecond)
	close(up.release)
	if got := <-result; got != "finished" {
		t.Errorf("in-flight call = %q, want it to finish", got)
	}
	select {
	case <-stopped:
	case <-time.After(30 * time.Second):
		t.Fatal("shutdown did not finish")
	}
}

func TestHTTPPromoteStaysInItsSession(t *testing.T) {
	s, _ := server.New(testCatalog(t), server.Options{ListingBudget: server.DefaultListingBudget, Upstreams: &fakeUpstreams{}, Promote: true})
	defer s.Close()
	url, _ := startHTTP(t, s, Options{})
	a := httpClient(t, url, "", "2025-11-25")
	b := httpClient(t, url, "", "2025-11-25")
	callText(t, a, server.ToolSearch, map[string]any{"query": "select:srv__ping"})
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(toolNames(t, a), "srv__ping") {
		if time.Now().After(deadline) {
			t.Fatalf("not promoted in the searching session: %s", toolNames(t, a))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if names := toolNames(t, b); strings.Contains(names, "srv__ping") {
		t.Errorf("promoted into another session: %s", names)
	}
	// A modern request never sees promoted tools either.
	if names := toolNames(t, httpClient(t, url, "", "2026-07-28")); strings.Contains(names, "srv__ping") {
		t.Errorf("promoted into a 2026-07-28 list: %s", names)
	}
}
