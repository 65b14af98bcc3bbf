package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

func TestSignTest(t *testing.T) {
	tests := []struct {
		gained, lost int
		want         float64
	}{
		{0, 0, 1},
		{3, 3, 1},
		{1, 0, 1},
		{5, 0, 2.0 / 32},
		{0, 5, 2.0 / 32},
		{7, 0, 2.0 / 128},
		{8, 1, 2 * 10.0 / 512},
		{3, 1, 2 * 5.0 / 16},     // C(4,0)+C(4,1) = 1+4
		{10, 2, 2 * 79.0 / 4096}, // C(12,0)+C(12,1)+C(12,2) = 1+12+66
	}
	for _, tt := range tests {
		if got := signTest(tt.gained, tt.lost); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("signTest(%d, %d) = %v, want %v", tt.gained, tt.lost, got, tt.want)
		}
	}
	// Large counts do not underflow to 0 or overflow to NaN.
	if p := signTest(520, 480); !(p > 0.2 && p < 0.25) {
		t.Errorf("signTest(520, 480) = %v, want about 0.218", p)
	}
	if p := signTest(1000, 0); p != 0 && !(p > 0 && p < 1e-300) {
		t.Errorf("signTest(1000, 0) = %v", p)
	}
}

// TestEvalAblate: eval --ablate names the rules (list), scores the sets with a rule switched
// off and counts the requests it gains and loses; an unknown rule is refused by name.
func TestEvalAblate(t *testing.T) {
	dir := t.TempDir()
	tools, queries := filepath.Join(dir, "catalog.json"), filepath.Join(dir, "queries.jsonl")
	writeFile(t, dir, "catalog.json", `[
		{"name": "hostpool_list", "description": "Lists them all.", "inputSchema": {"type": "object"}},
		{"name": "vm_list", "description": "Lists the virtual machines of a host.", "inputSchema": {"type": "object"}},
		{"name": "pool_get", "description": "Gets a pool.", "inputSchema": {"type": "object"}}
	]`)
	writeFile(t, dir, "queries.jsonl", `{"id":"1","query":"list the host pools","expected":["hostpool_list"]}
{"id":"2","query":"list the virtual machines","expected":["vm_list"]}
`)
	var out, errs strings.Builder
	if code := run(t.Context(), []string{"eval", "--ablate", "list"}, &out, &errs); code != 0 || !strings.Contains(out.String(), "synonyms") {
		t.Fatalf("--ablate list: exit %d: %s\n%s", code, errs.String(), out.String())
	}
	out.Reset()
	args := []string{"eval", "--json", "--ablate", "compound", "--catalog", tools, "--queries", queries}
	if code := run(t.Context(), args, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	var rows []paired
	if err := json.Unmarshal([]byte(out.String()), &rows); err != nil {
		t.Fatalf("%v:\n%s", err, out.String())
	}
	// Only the compound's parts say that hostpool_list lists host pools.
	if len(rows) != 1 || rows[0].Ablate != "compound" || rows[0].At1.Gained != 1 || rows[0].At1.Lost != 0 ||
		rows[0].With.RecallAt1 != 1 || rows[0].Without.RecallAt1 != 0.5 {
		t.Errorf("rows %+v", rows)
	}
	for _, bad := range [][]string{{"--ablate", "nosuchrule"}, {"--ablate", "needs", "--fit"}, {"--ablate", ","}} {
		errs.Reset()
		args := append([]string{"eval", "--catalog", tools, "--queries", queries}, bad...)
		if code := run(t.Context(), args, &out, &errs); code == 0 || !strings.Contains(errs.String(), "--ablate") {
			t.Errorf("%v: exit %d, stderr %q", bad, code, errs.String())
		}
	}
}
