package server

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/snapshot"
	"github.com/toolsearch/toolsearch/loader/catalog"
)

// TestSnapshots keeps toolsearch's own tools and resources, as clients get
// them, in reviewed files (testdata/snapshots); UPDATE_SNAPSHOTS=1 go test
// rewrites them. The tools are taken as the server sends them, so that
// the key order of their schemas, which token counts depend on, is kept
// too. tool_search's description is shown over an empty catalog: the
// listing in it is tested on its own.
func TestSnapshots(t *testing.T) {
	s, err := New(catalog.New(ReservedNames...), Options{ListingBudget: DefaultListingBudget})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tools := []*mcp.Tool{s.searchTool(), readSkillFileTool(), runScriptTool()}
	for _, p := range proxies {
		tools = append(tools, p.tool())
	}
	for _, tool := range tools {
		snapshot.Check(t, "tools/"+tool.Name, tool)
	}
	cs, _ := connectClient(t, s, "")
	res, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Resources) != 1 {
		t.Fatalf("resources of an empty catalog: %v", res.Resources)
	}
	snapshot.Check(t, "resources/"+res.Resources[0].Name, res.Resources[0])
}
