package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/procfs"
	"github.com/toolsearch/toolsearch/server"
)

// BenchmarkStartup100k starts the real binary as a client starts it (over
// stdio, with the go-sdk client) with 100,000 tools, the dev split's
// replicated under new names, and reports per start:
//
//   - first-list-ms: from starting the process until its first tools/list
//     answer (initialize included);
//   - ready-ms: until a search finds the catalog's tools with the index
//     complete and, for an upstream, its listing absorbed and saved;
//   - peak-MB: the server's peak resident set (VmHWM) at that point;
//   - priced-ms and settled-peak-MB: when the catalog is priced for the
//     eager baseline (in the background once it is indexed; the stats
//     resource waits for it), and the peak resident set then, the start's
//     peak whole, with the word vectors loaded by a search made once ready.
//
// Each iteration is a new process; run with -benchtime 1x -count N to get
// one figure per run. The sub-benchmarks are the two ways a catalog comes in:
//
//   - tools-file: a static --tools file;
//   - upstream-cold: one upstream server over stdio listing the same tools
//     in pages of 1,000, with no last known catalog on disk;
//   - upstream-warm: the same with the catalog saved by a previous run,
//     which is served at once while the server lists its tools again.
//
// TOOLSEARCH_BINARY, when set, is measured instead of a fresh build, to
// compare builds with the same harness.
func BenchmarkStartup100k(b *testing.B) {
	file, _ := replicatedCatalog(b, 100_000)
	probe := lastToolName(b, file)
	empty := b.TempDir()

	b.Run("tools-file", func(b *testing.B) {
		for b.Loop() {
			benchStart(b, []string{"--tools", file, "--skills", empty}, "", probe)
		}
	})
	upstream := func(b *testing.B) (cfg, cache string) {
		self, err := os.Executable()
		if err != nil {
			b.Fatal(err)
		}
		cfg = filepath.Join(b.TempDir(), "mcp.json")
		data, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
			"up": map[string]any{"command": self, "env": map[string]string{fakeUpstreamEnv: file}},
		}})
		if err := os.WriteFile(cfg, data, 0o644); err != nil {
			b.Fatal(err)
		}
		return cfg, b.TempDir()
	}
	b.Run("upstream-cold", func(b *testing.B) {
		cfg, _ := upstream(b)
		for b.Loop() {
			benchStart(b, []string{"--mcp-config", cfg, "--skills", empty}, b.TempDir(), "up__"+probe)
		}
	})
	b.Run("upstream-warm", func(b *testing.B) {
		cfg, cache := upstream(b)
		benchStart(b, []string{"--mcp-config", cfg, "--skills", empty}, cache, "up__"+probe) // saves the catalog
		for b.Loop() {
			benchStart(b, []string{"--mcp-config", cfg, "--skills", empty}, cache, "up__"+probe)
		}
	})
}

// startupCommand runs toolsearch with args: this test binary acting as it,
// or, to measure another build with the same harness, the binary that
// TOOLSEARCH_BINARY names.
func startupCommand(ctx context.Context, args ...string) *exec.Cmd {
	if bin := os.Getenv("TOOLSEARCH_BINARY"); bin != "" {
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env = os.Environ()
		return cmd
	}
	return toolsearch(ctx, args...)
}

// benchStart runs one start of the server with args and reports its
// figures. cache, when set, is the upstream cache's home: the start is
// ready once the upstream's catalog was saved there after the start.
func benchStart(b *testing.B, args []string, cache, probe string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := startupCommand(ctx, append([]string{"serve", "--log-level", "error"}, args...)...)
	if cache != "" {
		cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+cache)
	}
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	start := time.Now()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		// Killed, not closed: a session's end prices the whole catalog
		// for its summary, which is no part of starting.
		cmd.Process.Kill()
		cs.Close()
	}()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		b.Fatal(err)
	}
	firstList := time.Since(start)

	saved := func() bool {
		if cache == "" {
			return true
		}
		files, _ := filepath.Glob(filepath.Join(cache, "toolsearch", "upstreams", "up-*.json"))
		for _, f := range files {
			if info, err := os.Stat(f); err == nil && info.ModTime().After(start) {
				return true
			}
		}
		return false
	}
	for {
		if saved() && selects(ctx, b, cs, probe) {
			break
		}
		if ctx.Err() != nil {
			b.Fatalf("%s never became searchable", probe)
		}
		time.Sleep(20 * time.Millisecond)
	}
	ready := time.Since(start)
	b.ReportMetric(float64(firstList.Milliseconds()), "first-list-ms")
	b.ReportMetric(float64(ready.Milliseconds()), "ready-ms")
	peak := func(metric string) {
		if kb, _ := procfs.StatusKB(cmd.Process.Pid, "VmHWM"); kb > 0 { // 0 without /proc
			b.ReportMetric(float64(kb)/1024, metric)
		}
	}
	peak("peak-MB")
	// A request as a model words it, with words the catalog lacks: the first
	// such search loads the word vectors (search.WordVectors), which the
	// targets count in.
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "tool_search", Arguments: map[string]any{"query": "will it drizzle over the marmalade factory tomorrow"}}); err != nil {
		b.Fatal(err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: server.StatsURI}); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(time.Since(start).Milliseconds()), "priced-ms")
	peak("settled-peak-MB")
}

// fakeUpstreamEnv names the tools file the test binary serves when it runs
// as an upstream server (see TestMain).
const fakeUpstreamEnv = "TOOLSEARCH_FAKE_UPSTREAM"

// serveFakeUpstream answers MCP over stdio with the tools of file, in pages
// of 1,000, until stdin ends. It is a bare JSON-RPC loop rather than an SDK
// server: pages are rendered once, so that what a start-up benchmark
// measures is toolsearch, not its upstream.
func serveFakeUpstream(file string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var tools []json.RawMessage
	if err := json.Unmarshal(data, &tools); err != nil {
		return err
	}
	var pages [][]byte
	for i, chunk := 0, slices.Collect(slices.Chunk(tools, 1000)); i < len(chunk); i++ {
		page := map[string]any{"tools": chunk[i]}
		if i+1 < len(chunk) {
			page["nextCursor"] = strconv.Itoa(i + 1)
		}
		data, _ := json.Marshal(page)
		pages = append(pages, data)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 16<<20)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Cursor string `json:"cursor"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue // notifications need no answer
		}
		var result []byte
		switch req.Method {
		case "initialize":
			result = []byte(`{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"1"}}`)
		case "tools/list":
			n, _ := strconv.Atoi(req.Params.Cursor)
			if n < 0 || n >= len(pages) {
				n = 0
			}
			result = pages[n]
		default:
			result = []byte(`{}`)
		}
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, result)
		out.Flush()
	}
	return in.Err()
}

// BenchmarkShutdown100k starts the real binary over stdio with the
// 100,000 tools of BenchmarkStartup100k as a --tools file, makes one search
// once the index is complete, then closes stdin as a client ends a session,
// and reports how long the process takes to exit (shutdown-ms): the
// session's summary is logged on the way out. A client waits a few seconds
// before it signals the server (the go-sdk client 5 s), so the exit must
// come well before that. The sub-benchmarks stop the server:
//
//   - idle: 20 s after the search, time enough to price the catalog for
//     eager loading in the background: the usual case;
//   - at-ready: at once, while the catalog is still being priced.
func BenchmarkShutdown100k(b *testing.B) {
	file, _ := replicatedCatalog(b, 100_000)
	probe := lastToolName(b, file)
	empty := b.TempDir()
	for _, idle := range []time.Duration{20 * time.Second, 0} {
		name := "at-ready"
		if idle > 0 {
			name = "idle"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				benchShutdown(b, []string{"--tools", file, "--skills", empty}, probe, idle)
			}
		})
	}
}

// benchShutdown runs one start of the server with args, searches for probe
// until the index has it, waits idle, and reports how long the server
// takes to exit once stdin is closed.
func benchShutdown(b *testing.B, args []string, probe string, idle time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := startupCommand(ctx, append([]string{"serve", "--log-level", "error"}, args...)...)
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	// Closing waits this long for the exit before signalling: long enough
	// to see how long the exit takes.
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Minute}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cmd.Process.Kill()
	for {
		if selects(ctx, b, cs, probe) {
			break
		}
		if ctx.Err() != nil {
			b.Fatalf("%s never became searchable", probe)
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(idle)
	start := time.Now()
	if err := cs.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(time.Since(start).Milliseconds()), "shutdown-ms")
}

// lastToolName returns the name of the last tool of a tools file: a search
// finds it only once the whole catalog is in the index.
func lastToolName(b *testing.B, file string) string {
	data, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	var tools []struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(data, &tools); err != nil || len(tools) == 0 {
		b.Fatalf("%s: %v (%d tools)", file, err, len(tools))
	}
	return tools[len(tools)-1].Name
}

// selects reports whether a select: search finds the tool named probe,
// which it does once the index holds the whole catalog.
func selects(ctx context.Context, b *testing.B, cs *mcp.ClientSession, probe string) bool {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "tool_search", Arguments: map[string]any{"query": "select:" + probe}})
	if err != nil {
		b.Fatal(err)
	}
	return !res.IsError && strings.Contains(res.Content[0].(*mcp.TextContent).Text, "## 1. "+probe)
}
