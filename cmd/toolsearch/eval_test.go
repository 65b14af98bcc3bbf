package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestEvalIndexesWhatServeIndexes: eval once indexed names that differ only in
// case, and toolsearch's own tool names, which serve refuses.
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
	docs, err := evalDocuments([]string{file}, &warn)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, d := range docs {
		ids = append(ids, d.ID)
	}
	slices.Sort(ids)
	if want := []string{"calculate_BMI", "get_weather"}; !slices.Equal(ids, want) {
		t.Errorf("indexed %v, want %v", ids, want)
	}
	for _, name := range []string{"calculate_bmi", "tool_search"} {
		if !strings.Contains(warn.String(), name+": not indexed") {
			t.Errorf("warnings do not say that %s is not indexed:\n%s", name, warn.String())
		}
	}
}
