package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/skill"
)

// guidanceCatalog has an active server with tools, a prompt and
// instructions, a server starting from its last known catalog, one
// starting with no known tools, and a skill with files.
func guidanceCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	tool := func(src, name, desc, params string, a *mcp.ToolAnnotations) *catalog.Entry {
		return catalog.NewToolEntry(src, src+"__"+name, &mcp.Tool{Name: name, Description: desc, InputSchema: json.RawMessage(params), Annotations: a})
	}
	c := catalog.New(ReservedNames...)
	c.Put(&catalog.Source{Name: "srv", Kind: catalog.SourceServer, State: catalog.StateActive,
		Instructions: "Call get_forecast before\u200b anything else.\n\nDates are ISO 8601.",
		Entries: []*catalog.Entry{
			tool("srv", "get_forecast", "Weather forecast for a city.", `{"type":"object","properties":{"city":{"type":"string"}}}`, &mcp.ToolAnnotations{ReadOnlyHint: true}),
			tool("srv", "read_pdf", "Read the text of a PDF file.", `{"type":"object","properties":{"path":{"type":"string","description":"The file, e.g. a bread recipe scanned as PDF."}}}`, nil),
			catalog.NewPromptEntry("srv", "srv__summarize", &mcp.Prompt{Name: "summarize", Description: "Summarize a long text for the user."}),
		}})
	c.Put(&catalog.Source{Name: "old", Kind: catalog.SourceServer, State: catalog.StateConnecting, Cached: true,
		Entries: []*catalog.Entry{tool("old", "list_files", "List the files of a folder.", `{"type":"object"}`, nil)}})
	c.Put(&catalog.Source{Name: "slow", Kind: catalog.SourceServer, State: catalog.StateConnecting})
	sk := &skill.Skill{Name: "pdf-forms", Description: "Fill PDF forms.", Body: "Fill the form.\n",
		Files: []skill.File{{Path: skill.FileName, Size: 10}, {Path: "scripts/fill.py", Size: 20}}}
	c.Put(&catalog.Source{Name: loader.SkillsSourceName, Kind: catalog.SourceSkills, Entries: []*catalog.Entry{catalog.NewSkillEntry(loader.SkillsSourceName, sk)}})
	return c
}

// Claude Code and Codex give the model the structured result, not the
// text: whatever the text says beyond the results (how to call, what to
// try when nothing matched, a server's state, why prompts are not called)
// must be in the structured result too.
func TestStructuredResultCarriesGuidance(t *testing.T) {
	s, err := New(guidanceCatalog(t), Options{Upstreams: &fakeUpstreams{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tests := []struct {
		name       string
		args       SearchArgs
		text, json string // what the text says, and how the structured result says it
	}{
		{"how to call", SearchArgs{Query: "weather forecast"}, "Call each tool through the proxy named with it, e.g. call_tool_read", `"guidance":"Call each tool through the proxy its result names, e.g. call_tool_read`},
		{"weak", SearchArgs{Query: "bake sourdough bread"}, "No strong match", `No strong match: the best result shares few of the query's words`},
		{"nothing matches: entries to start from", SearchArgs{Query: "zzqx blorpf"}, "Here are", `"guidance":"Nothing matches the query: the results are entries to start from`},
		{"nothing at all", SearchArgs{Query: "weather", Kind: "resource"}, "Try other or fewer keywords", `"guidance":"Nothing matches the query. Try other or fewer keywords`},
		{"no entry has every +term", SearchArgs{Query: "+weather +zebra"}, "No entry has every +term", `No entry has every +term of the query`},
		{"prompts are not called", SearchArgs{Query: "summarize text"}, "Prompts and resources are not called", `Prompts and resources are not called`},
		{"cached", SearchArgs{Query: "list files folder"}, "[cached: its last known definition", `"notes":["cached: its last known definition`},
		{"connecting, whatever matched", SearchArgs{Query: "weather forecast"}, "Note: server slow is still starting", `"connecting":["slow"]`},
		{"connecting, nothing matched", SearchArgs{Query: "zzqx blorpf"}, "Note: server slow is still starting: its tools are not known yet", `"connecting":["slow"]`},
		{"connecting, the listing", SearchArgs{}, "Note: server slow is still starting", `"connecting":["slow"]`},
		{"unknown names", SearchArgs{Query: "select:nope_tool"}, "Unknown names: nope_tool", `The names in unknown are not in the catalog`},
		{"next page", SearchArgs{Limit: 1}, "Next page: tool_search", `"guidance":"Use select:\u003cname\u003e to load an entry in full. Next page: tool_search`},
		{"a query of several", SearchArgs{Queries: []string{"weather forecast", "zzqx blorpf"}}, "nothing matches it, so these are entries to start from", `"guidance":"nothing matches it, so these are entries to start from`},
		{"skill files", SearchArgs{Query: "select:pdf-forms"}, "Files (read with read_skill_file", `Read a skill's files with read_skill_file`},
		{"server instructions", SearchArgs{Query: "select:srv__get_forecast"}, "Instructions of server srv (its own words): Call get_forecast before anything else. Dates are ISO 8601.", `"instructions":{"srv":"Call get_forecast before anything else. Dates are ISO 8601."}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := s.Search(tt.args)
			if err != nil {
				t.Fatal(err)
			}
			res = structuredOf(t, s.searchCallResult(res))
			data, _ := json.Marshal(res)
			text := s.searchCallResult(res).Content[0].(*mcp.TextContent).Text
			if !strings.Contains(text, tt.text) {
				t.Errorf("the text does not say %q:\n%s", tt.text, text)
			}
			if !strings.Contains(string(data), tt.json) {
				t.Errorf("the structured result does not say %q:\n%s", tt.json, data)
			}
		})
	}
}

// structuredOf is a call result's structured content as the client
// decodes it, checked for the fields the text relies on.
func structuredOf(t *testing.T, res *mcp.CallToolResult) *SearchResult {
	t.Helper()
	sr, ok := res.StructuredContent.(*SearchResult)
	if !ok {
		t.Fatalf("structured content is %T", res.StructuredContent)
	}
	return sr
}

// A body cut to fit the budget says where the rest is, in the structured
// result too.
func TestStructuredResultSaysWhereCutBodyGoesOn(t *testing.T) {
	c := catalog.New(ReservedNames...)
	sk := &skill.Skill{Name: "long", Description: "A long skill.", Body: strings.Repeat("Step: do the next thing with care.\n", 400)}
	c.Put(&catalog.Source{Name: loader.SkillsSourceName, Kind: catalog.SourceSkills, Entries: []*catalog.Entry{catalog.NewSkillEntry(loader.SkillsSourceName, sk)}})
	s, err := New(c, Options{ResultBudget: 500})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := s.Search(SearchArgs{Query: "select:long"})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(res)
	if it := res.Results[0]; it.More == "" || !strings.Contains(res.Text(), "[… "+it.More+"]") || !strings.Contains(string(data), `read_skill_file {\"skill\": \"long\", \"path\": \"SKILL.md\"}`) {
		t.Errorf("more = %q\n%s", it.More, data)
	}
}

// The call results toolsearch makes itself carry their text's advice in
// the structured content too: a script's output (which the text is), and
// the message of each error that has structured fields.
func TestCallResultsCarryTheirTextStructured(t *testing.T) {
	s := nestedServer(t)
	for _, script := range []string{"scripts/own.sh", "scripts/nope.sh"} {
		res := s.RunScript(context.Background(), ScriptArgs{Skill: "gamma", Script: script})
		if sr, ok := res.StructuredContent.(ScriptResult); ok && sr.Output != resultText(res) {
			t.Errorf("%s: structured output %q, text %q", script, sr.Output, resultText(res))
		}
	}
	if res := s.RunScript(context.Background(), ScriptArgs{Skill: "gamma", Script: "scripts/own.sh"}); res.StructuredContent.(ScriptResult).Output != "gamma\n" {
		t.Errorf("structured output: %+v", res.StructuredContent)
	}
	e := catalog.NewToolEntry("srv", "srv__t", &mcp.Tool{Name: "t"})
	held := catalog.NewToolEntry("srv", "srv__h", &mcp.Tool{Name: "h"})
	held.Hold(&catalog.Quarantine{Reason: "new", Review: "toolsearch review srv__h"})
	for name, res := range map[string]*mcp.CallToolResult{
		"not active":    callError(e, notActiveErr{}),
		"auth required": authRequiredResult(e, "no token", "toolsearch login srv"),
		"held":          heldResult(held),
	} {
		m, ok := res.StructuredContent.(map[string]any)
		if !ok || m["message"] != resultText(res) {
			t.Errorf("%s: structured %v, text %q", name, res.StructuredContent, resultText(res))
		}
	}
}
