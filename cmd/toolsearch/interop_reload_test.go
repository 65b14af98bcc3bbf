//go:build interop

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// catalogDeadline is how long after an edit of the configuration the test
// waits for the catalog a client sees to show it. It is a bound on "never",
// not a speed target: a reload takes well under a second on an idle
// machine (the test logs how long each took), but an added server has to
// start and list its tools, and on a loaded two-core machine that once
// took 2.2 s.
const catalogDeadline = 30 * time.Second

// TestInteropLiveReload edits .mcp.json and toolsearch.yaml under a running
// toolsearch while a client searches and calls an untouched server in a
// loop: no call of the loop may fail, and each edit must show in what the
// client sees, without a restart.
func TestInteropLiveReload(t *testing.T) {
	bin := t.TempDir()
	for _, name := range []string{"weather", "projectdocs"} {
		if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, name), "../../examples/servers/"+name).CombinedOutput(); err != nil {
			t.Fatalf("building %s: %v\n%s", name, err, out)
		}
	}
	projects, _ := filepath.Abs("../../examples/servers/projectdocs/testdata/projects")
	dir := t.TempDir()
	mcpPath := filepath.Join(dir, ".mcp.json")
	yamlPath := filepath.Join(dir, "toolsearch.yaml")
	weather := map[string]any{"command": filepath.Join(bin, "weather")}
	docs := func(extra ...string) map[string]any {
		return map[string]any{"command": filepath.Join(bin, "projectdocs"), "args": append([]string{"--root", projects}, extra...)}
	}
	writeJSON := func(servers map[string]any) {
		t.Helper()
		data, _ := json.MarshalIndent(map[string]any{"mcpServers": servers}, "", "  ")
		save(t, mcpPath, data)
	}
	writeJSON(map[string]any{"weather": weather})
	save(t, yamlPath, []byte("servers: {}\n"))

	logs := &logLines{t: t}
	s := connectWithLog(t, logs, "--config", yamlPath, "--mcp-config", mcpPath, "--skills", t.TempDir())
	ctx := context.Background()
	eventually(t, "the weather server", 30*time.Second, func() error {
		_, res, err := callTool(ctx, s.ClientSession, "weather__get_weather", map[string]any{"city": "Lisbon"}, nil)
		if err == nil && res.IsError {
			err = fmt.Errorf("%v", res.Content[0].(*mcp.TextContent).Text)
		}
		return err
	})

	// The loop: search, then call the server no edit touches.
	var (
		calls, failures atomic.Int64
		mu              sync.Mutex
		failed          []string
	)
	stop := make(chan struct{})
	loopDone := make(chan struct{})
	go func() {
		defer close(loopDone)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "tool_search", Arguments: map[string]any{"query": "weather forecast city"}}); err != nil {
				failures.Add(1)
				mu.Lock()
				failed = append(failed, "tool_search: "+err.Error())
				mu.Unlock()
			}
			text, res, err := callTool(ctx, s.ClientSession, "weather__get_weather", map[string]any{"city": "Porto"}, nil)
			calls.Add(1)
			if err != nil || res.IsError {
				failures.Add(1)
				mu.Lock()
				failed = append(failed, fmt.Sprintf("get_weather: %q %v", text, err))
				mu.Unlock()
			}
		}
	}()

	// sees reports whether a search for the name finds it.
	sees := func(name string) bool {
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "tool_search", Arguments: map[string]any{"query": "select:" + name}})
		return err == nil && !res.IsError && strings.Contains(res.Content[0].(*mcp.TextContent).Text, "## 1. "+name)
	}
	within := func(what string, cond func() bool) {
		t.Helper()
		start := time.Now()
		for !cond() {
			if time.Since(start) > catalogDeadline {
				t.Errorf("%s: not seen within %v of the edit", what, catalogDeadline)
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Logf("%s: seen %v after the edit", what, time.Since(start).Round(time.Millisecond))
	}

	// Add a server.
	writeJSON(map[string]any{"weather": weather, "projectdocs": docs()})
	within("projectdocs added", func() bool { return sees("projectdocs__project_list") })
	// Change it: it restarts, and its tools stay.
	writeJSON(map[string]any{"weather": weather, "projectdocs": docs("--http", "")})
	within("projectdocs restarted", func() bool {
		if !logs.has("restarted=[projectdocs]") {
			return false
		}
		_, res, err := callTool(ctx, s.ClientSession, "projectdocs__project_list", map[string]any{}, nil)
		return err == nil && !res.IsError
	})
	// A policy in toolsearch.yaml hides one of its tools, without a restart.
	save(t, yamlPath, []byte("servers:\n  projectdocs:\n    policy:\n      project_list: hidden\n"))
	within("the policy applied", func() bool { return !sees("projectdocs__project_list") })
	// A broken edit is reported and changes nothing.
	save(t, mcpPath, []byte(`{"mcpServers": {"weather": `))
	within("the broken edit reported", func() bool { return logs.has("configuration not reloaded") })
	if !sees("projectdocs__project_doc_read") {
		t.Error("a broken .mcp.json took a server away")
	}
	// Remove the server.
	writeJSON(map[string]any{"weather": weather})
	within("projectdocs removed", func() bool { return !sees("projectdocs__project_doc_read") })

	close(stop)
	<-loopDone
	if calls.Load() == 0 {
		t.Fatal("the loop made no call")
	}
	if n := failures.Load(); n > 0 {
		t.Errorf("%d of %d calls to the untouched server failed: %v", n, calls.Load(), failed)
	}
	if logs.has("restarted=[weather") || logs.has("removed=[weather") {
		t.Error("the untouched server was restarted or removed")
	}
	t.Logf("%d searches and calls to the untouched server during the edits, none failed", calls.Load())
}

// save writes a file the way editors do: a temporary file renamed over it.
func save(t *testing.T, path string, data []byte) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// logLines keeps toolsearch's stderr, and passes it to the test log.
type logLines struct {
	t     *testing.T
	mu    sync.Mutex
	lines strings.Builder
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	l.lines.Write(p)
	l.mu.Unlock()
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func (l *logLines) has(s string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Contains(l.lines.String(), s)
}

// connectWithLog is connect with toolsearch's stderr kept in logs.
func connectWithLog(t *testing.T, logs *logLines, args ...string) *session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	client := mcp.NewClient(&mcp.Implementation{Name: "interop-reload", Version: "1"}, nil)
	cmd := toolsearch(context.Background(), append([]string{"serve"}, args...)...)
	cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+t.TempDir())
	cmd.Stderr = logs
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return &session{cs, make(chan struct{}, 1)}
}
