package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/supervise"
	"github.com/toolsearch/toolsearch/loader/catalog"
)

// realEnv runs servers over the real transports.
func realEnv(t *testing.T, opts Options, servers ...ServerConfig) (*Manager, *catalog.Catalog) {
	c := catalog.New()
	opts.Catalog, opts.CacheDir, opts.Logger = c, t.TempDir(), testLogger(t)
	m := New(servers, opts)
	m.firstBackoff = time.Hour // each test looks at one attempt
	m.Start(context.Background())
	t.Cleanup(func() { m.Close() })
	return m, c
}

func TestStdioFailures(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	tests := []struct {
		name, script string
		want         []string // in LastError
	}{
		{"exits at start", `echo starting >&2; echo boom >&2; exit 3`, []string{"stderr:\nstarting\nboom"}},
		{"writes garbage", `echo 'this is not JSON-RPC'; echo garbled >&2; cat >/dev/null`, []string{"invalid", "stderr:\ngarbled"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, c := realEnv(t, Options{}, ServerConfig{Name: "bad", Type: TypeStdio, Command: "sh", Args: []string{"-c", tt.script}})
			src := waitSource(t, c, "bad", "failed", inState(catalog.StateFailed))
			for _, w := range tt.want {
				if !strings.Contains(src.LastError, w) {
					t.Errorf("last error %q lacks %q", src.LastError, w)
				}
			}
		})
	}
}

func TestStdioCommandNotFound(t *testing.T) {
	_, c := realEnv(t, Options{}, ServerConfig{Name: "missing", Type: TypeStdio, Command: "toolsearch-no-such-command"})
	src := waitSource(t, c, "missing", "failed", inState(catalog.StateFailed))
	if !strings.Contains(src.LastError, "toolsearch-no-such-command") {
		t.Errorf("last error = %q", src.LastError)
	}
}

// TestWeatherOverStdio proxies a call to the example weather server, built
// from source and run as a subprocess.
func TestWeatherOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a server")
	}
	bin := filepath.Join(t.TempDir(), "weather")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	build := exec.Command("go", "build", "-o", bin, "../../examples/servers/weather")
	if out, err := build.CombinedOutput(); err != nil {
		t.Skipf("cannot build the weather server: %v\n%s", err, out)
	}
	m, c := realEnv(t, Options{}, ServerConfig{Name: "weather", Type: TypeStdio, Command: bin, Env: map[string]string{"TS_TEST": "1"}, Cwd: t.TempDir()})
	src := waitSource(t, c, "weather", "active", inState(catalog.StateActive))
	if e, ok := c.Snapshot().Lookup("weather__get_weather"); !ok || e.Tool.InputSchema == nil {
		t.Fatalf("weather__get_weather not in the catalog: %+v", src)
	}
	res, err := m.Call(context.Background(), "weather", "get_weather", json.RawMessage(`{"city":"Paris"}`))
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || !strings.Contains(textOf(res), "Paris") {
		t.Errorf("result: %+v", res)
	}

	pid := m.Status()[0].PID
	if pid == 0 {
		t.Fatal("no pid for a stdio server")
	}
	m.Close()
	if processExists(pid) {
		t.Errorf("weather process %d still exists after Close", pid)
	}
}

// TestStdioHangsAtStart checks that a server that never answers fails,
// and that what it started is stopped too.
func TestStdioHangsAtStart(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	_, c := realEnv(t, Options{ConnectTimeout: 100 * time.Millisecond}, ServerConfig{
		Name: "hang", Type: TypeStdio, Command: "sh",
		Args: []string{"-c", `sleep 300 & echo $! >"$PIDFILE"; wait`},
		Env:  map[string]string{"PIDFILE": pidFile},
	})
	src := waitSource(t, c, "hang", "failed", inState(catalog.StateFailed))
	if !strings.Contains(src.LastError, "no answer to initialization within 100ms") {
		t.Errorf("last error = %q", src.LastError)
	}
	pid := readPID(t, pidFile)
	// Killing is asynchronous: poll for the end of the grandchild.
	for deadline := time.Now().Add(waitLimit); processExists(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the server's child %d survived", pid)
		}
	}
}

// TestStdioDaemonStopped checks that a process a server started with
// setsid, which leaves its process group and session, is stopped with it.
func TestStdioDaemonStopped(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	if !supervise.Enabled() {
		t.Skip("servers are not supervised on this system")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	_, c := realEnv(t, Options{ConnectTimeout: 100 * time.Millisecond}, ServerConfig{
		Name: "daemon", Type: TypeStdio, Command: "sh",
		Args: []string{"-c", `setsid sleep 300 & echo $! >"$PIDFILE"; wait`},
		Env:  map[string]string{"PIDFILE": pidFile},
	})
	waitSource(t, c, "daemon", "failed", inState(catalog.StateFailed))
	pid := readPID(t, pidFile)
	for deadline := time.Now().Add(waitLimit); processExists(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			if p, err := os.FindProcess(pid); err == nil {
				p.Kill()
			}
			t.Fatalf("the daemon %d the server started outlived it", pid)
		}
	}
}

func TestHTTPTransports(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "remote", Version: "v1"}, nil)
	server.AddTool(&mcp.Tool{Name: "ping", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "pong"}}}, nil
		})
	getServer := func(*http.Request) *mcp.Server { return server }
	var mu sync.Mutex
	var unauthorized int
	auth := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "Bearer s3cret" {
				mu.Lock()
				unauthorized++
				mu.Unlock()
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
			h.ServeHTTP(w, r)
		})
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", auth(mcp.NewStreamableHTTPHandler(getServer, nil)))
	mux.Handle("/sse", auth(mcp.NewSSEHandler(getServer, nil)))
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close) // after the Manager's cleanup, which ends its streams

	headers := map[string]string{"Authorization": "Bearer s3cret"}
	m, c := realEnv(t, Options{},
		ServerConfig{Name: "http", Type: TypeHTTP, URL: ts.URL + "/mcp", Headers: headers},
		ServerConfig{Name: "sse", Type: TypeSSE, URL: ts.URL + "/sse", Headers: headers},
	)
	for _, name := range []string{"http", "sse"} {
		waitSource(t, c, name, "active", inState(catalog.StateActive))
		res, err := m.Call(context.Background(), name, "ping", nil)
		if err != nil || textOf(res) != "pong" {
			t.Errorf("%s: got %v, %v", name, res, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if unauthorized > 0 {
		t.Errorf("%d requests lacked the configured header", unauthorized)
	}
}

func TestStderrTail(t *testing.T) {
	w := newStderrTail(testLogger(t))
	w.Write([]byte("first line\nsecond "))
	w.Write([]byte("line\r\n"))
	if got := w.String(); got != "first line\nsecond line" {
		t.Errorf("tail = %q", got)
	}
	for range 1000 {
		w.Write([]byte("0123456789\n"))
	}
	w.Write([]byte("last"))
	got := w.String()
	if len(got) > tailSize || !strings.HasPrefix(got, "0123456789\n") || !strings.HasSuffix(got, "\nlast") {
		t.Errorf("tail of %d bytes: %q...%q", len(got), got[:20], got[len(got)-20:])
	}
	if (*stderrTail)(nil).String() != "" {
		t.Error("nil tail is not empty")
	}
}

// Configured headers are credentials for the configured origin: a redirect
// elsewhere got them again from the transport (Authorization and X-Api-Key
// reached another origin); now it is not followed at all. A redirect
// within the origin keeps them.
func TestHeadersStayWithTheirOrigin(t *testing.T) {
	var mu sync.Mutex
	got := map[string]http.Header{}
	record := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			got[name+r.URL.Path] = r.Header.Clone()
			mu.Unlock()
		}
	}
	other := httptest.NewServer(record("other"))
	defer other.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/landed", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/home", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/landed", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/landed", record("configured"))
	configured := httptest.NewServer(mux)
	defer configured.Close()

	headers := map[string]string{"Authorization": "Bearer s3cret", "X-Api-Key": "k3y"}
	client := httpClient(configured.URL+"/mcp", headers)
	resp, err := client.Post(configured.URL+"/home", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var re *RedirectError
	if _, err := client.Post(configured.URL+"/away", "application/json", strings.NewReader("{}")); !errors.As(err, &re) {
		t.Errorf("a redirect to another origin gave %v, want a *RedirectError", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if h, ok := got["other/landed"]; ok {
		t.Errorf("the other origin received a request, with headers %v", h)
	}
	for k := range headers {
		if v := got["configured/landed"].Get(k); v != headers[k] {
			t.Errorf("a redirect within the origin lost %s: %q", k, v)
		}
	}
}

// An HTTP server's answer is read up to maxMessageBytes, the bound a stdio
// line and a server-sent event have: a larger JSON body (or error body)
// ends with an error rather than in memory; an event stream is bounded by
// the SDK event by event, not as a whole.
func TestHTTPAnswersAreBounded(t *testing.T) {
	tests := []struct {
		contentType string
		size        int
		wantErr     bool
	}{
		{"application/json", maxMessageBytes, false},
		{"application/json", maxMessageBytes + 1, true},
		{"text/plain; charset=utf-8", 4 * maxMessageBytes, true},
		{"text/event-stream", maxMessageBytes + 1, false},
	}
	for _, tt := range tests {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", tt.contentType)
			chunk := bytes.Repeat([]byte("x"), 1<<20)
			for left := tt.size; left > 0; left -= len(chunk) {
				w.Write(chunk[:min(left, len(chunk))])
			}
		}))
		resp, err := httpClient(srv.URL, nil).Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		srv.Close()
		if tt.wantErr {
			if !errors.Is(err, errMessageTooLarge) || n != maxMessageBytes {
				t.Errorf("%s of %d bytes: read %d, %v; want %d and errMessageTooLarge", tt.contentType, tt.size, n, err, maxMessageBytes)
			}
		} else if err != nil || n != int64(tt.size) {
			t.Errorf("%s of %d bytes: read %d, %v; want all of it", tt.contentType, tt.size, n, err)
		}
	}
}

// A server whose answer to tools/list exceeds the bound fails, saying so.
func TestHTTPServerWithATooLargeAnswerFails(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		if req.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if req.Method == "initialize" {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"big","version":"1"}}}`, req.ID)
			return
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"big","description":"`, req.ID)
		chunk := bytes.Repeat([]byte("x"), 1<<20)
		for range 20 {
			w.Write(chunk)
		}
		w.Write([]byte(`","inputSchema":{"type":"object"}}]}}`))
	}))
	defer srv.Close()
	cat := catalog.New()
	m := New([]ServerConfig{{Name: "big", Type: TypeHTTP, URL: srv.URL}}, Options{Catalog: cat, CacheDir: t.TempDir(), Logger: testLogger(t)})
	m.Start(context.Background())
	defer m.Close()
	src := waitSource(t, cat, "big", "failed", inState(catalog.StateFailed))
	if !strings.Contains(src.LastError, "larger than 16 MiB") {
		t.Errorf("LastError = %q, want it to say the answer was too large", src.LastError)
	}
}

// readPID reads the process id a test's server wrote to file.
func readPID(t *testing.T, file string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}
