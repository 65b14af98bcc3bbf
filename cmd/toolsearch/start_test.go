package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeEmptyCatalogWarns starts serve where there is nothing to serve:
// one warning says what was looked for.
func TestServeEmptyCatalogWarns(t *testing.T) {
	cmd := toolsearch(t.Context(), "serve")
	cmd.Dir = t.TempDir()
	cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+t.TempDir())
	var stderr strings.Builder
	cmd.Stderr = &stderr // stdin is empty: the server ends at once
	if err := cmd.Run(); err != nil {
		t.Fatalf("serve: %v\n%s", err, stderr.String())
	}
	log := stderr.String()
	if n := strings.Count(log, "the catalog is empty"); n != 1 {
		t.Errorf("%d warnings about the empty catalog, want 1:\n%s", n, log)
	}
	// It names the user's configuration folder, which serve reads, not the
	// folder it was started in.
	userDir, _ := userConfigDir()
	for _, want := range []string{"level=WARN", "no skills/ in " + userDir, "no .mcp.json in " + userDir, "no " + filepath.Join(userDir, DefaultConfigFile), "workdir=" + cmd.Dir} {
		if !strings.Contains(log, want) {
			t.Errorf("the warning lacks %q:\n%s", want, log)
		}
	}
}

// TestCallStartsOnlyItsServer calls a tool of one upstream with another
// configured beside it: the other is never started, so a slow server (npx
// fetching a package) does not hold up a call to a quick one.
func TestCallStartsOnlyItsServer(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "other-started")
	cfg := mcpConfigFile(t, map[string]any{
		// toolsearch itself is the upstream: an MCP server at hand.
		"up":    map[string]any{"command": testBinary(t), "args": []string{"serve", "--skills", testSkills(t)}, "env": map[string]string{runAsToolsearch: "1"}},
		"other": map[string]any{"command": "sh", "args": []string{"-c", `touch "$0"; sleep 60`, marker}},
	})
	for _, name := range []string{"up__tool_search", "tool_search"} {
		cmd := toolsearch(t.Context(), "call", name, "--args", `{"query": "pdf form"}`, "--mcp-config", cfg)
		cmd.Dir = dir
		cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "pdf-forms") {
			t.Fatalf("call %s: %v\n%s", name, err, out)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("call %s started the other server too", name)
		}
	}
}

// mcpConfigFile writes a .mcp.json for the given servers.
func mcpConfigFile(t *testing.T, servers map[string]any) string {
	t.Helper()
	data, _ := json.Marshal(map[string]any{"mcpServers": servers})
	path := filepath.Join(t.TempDir(), ".mcp.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// brokenServer is an upstream that says why it cannot start and exits.
var brokenServer = map[string]any{"command": "sh", "args": []string{"-c", "echo starting >&2; echo 'fatal: missing API key' >&2; exit 1"}}

// TestCatalogShowsStderr: the catalog table carries the last line of a
// server's stderr (the real cause), on every run.
func TestCatalogShowsStderr(t *testing.T) {
	dir := t.TempDir()
	cfg := mcpConfigFile(t, map[string]any{"broken": brokenServer})
	for run := range 3 {
		cmd := toolsearch(t.Context(), "catalog", "--mcp-config", cfg, "--wait", "20s")
		cmd.Dir = dir
		cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("catalog: %v", err)
		}
		var row string
		for _, line := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(line, "broken ") {
				row = line
			}
		}
		if !strings.Contains(row, "failed") || !strings.Contains(row, "stderr: fatal: missing API key") || !strings.Contains(string(out), "broken's stderr, last lines:\n  starting\n  fatal: missing API key\n") {
			t.Errorf("run %d: the table lacks the stderr line:\n%s", run+1, out)
		}
	}
}

// TestStatusShowsStderr: the status page's data and /readyz carry it too.
func TestStatusShowsStderr(t *testing.T) {
	cfg := mcpConfigFile(t, map[string]any{"broken": brokenServer})
	base := startHTTP(t, "--mcp-config", cfg, "--skills", testSkills(t))
	var status struct {
		Catalog struct {
			Sources []struct {
				Name, State, Stderr string
			}
		}
	}
	var ready struct {
		Errors map[string]struct {
			State  string
			Stderr []string
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		getJSON(t, base+"/status.json", &status)
		getJSON(t, base+"/readyz", &ready)
		var stderr string
		for _, s := range status.Catalog.Sources {
			if s.Name == "broken" {
				stderr = s.Stderr
			}
		}
		r := ready.Errors["broken"]
		if strings.Contains(stderr, "fatal: missing API key") && len(r.Stderr) > 0 && r.Stderr[len(r.Stderr)-1] == "fatal: missing API key" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("status.json sources %+v, readyz %+v", status.Catalog.Sources, ready)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// startHTTP starts serve --http on a free port and returns its base URL.
func startHTTP(t *testing.T, args ...string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := toolsearch(context.Background(), append([]string{"serve", "--http", addr}, args...)...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+t.TempDir(), "TOOLSEARCH_TOKEN=")
	cmd.Stderr = &testLog{t: t}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })
	base := "http://" + addr
	deadline := time.Now().Add(20 * time.Second)
	for {
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			return base
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never answered", base)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
}

// TestCallAtOnceOnTheExampleConfig starts serve on the example
// configuration, as the README does, and calls an upstream tool in the same
// instant as initialize: before the server is up, with no last known
// catalog. The call waits for the server and succeeds. The configuration's
// server-everything starts with npx, which here fails at once, as on a
// machine without Node: the real one would download it into the user's npm
// cache, and the test's end would stop that install half done, leaving a
// folder in npx's cache that every later npx of the package fails to read.
func TestCallAtOnceOnTheExampleConfig(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// The example servers start with go run: compile them first, so that
	// the test measures toolsearch's waiting and not a cold build cache,
	// and keep Go's build cache where it is when the test moves the user
	// cache directory (Go's default GOCACHE is under it).
	warm := exec.Command("go", "build", "-o", os.DevNull, "./examples/servers/weather")
	warm.Dir = filepath.Join("..", "..")
	if out, err := warm.CombinedOutput(); err != nil {
		t.Fatalf("building the weather example: %v\n%s", err, out)
	}
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	writeFile(t, bin, "npx", "#!/bin/sh\necho 'npx: not on this machine (the test)' >&2\nexit 127\n")
	if err := os.Chmod(filepath.Join(bin, "npx"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := toolsearch(ctx, "serve", "--config", "examples/toolsearch.yaml")
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+t.TempDir(), "GOCACHE="+strings.TrimSpace(string(gocache)),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmd.Stderr = &testLog{t: t}
	client := mcp.NewClient(&mcp.Implementation{Name: "first-turn", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "call_tool", Arguments: map[string]any{
		"name": "weather__get_weather", "arguments": map[string]any{"city": "Lisbon"}}})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(res)
	if res.IsError || !strings.Contains(string(data), "Lisbon") {
		t.Errorf("call made at once: %s", data)
	}
}

// testBinary is this test binary, which runs as toolsearch when its
// environment sets runAsToolsearch.
func testBinary(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// TestOfflineCatalogIsCached: entries served from the last known catalog,
// before the server answers, are marked cached in the catalog table (and,
// through the same report, on the status page).
func TestOfflineCatalogIsCached(t *testing.T) {
	dir := t.TempDir()
	cfg := mcpConfigFile(t, map[string]any{
		"up": map[string]any{"command": testBinary(t), "args": []string{"serve", "--skills", testSkills(t)}, "env": map[string]string{runAsToolsearch: "1"}},
	})
	catalog := func(args ...string) string {
		cmd := toolsearch(t.Context(), append([]string{"catalog", "--mcp-config", cfg}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("catalog %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	entryState := func(out string) string {
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) > 3 && f[0] == "up__tool_search" {
				return f[3]
			}
		}
		return ""
	}
	if out := catalog(); entryState(out) != "active" {
		t.Errorf("live: up__tool_search is %q, want active:\n%s", entryState(out), out)
	}
	if out := catalog("--offline"); entryState(out) != "cached" {
		t.Errorf("offline: up__tool_search is %q, want cached:\n%s", entryState(out), out)
	}
}
