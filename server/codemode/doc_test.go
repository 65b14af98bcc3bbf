package codemode

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestDocExamples runs every ```python block of docs/code-mode.md against
// a host with the tools the examples name.
func TestDocExamples(t *testing.T) {
	doc, err := os.ReadFile("../../docs/code-mode.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```python\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	if len(blocks) < 3 {
		t.Fatalf("docs/code-mode.md has %d python examples", len(blocks))
	}
	h := &docHost{fakeHost: newHost()}
	for i, b := range blocks {
		r := Run(context.Background(), b[1], h, Limits{})
		if r.Error != "" || r.Output == "" {
			t.Errorf("example %d: %+v\n%s", i+1, r, b[1])
		}
	}
}

// docHost serves the example tools of docs/code-mode.md.
type docHost struct{ *fakeHost }

func (h *docHost) Call(ctx context.Context, name string, args json.RawMessage) Reply {
	switch {
	case name == "docs__list_projects":
		return Reply{Structured: []byte(`{"projects":["atlas","ledger"]}`)}
	case name == "docs__read_doc" && strings.Contains(string(args), "nowhere"):
		return Reply{Error: "no project nowhere"}
	case name == "docs__read_doc":
		return Reply{Text: "# Doc\n\n## One\n\n## Two\n"}
	}
	return h.fakeHost.Call(ctx, name, args)
}
