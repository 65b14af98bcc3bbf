package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/devsplit"
)

// devSplit is the development split of the tool-retrieval benchmark, when
// this checkout sits beside it.
var devSplit = devsplit.Dir()

// replicatedCatalog writes a catalog of n tools: the dev split's tools
// replicated under new names, or synthetic tools when the split is absent.
// It returns the file and queries to search it with.
func replicatedCatalog(b *testing.B, n int) (string, []string) {
	b.Helper()
	var base []map[string]any
	var queries []string
	if data, err := os.ReadFile(filepath.Join(devSplit, "catalog.json")); devSplit != "" && err == nil {
		if err := json.Unmarshal(data, &base); err != nil {
			b.Fatal(err)
		}
		if data, err := os.ReadFile(filepath.Join(devSplit, "queries.jsonl")); err == nil {
			for _, line := range splitLines(data) {
				var q struct{ Query string }
				if json.Unmarshal(line, &q) == nil && q.Query != "" {
					queries = append(queries, q.Query)
				}
			}
		}
	} else {
		b.Log(devsplit.Missing() + ": benchmarking synthetic tools")
		for i := range 500 {
			base = append(base, map[string]any{
				"name":        fmt.Sprintf("tool_%d", i),
				"description": fmt.Sprintf("Does thing number %d with a record and returns its fields.", i),
				"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{"type": "string"}}},
			})
			queries = append(queries, fmt.Sprintf("do thing %d with a record", i))
		}
	}
	tools := make([]map[string]any, 0, n)
	for i := 0; len(tools) < n; i++ {
		t := map[string]any{}
		for k, v := range base[i%len(base)] {
			t[k] = v
		}
		if copyNo := i / len(base); copyNo > 0 {
			name := fmt.Sprint(t["name"])
			suffix := fmt.Sprintf("_r%d", copyNo)
			if len(name)+len(suffix) > 64 {
				name = name[:64-len(suffix)]
			}
			t["name"] = name + suffix
		}
		tools = append(tools, t)
	}
	data, _ := json.Marshal(tools)
	file := filepath.Join(b.TempDir(), "tools.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		b.Fatal(err)
	}
	return file, queries
}

func splitLines(data []byte) [][]byte {
	var lines [][]byte
	for len(data) > 0 {
		i := slices.Index(data, '\n')
		if i < 0 {
			return append(lines, data)
		}
		lines = append(lines, data[:i])
		data = data[i+1:]
	}
	return lines
}

// BenchmarkStdioRoundTrip measures a tool_search from a go-sdk client to
// the real binary over stdio and back, with 10,000 tools in the catalog.
// It reports the median and 95th percentile besides the mean.
func BenchmarkStdioRoundTrip(b *testing.B) {
	file, queries := replicatedCatalog(b, 10_000)
	cmd := toolsearch(context.Background(), "serve", "--tools", file, "--skills", b.TempDir(), "--log-level", "error")
	client := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil)
	ctx := context.Background()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	durations := make([]time.Duration, 0, b.N)
	i := 0
	for b.Loop() {
		start := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "tool_search", Arguments: map[string]any{"query": queries[i%len(queries)]}})
		durations = append(durations, time.Since(start))
		if err != nil || res.IsError {
			b.Fatalf("search: %v %v", err, res)
		}
		i++
	}
	slices.Sort(durations)
	b.ReportMetric(float64(durations[len(durations)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(durations[len(durations)*95/100].Microseconds())/1000, "p95-ms")
}
