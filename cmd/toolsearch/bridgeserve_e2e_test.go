//go:build linux

package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/internal/procfs"
	"github.com/toolsearch/toolsearch/server"
)

// TestBridgeServesStdioServerEndToEnd runs the weather example behind
// `toolsearch bridge`, and a `toolsearch serve` whose .mcp.json reaches the
// bridge as an http entry: a search finds its tool and a call runs it
// through the bridge. The entry marked "bridge": true keeps a local
// program's trust default (its read-only tool runs through
// call_tool_read at once); the same URL without the mark is held as any
// remote server is. The bridge refuses a request without its token but
// answers /readyz; killed with SIGKILL, it leaves nothing behind.
func TestBridgeServesStdioServerEndToEnd(t *testing.T) {
	t.Parallel()
	bin := t.TempDir()
	weather := filepath.Join(bin, "weather")
	if out, err := exec.Command("go", "build", "-o", weather, "../../examples/servers/weather").CombinedOutput(); err != nil {
		t.Fatalf("go build weather: %v\n%s", err, out)
	}
	const token = "bridge-token-e2e"
	tokenFile := filepath.Join(bin, "token")
	writeFile(t, bin, "token", token+"\n")

	bridge := toolsearch(context.Background(), "bridge", "--http", "127.0.0.1:0", "--token-file", tokenFile, "--", weather)
	log := &urlLog{t: t, found: make(chan string, 1)}
	bridge.Stderr = log
	if err := bridge.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bridge.Process.Kill(); bridge.Wait() })
	var url string
	select {
	case url = <-log.found:
	case <-time.After(stopLimit):
		t.Fatal("the bridge never said where it serves")
	}

	// The guard: no token, no MCP; /readyz answers a probe without one.
	if code := post(t, url, ""); code != http.StatusUnauthorized {
		t.Errorf("POST /mcp without the token: %d, want 401", code)
	}
	if code := post(t, url, "Bearer wrong"); code != http.StatusUnauthorized {
		t.Errorf("POST /mcp with a wrong token: %d, want 401", code)
	}
	resp, err := http.Get(strings.TrimSuffix(url, "/mcp") + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"ready":true`) {
		t.Errorf("/readyz: %d %s", resp.StatusCode, body)
	}

	e := newTrustEnv(t)
	entry := func(bridged bool) map[string]any {
		m := map[string]any{"type": "http", "url": url, "headers": map[string]string{"Authorization": "Bearer " + token}}
		if bridged {
			m["bridge"] = true
		}
		return m
	}
	mcpJSON, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"weather": entry(true), "elsewhere": entry(false)}})
	writeFile(t, e.dir, "mcp.json", string(mcpJSON))
	s := e.serve()

	waitForCall(t, s, "the bridged tool in a search", "tool_search", map[string]any{"query": "current weather for a city"}, contains("weather__get_weather"))
	text, res := s.call(t, server.CallToolRead, map[string]any{"name": "weather__get_weather", "arguments": map[string]any{"city": "Paris"}})
	if res.IsError || !strings.Contains(text, "Paris") {
		t.Errorf("call_tool_read through the bridge: %s", text)
	}
	text, res = s.call(t, server.CallToolRead, map[string]any{"name": "elsewhere__get_weather", "arguments": map[string]any{"city": "Paris"}})
	if !res.IsError {
		t.Errorf("call_tool_read ran the tool of an http entry not marked as a bridge before anybody approved it: %s", text)
	}

	// Killed, the bridge leaves nothing running: the weather server and
	// its supervisor go with it.
	below := descendants(bridge.Process.Pid)
	if len(below) == 0 {
		t.Fatal("found no process below the bridge: where is the weather server?")
	}
	bridge.Process.Signal(syscall.SIGKILL)
	bridge.Wait()
	for deadline := time.Now().Add(stopLimit); time.Now().Before(deadline) && anyAlive(below); {
		time.Sleep(20 * time.Millisecond)
	}
	for _, pid := range below {
		assertGone(t, pid, "a process the bridge started")
	}
}

// urlLog passes the bridge's stderr to the test log and finds the URL it
// serves at.
type urlLog struct {
	t     *testing.T
	once  sync.Once
	found chan string
}

var servingRE = regexp.MustCompile(`url=(http://\S+/mcp)`)

func (l *urlLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	if m := servingRE.FindSubmatch(p); m != nil {
		l.once.Do(func() { l.found <- string(m[1]) })
	}
	return len(p), nil
}

// post sends an initialize request to url with the Authorization header
// auth (none when "") and returns the status.
func post(t *testing.T, url, auth string) int {
	t.Helper()
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// descendants lists the live processes below pid.
func descendants(pid int) []int {
	pids, _ := procfs.PIDs()
	parent := map[int]int{}
	for _, p := range pids {
		if st, err := procfs.ReadStat(p); err == nil && st.Live() {
			parent[p] = st.PPID
		}
	}
	var out []int
	for p := range parent {
		for q := parent[p]; q > 1; q = parent[q] {
			if q == pid {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

func anyAlive(pids []int) bool {
	for _, p := range pids {
		if alive(p) {
			return true
		}
	}
	return false
}
