package server

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/loader/skill"
	"github.com/toolsearch/toolsearch/server/skillsext"
)

// The resources and prompts capabilities are declared only while there is
// something to serve through them: hosts give the model tools of their own
// for every server that declares resources.
func TestCapabilitiesFollowWhatIsServed(t *testing.T) {
	tool := loader.NewToolEntry("srv", "srv__t", &mcp.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`)})
	prompt := loader.NewPromptEntry("srv", "srv__p", &mcp.Prompt{Name: "p"})
	resource := loader.NewResourceEntry("srv", &mcp.Resource{URI: "notes://today", Name: "today"})
	skill := loader.NewSkillEntry(loader.SkillsSourceName, &skill.Skill{Name: "notes", Description: "Take notes."})
	server := func(state loader.State, entries ...*loader.Entry) *loader.Source {
		return &loader.Source{Name: "srv", Kind: loader.SourceServer, State: state, Entries: entries}
	}
	tests := []struct {
		name               string
		sources            []*loader.Source
		resources, prompts bool
	}{
		{"nothing", nil, false, false},
		{"tools only", []*loader.Source{server(loader.StateActive, tool)}, false, false},
		{"a prompt", []*loader.Source{server(loader.StateActive, tool, prompt)}, false, true},
		{"a resource", []*loader.Source{server(loader.StateActive, tool, resource)}, true, false},
		{"a skill", []*loader.Source{{Name: loader.SkillsSourceName, Kind: loader.SourceSkills, Entries: []*loader.Entry{skill}}}, true, true},
		{"a server starting, its catalog unknown", []*loader.Source{server(loader.StateConnecting)}, true, true},
		{"a server starting from its last known catalog", []*loader.Source{server(loader.StateConnecting, tool)}, false, false},
		{"a server failed", []*loader.Source{server(loader.StateFailed)}, false, false},
	}
	for _, tt := range tests {
		for _, version := range []string{"2025-11-25", "2026-07-28"} {
			t.Run(tt.name+"/"+version, func(t *testing.T) {
				c := loader.NewCatalog(ReservedNames...)
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
