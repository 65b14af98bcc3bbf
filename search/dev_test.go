package search

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolsearch/toolsearch/internal/devsplit"
)

// devDir is the development split of the retrieval evaluation, outside the repository.
var devDir = devsplit.Dir()

// catalogTool is one entry of catalog.json.
type catalogTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// loadDev reads the dev split, skipping the test when it is not there.
func loadDev(tb testing.TB) ([]catalogTool, []EvalQuery) {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(devDir, "catalog.json"))
	if os.IsNotExist(err) {
		tb.Skip(devsplit.Missing())
	}
	if err != nil {
		tb.Fatal(err)
	}
	var tools []catalogTool
	if err := json.Unmarshal(b, &tools); err != nil {
		tb.Fatal(err)
	}
	return tools, readQueries(tb, filepath.Join(devDir, "queries.jsonl"))
}

// readQueries reads a JSON Lines file of EvalQuery, failing tb if it cannot.
func readQueries(tb testing.TB, path string) []EvalQuery {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	qs, err := ReadEvalQueries(f)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return qs
}

func toolDocs(tools []catalogTool, suffix string) []Document {
	docs := make([]Document, len(tools))
	for i, t := range tools {
		docs[i] = ToolDocument(t.Name+suffix, t.Name+suffix, t.Description, t.InputSchema)
	}
	return docs
}

// TestDevSplit guards retrieval quality on the development split.
func TestDevSplit(t *testing.T) {
	tools, qs := loadDev(t)
	ix := NewIndex()
	ix.Add(toolDocs(tools, "")...)
	rep := Evaluate(ix, qs, EvalOptions{Misses: 0})
	t.Logf("dev split: %d queries, R@1 %.3f, R@5 %.3f, R@10 %.3f, MRR %.3f",
		rep.Queries, rep.RecallAt1, rep.RecallAt5, rep.RecallAt10, rep.MRR)
	for _, c := range rep.ByCategory {
		t.Logf("  %-24s %4d  R@1 %.3f  R@5 %.3f  R@10 %.3f  MRR %.3f",
			c.Category, c.Queries, c.RecallAt1, c.RecallAt5, c.RecallAt10, c.MRR)
	}
	if rep.RecallAt5 < 0.80 {
		t.Errorf("recall@5 = %.3f, want >= 0.80", rep.RecallAt5)
	}
}

// TestDevKeywords reports retrieval quality on the hand-written keyword queries of
// testdata/dev-keywords.jsonl: for 200 dev requests, the short search a model would send,
// written from the request alone (and a search per need where it holds several).
func TestDevKeywords(t *testing.T) {
	tools, _ := loadDev(t)
	qs := readQueries(t, "testdata/dev-keywords.jsonl")
	ix := NewIndex()
	ix.Add(toolDocs(tools, "")...)
	rep := Evaluate(ix, qs, EvalOptions{})
	t.Logf("keywords: %s", formatMetrics(rep.Metrics))
	t.Logf("  several needs, one search:   %s", formatMetrics(rep.Split.AsOne))
	t.Logf("  several needs, a search each: %s", formatMetrics(rep.Split.Split))
	if rep.RecallAt5 < 0.80 {
		t.Errorf("recall@5 = %.3f, want >= 0.80", rep.RecallAt5)
	}
}
