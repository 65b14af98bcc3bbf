package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// oversizedTools writes a tools file with one tool whose description is
// 249,000 characters, as a server once sent, and one ordinary tool.
func oversizedTools(t *testing.T) string {
	var b strings.Builder
	b.WriteString("Export the warehouse ledger as a spreadsheet.")
	for i := 0; b.Len() < 249_000; i++ {
		fmt.Fprintf(&b, "\nParagraph %d of the ledger export's manual.", i)
	}
	tools := []map[string]any{
		{"name": "export_ledger", "description": b.String()[:249_000], "inputSchema": map[string]any{"type": "object", "properties": map[string]any{"ledger": map[string]any{"type": "string"}}}},
		{"name": "count_items", "description": "Count the items of a ledger.", "inputSchema": map[string]any{"type": "object"}},
	}
	data, err := json.Marshal(tools)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFile(t, dir, "tools.json", string(data))
	return filepath.Join(dir, "tools.json")
}

// catalog and scan flag a definition over the size limits measure flags,
// with its size; search's select: shows its schema and a page of its
// description with the call that reads on.
func TestOversizedDefinitionFlagged(t *testing.T) {
	tools := oversizedTools(t)
	run := func(args ...string) string {
		t.Helper()
		out, err := toolsearch(context.Background(), args...).CombinedOutput()
		if err != nil && args[0] != "scan" {
			t.Fatalf("%s: %v\n%s", args[0], err, out)
		}
		return string(out)
	}
	catalog := run("catalog", "--tools", tools)
	if !strings.Contains(catalog, "Oversized (1)") || !strings.Contains(catalog, "export_ledger (tool from tools): oversized: its definition is") {
		t.Errorf("catalog does not flag the oversized tool:\n%.2000s", catalog)
	}
	var rep struct {
		Entries []struct {
			Name  string
			Flags []string
		}
	}
	if err := json.Unmarshal([]byte(run("catalog", "--tools", tools, "--json")), &rep); err != nil {
		t.Fatal(err)
	}
	for _, e := range rep.Entries {
		if want := e.Name == "export_ledger"; strings.Contains(strings.Join(e.Flags, ","), "oversized") != want {
			t.Errorf("catalog --json: %s flags %v, oversized wanted: %v", e.Name, e.Flags, want)
		}
	}
	scan := run("scan", "--tools", tools)
	if !strings.Contains(scan, "export_ledger (tool from tools): oversized") {
		t.Errorf("scan does not flag the oversized tool:\n%.2000s", scan)
	}
	search := run("search", "--tools", tools, "select:export_ledger")
	if !strings.Contains(search, `"ledger"`) || !strings.Contains(search, "249,000 bytes") || !strings.Contains(search, `"cursor"`) {
		t.Errorf("search select: shows no schema, size or cursor:\n%.1000s", search)
	}
}
