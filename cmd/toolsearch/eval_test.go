package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/server"
)

// TestEvalIndexesWhatServeIndexes: eval once indexed toolsearch's own tool
// names, which serve refuses. Names that differ only in case are two tools,
// as MCP's names are case-sensitive: serve indexes both, and so does eval.
func TestEvalIndexesWhatServeIndexes(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tools.json")
	tools := `[
		{"name": "calculate_BMI", "description": "Body mass index.", "inputSchema": {"type": "object"}},
		{"name": "calculate_bmi", "description": "Body mass index, again.", "inputSchema": {"type": "object"}},
		{"name": "tool_search", "description": "Searches something.", "inputSchema": {"type": "object"}},
		{"name": "get_weather", "description": "Weather.", "inputSchema": {"type": "object"}}
	]`
	if err := os.WriteFile(file, []byte(tools), 0o600); err != nil {
		t.Fatal(err)
	}
	var warn strings.Builder
	entries, err := evalEntries([]string{file}, &warn)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, d := range server.Documents(entries) {
		ids = append(ids, d.ID)
	}
	slices.Sort(ids)
	if want := []string{"calculate_BMI", "calculate_bmi", "get_weather"}; !slices.Equal(ids, want) {
		t.Errorf("indexed %v, want %v", ids, want)
	}
	if !strings.Contains(warn.String(), "tool_search: not indexed") {
		t.Errorf("warnings do not say that tool_search is not indexed:\n%s", warn.String())
	}
	if strings.Contains(warn.String(), "calculate_") {
		t.Errorf("warnings name a tool that is indexed:\n%s", warn.String())
	}
}

// TestSearchSeveralQueries: toolsearch search takes one query per need with --query, and
// prints the result grouped per query, as tool_search gives it.
func TestSearchSeveralQueries(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "tools.json")
	tools := `[
		{"name": "book_hotel", "description": "Book a hotel room.", "inputSchema": {"type": "object"}},
		{"name": "reserve_hotel", "description": "Reserve a hotel room.", "inputSchema": {"type": "object"}},
		{"name": "rent_car", "description": "Rent a car.", "inputSchema": {"type": "object"}}
	]`
	if err := os.WriteFile(file, []byte(tools), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir) // no ./skills, toolsearch.yaml or .mcp.json
	var out, errs strings.Builder
	code := run(t.Context(), []string{"search", "--tools", file, "--detail", "names", "hotel", "room", "--query", "rent a car"}, &out, &errs)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	for _, want := range []string{"for 2 queries", `# "hotel room": 2 matched`, `# "rent a car": `, "## 1. rent_car"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// writeEvalSet writes a two-tool evaluation set into dir as ../shared/eval lays one out
// (catalog.json, queries.jsonl) and returns the two files.
func writeEvalSet(t *testing.T, dir string) (catalog, queries string) {
	t.Helper()
	catalog = filepath.Join(dir, "catalog.json")
	queries = filepath.Join(dir, "queries.jsonl")
	if err := os.WriteFile(catalog, []byte(`[
		{"name": "get_weather", "description": "Current weather for a city.", "inputSchema": {"type": "object"}},
		{"name": "send_email", "description": "Send an email message.", "inputSchema": {"type": "object"}}
	]`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(queries, []byte(`{"id":"1","query":"weather in Rome","expected":["get_weather"]}
{"id":"2","query":"mail my boss","expected":["send_email"]}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	return catalog, queries
}

// TestEvalBaseline: eval --baseline bm25 scores plain BM25 on the queries, and refuses to
// fit or cross-validate it, since it has no weights.
func TestEvalBaseline(t *testing.T) {
	tools, queries := writeEvalSet(t, t.TempDir())
	var out, errs strings.Builder
	if code := run(t.Context(), []string{"eval", "--baseline", "bm25", "--catalog", tools, "--queries", queries}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	// Plain BM25 has no stems or synonyms: "mail" does not find send_email.
	if !strings.Contains(out.String(), "all        2  0.500  0.500") {
		t.Errorf("output:\n%s", out.String())
	}
	for _, bad := range [][]string{{"--baseline", "bm25", "--folds", "2"}, {"--baseline", "tfidf"}} {
		errs.Reset()
		args := append([]string{"eval", "--catalog", tools, "--queries", queries}, bad...)
		if code := run(t.Context(), args, &out, &errs); code == 0 || !strings.Contains(errs.String(), "--baseline") {
			t.Errorf("%v: exit %d, stderr %q", bad, code, errs.String())
		}
	}
}

// TestEvalFitWith: eval --fit --fit-with DIR fits on both sets, and says what is wrong
// with a missing set, a --fit-with without --fit or a depth under 1 (the baseline's too).
func TestEvalFitWith(t *testing.T) {
	dir := t.TempDir()
	tools, queries := writeEvalSet(t, dir)
	var out, errs strings.Builder
	args := []string{"eval", "--fit", "--catalog", tools, "--queries", queries, "--fit-with", dir}
	if code := run(t.Context(), args, &out, &errs); code != 0 || !strings.Contains(out.String(), "rerank.change_asked") {
		t.Fatalf("exit %d: %s\n%s", code, errs.String(), out.String())
	}
	missing := filepath.Join(dir, "nowhere")
	for _, bad := range [][]string{{"--fit-with", dir}, {"--fit", "--fit-with", missing}, {"--misses-at", "0"}, {"--baseline", "bm25", "--misses", "3", "--misses-at", "-1"}} {
		errs.Reset()
		args := append([]string{"eval", "--catalog", tools, "--queries", queries}, bad...)
		if code := run(t.Context(), args, &out, &errs); code == 0 || !strings.Contains(errs.String(), bad[len(bad)-2]) {
			t.Errorf("%v: exit %d, stderr %q", bad, code, errs.String())
		}
	}
}
