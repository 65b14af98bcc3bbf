package scan_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/scan"
	"github.com/toolsearch/toolsearch/loader/skill"
	"github.com/toolsearch/toolsearch/server"
	"github.com/toolsearch/toolsearch/server/codemode"
)

// TestToolsearchPassesItsOwnScan: toolsearch's own tools and instructions,
// which another toolsearch (or gateway) in front of it scans, hold nothing
// the scanner flags. Their wording ("call it before using any tool") is the
// kind a careless rule would.
func TestToolsearchPassesItsOwnScan(t *testing.T) {
	// A skill, a server still starting and code mode on: every tool of
	// toolsearch's own is listed (see server.ownTools).
	c := catalog.New(server.ReservedNames...)
	c.Put(&catalog.Source{Name: loader.SkillsSourceName, Kind: catalog.SourceSkills,
		Entries: []*catalog.Entry{catalog.NewSkillEntry(loader.SkillsSourceName, &skill.Skill{Name: "notes", Description: "Take notes."})}})
	c.Put(&catalog.Source{Name: "srv", Kind: catalog.SourceServer, State: catalog.StateConnecting})
	s, err := server.New(c, server.Options{ListingBudget: server.DefaultListingBudget, CodeMode: &codemode.Limits{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ms := s.NewMCPServer()
	defer s.Release(ms)
	ct, st := mcp.NewInMemoryTransports()
	if _, err := ms.Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) < len(server.ReservedNames) {
		t.Fatalf("only %d tools listed", len(res.Tools))
	}
	for _, tool := range res.Tools {
		if fs := scan.Tool(tool); len(fs) > 0 {
			t.Errorf("%s: %v", tool.Name, fs)
		}
	}
	if fs := scan.Text("instructions", server.Instructions); len(fs) > 0 {
		t.Errorf("instructions: %v", fs)
	}
}
