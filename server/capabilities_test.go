package server

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/skill"
	"github.com/toolsearch/toolsearch/server/skillsext"
)

// The resources and prompts capabilities are declared only while there is
// something to serve through them: hosts give the model tools of their own
// for every server that declares resources.
func TestCapabilitiesFollowWhatIsServed(t *testing.T) {
	tool := catalog.NewToolEntry("srv", "srv__t", &mcp.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`)})
	prompt := catalog.NewPromptEntry("srv", "srv__p", &mcp.Prompt{Name: "p"})
	resource := catalog.NewResourceEntry("srv", &mcp.Resource{URI: "notes://today", Name: "today"})
	skill := catalog.NewSkillEntry(loader.SkillsSourceName, &skill.Skill{Name: "notes", Description: "Take notes."})
	server := func(state catalog.State, entries ...*catalog.Entry) *catalog.Source {
		return &catalog.Source{Name: "srv", Kind: catalog.SourceServer, State: state, Entries: entries}
	}
	tests := []struct {
		name               string
		sources            []*catalog.Source
		resources, prompts bool
	}{
		{"nothing", nil, false, false},
		{"tools only", []*catalog.Source{server(catalog.StateActive, tool)}, false, false},
		{"a prompt", []*catalog.Source{server(catalog.StateActive, tool, prompt)}, false, true},
		{"a resource", []*catalog.Source{server(catalog.StateActive, tool, resource)}, true, false},
		{"a skill", []*catalog.Source{{Name: loader.SkillsSourceName, Kind: catalog.SourceSkills, Entries: []*catalog.Entry{skill}}}, true, true},
		{"a server starting, its catalog unknown", []*catalog.Source{server(catalog.StateConnecting)}, true, true},
		{"a server starting from its last known catalog", []*catalog.Source{server(catalog.StateConnecting, tool)}, false, false},
		{"a server failed", []*catalog.Source{server(catalog.StateFailed)}, false, false},
	}
	for _, tt := range tests {
		for _, version := range []string{"2025-11-25", "2026-07-28"} {
			t.Run(tt.name+"/"+version, func(t *testing.T) {
				c := catalog.New(ReservedNames...)
				for _, src := range tt.sources {
					c.Put(src)
				}
				s, err := New(c, Options{})
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				cs, _ := connectClient(t, s, version)
				caps := cs.InitializeResult().Capabilities
				if _, ext := caps.Extensions[skillsext.Name]; ext != tt.resources {
					t.Errorf("the Skills extension is declared: %v, resources: %v", ext, tt.resources)
				}
				if (caps.Resources != nil) != tt.resources || (caps.Prompts != nil) != tt.prompts || (caps.Completions != nil) != (tt.resources || tt.prompts) {
					t.Errorf("resources %v, prompts %v, completions %v; want %v, %v", caps.Resources, caps.Prompts, caps.Completions, tt.resources, tt.prompts)
				}
				if caps.Tools == nil || !caps.Tools.ListChanged {
					t.Errorf("tools: %+v", caps.Tools)
				}
			})
		}
	}
}
