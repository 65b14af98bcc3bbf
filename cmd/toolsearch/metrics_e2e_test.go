package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// scrapeMetrics fetches /metrics with token and returns the status and
// the body.
func (s *httpServe) scrapeMetrics(t *testing.T, token string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.base+"/metrics", nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// waitForMetric scrapes until /metrics has the line want.
func (s *httpServe) waitForMetric(t *testing.T, token, want string) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, body := s.scrapeMetrics(t, token)
		if strings.Contains("\n"+body, "\n"+want+"\n") {
			return body
		}
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %q in /metrics:\n%s", want, body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestMetricsEndToEnd serves /metrics from serve --http: refused without
// the operator's token, in the Prometheus text format with it (which
// Debian's promtool accepts, when installed; CI requires it with
// TOOLSEARCH_REQUIRE_PROMTOOL). A server's maxConcurrent
// from toolsearch.yaml holds a second call until the first ends, and
// /metrics counts the wait and both calls.
func TestMetricsEndToEnd(t *testing.T) {
	e := newTrustEnv(t)
	release := filepath.Join(e.dir, "release")
	defs, _ := json.Marshal([]map[string]any{{"name": "add", "description": "Add two numbers.", "inputSchema": map[string]any{"type": "object"},
		"_meta": map[string]any{"version": "v1", "holdUntil": release}}})
	e.setTools(string(defs))
	writeFile(t, e.dir, "toolsearch.yaml", "servers:\n  calc:\n    maxConcurrent: 1\n")
	s := e.serveHTTP("127.0.0.1", "TOOLSEARCH_TOKEN=operator-token")

	if code, body := s.scrapeMetrics(t, ""); code != http.StatusUnauthorized || strings.Contains(body, "toolsearch_") {
		t.Fatalf("/metrics without the token: %d %s", code, body)
	}
	body := s.waitForMetric(t, "operator-token", `toolsearch_upstream_state{server="calc",state="active"} 1`)
	for _, want := range []string{"# TYPE toolsearch_tokens_saved_total counter", `toolsearch_held_definitions{source="calc"} 0`} {
		if !strings.Contains(body, want) {
			t.Errorf("no %q in /metrics:\n%s", want, body)
		}
	}

	cs := s.client(t, "/mcp", "operator-token", "")
	call := func() <-chan string {
		done := make(chan string, 1)
		go func() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "call_tool", Arguments: map[string]any{"name": "calc__add", "arguments": map[string]any{}}})
			switch {
			case err != nil:
				done <- err.Error()
			case res.IsError:
				done <- "tool error: " + res.Content[0].(*mcp.TextContent).Text
			default:
				done <- res.Content[0].(*mcp.TextContent).Text
			}
		}()
		return done
	}
	first, second := call(), call()
	// One call holds calc's one slot until release exists; the other
	// waits for it, whichever came first.
	s.waitForMetric(t, "operator-token", `toolsearch_call_waits_total{server="calc"} 1`)
	writeFile(t, e.dir, "release", "")
	for _, done := range []<-chan string{first, second} {
		select {
		case got := <-done:
			if got != "ran add v1" {
				t.Errorf("a call under maxConcurrent: %s", got)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("a call under maxConcurrent never ended")
		}
	}
	body = s.waitForMetric(t, "operator-token", `toolsearch_calls_total{outcome="ok",server="calc",tool="calc__add"} 2`)
	if strings.Contains(body, "toolsearch_call_refusals_total{") {
		t.Errorf("a call was refused:\n%s", body)
	}
	promtool, err := exec.LookPath("promtool")
	switch {
	case err != nil && os.Getenv("TOOLSEARCH_REQUIRE_PROMTOOL") != "":
		t.Fatal("promtool is not on PATH and TOOLSEARCH_REQUIRE_PROMTOOL is set: apt-get install prometheus")
	case err != nil:
		t.Log("promtool is not on PATH (apt-get install prometheus): the format is not checked")
		return
	}
	check := exec.Command(promtool, "check", "metrics")
	check.Stdin = strings.NewReader(body)
	if out, err := check.CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("promtool check metrics: %v\n%s", err, out)
	}
}
