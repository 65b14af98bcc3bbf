package server

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/search"
)

// syncIndex feeds the index in batches; every entry must arrive, and a later sync
// must touch only what changed.
func TestSyncIndexAcrossBatches(t *testing.T) {
	tools := func(n int, changed string) *loader.Source {
		src := &loader.Source{Name: "big", Kind: loader.SourceTools}
		for i := range n {
			name := fmt.Sprintf("tool_%05d", i)
			desc := "Does thing number " + fmt.Sprint(i) + "."
			if name == changed {
				desc = "Now frobnicates instead."
			}
			tl := &mcp.Tool{Name: name, Description: desc, InputSchema: json.RawMessage(`{"type":"object"}`)}
			src.Entries = append(src.Entries, loader.NewToolEntry("big", name, tl))
		}
		return src
	}
	n := 2*indexBatch + 3
	c := loader.NewCatalog()
	c.Put(tools(n, ""))
	first := c.Snapshot()
	ix := search.NewIndex()
	syncIndex(ix, nil, first)
	if ix.Len() != n {
		t.Fatalf("indexed %d entries, want %d", ix.Len(), n)
	}
	last := fmt.Sprintf("tool_%05d", n-1)
	if res := ix.Search(search.Query{Text: last}); len(res.Hits) == 0 || res.Hits[0].ID != last {
		t.Errorf("search %s: %+v", last, res.Hits)
	}

	// One tool changes, the last one goes.
	c.Put(tools(n-1, "tool_00007"))
	syncIndex(ix, first, c.Snapshot())
	if ix.Len() != n-1 {
		t.Errorf("after the update: %d entries, want %d", ix.Len(), n-1)
	}
	if res := ix.Search(search.Query{Text: "frobnicates"}); len(res.Hits) != 1 || res.Hits[0].ID != "tool_00007" {
		t.Errorf("changed tool not re-indexed: %+v", res.Hits)
	}
	if res := ix.Search(search.Query{Text: "select:" + last}); len(res.Hits) != 0 {
		t.Errorf("removed tool still found: %+v", res.Hits)
	}
}
