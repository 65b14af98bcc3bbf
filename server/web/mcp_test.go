package web

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/server"
)

// post sends one JSON-RPC message to /mcp without a session.
func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`

// waitFor polls cond until it holds, failing the test after a while.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s", what)
		}
	}
}

// TestPromoteBuildsAServerPerSessionOnly: with --promote, requests without
// a session that open none (here pings) build no MCP server; each session
// gets one, released when the session ends.
func TestPromoteBuildsAServerPerSessionOnly(t *testing.T) {
	s, _ := server.New(testCatalog(t), server.Options{Promote: true})
	defer s.Close()
	h := NewHandler(s, Options{})
	var built atomic.Int64
	h.mcp.newServer = func() *mcp.Server { built.Add(1); return s.NewMCPServer() }
	url := serveHandler(t, h)
	for range 50 {
		post(t, url, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	}
	if n := built.Load(); n != 0 {
		t.Errorf("50 pings without a session built %d MCP servers, want none", n)
	}
	a := httpClient(t, url, "", "2025-11-25")
	b := httpClient(t, url, "", "2025-11-25")
	if n := built.Load(); n != 2 {
		t.Errorf("two sessions built %d MCP servers, want 2", n)
	}
	a.Close()
	b.Close()
	waitFor(t, "the sessions to end", func() bool { return h.mcp.openSessions() == 0 })
}

// TestSessionCap: past http.maxSessions a new session is refused with 503
// and Retry-After; once a session ends, its slot is free again.
func TestSessionCap(t *testing.T) {
	for _, promote := range []bool{false, true} {
		s, _ := server.New(testCatalog(t), server.Options{Promote: promote})
		defer s.Close()
		h := NewHandler(s, Options{MaxSessions: 2})
		url := serveHandler(t, h)
		a := httpClient(t, url, "", "2025-11-25")
		httpClient(t, url, "", "2025-11-25")
		resp := post(t, url, initializeBody)
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
			t.Errorf("promote %v: a third session: status %d, Retry-After %q; want 503 with Retry-After", promote, resp.StatusCode, resp.Header.Get("Retry-After"))
		}
		// Requests of the stateless era open no session: they still pass.
		if names := toolNames(t, httpClient(t, url, "", "2026-07-28")); !strings.Contains(names, server.ToolSearch) {
			t.Errorf("promote %v: a 2026-07-28 client at the cap: tools %s", promote, names)
		}
		a.Close()
		waitFor(t, "a slot to free up", func() bool { return h.mcp.openSessions() < 2 })
		httpClient(t, url, "", "2025-11-25")
	}
}

// ignoringUpstreams holds every call until the test ends, whatever the
// call's context says: a handler that ignores cancellation.
type ignoringUpstreams struct {
	started chan struct{}
	release chan struct{}
}

func (u *ignoringUpstreams) Call(context.Context, string, string, json.RawMessage) (*mcp.CallToolResult, error) {
	u.started <- struct{}{}
	<-u.release
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "too late"}}}, nil
}

// TestShutdownEndsWithinGrace: a call that ignores cancellation, an idle
// session's notification stream and the status page's event stream do not
// hold shutdown past its grace.
func TestShutdownEndsWithinGrace(t *testing.T) {
	up := &ignoringUpstreams{started: make(chan struct{}, 1), release: make(chan struct{})}
	defer close(up.release)
	s, _ := server.New(testCatalog(t), server.Options{Upstreams: up, Activity: server.NewActivity(10, nil, false)})
	defer s.Close()
	h := NewHandler(s, Options{})
	const grace = 300 * time.Millisecond
	url, stop := serveHandlerGrace(t, h, grace)
	events, err := http.Get(url + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer events.Body.Close()
	httpClient(t, url, "", "2025-11-25") // idle, with its stream open
	cs := httpClient(t, url, "", "2025-11-25")
	go cs.CallTool(context.Background(), &mcp.CallToolParams{Name: server.CallTool, Arguments: map[string]any{"name": "srv__echo", "arguments": map[string]any{"message": "x"}}})
	<-up.started
	stopped := make(chan struct{})
	go func() { stop(); close(stopped) }()
	// Far beyond the grace: only a shutdown that waits on the stuck call
	// reaches it.
	select {
	case <-stopped:
	case <-time.After(20 * time.Second):
		t.Fatal("shutdown still waits on a call that ignores cancellation")
	}
}

func TestIsInitialize(t *testing.T) {
	tests := []struct {
		body string
		want bool
	}{
		{initializeBody, true},
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, false},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"},` + initializeBody + `]`, true},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, false},
		{`not json`, false},
	}
	for _, tt := range tests {
		if got := isInitialize([]byte(tt.body)); got != tt.want {
			t.Errorf("isInitialize(%s) = %v, want %v", tt.body, got, tt.want)
		}
	}
}
