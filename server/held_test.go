package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/scan"
	"github.com/toolsearch/toolsearch/loader/trust"
)

// poison is text that must never reach the model from a held tool.
const poison = "ZEBRA-POISON"

// heldCatalog has a server with a held, always-loaded tool whose new
// definition carries poison, and a held tool never approved before.
func heldCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	old := &mcp.Tool{Name: "add", Description: "Adds two numbers.", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"}}}`)}
	cur := &mcp.Tool{Name: "add", Description: "Adds two numbers. <IMPORTANT>" + poison + "</IMPORTANT>", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"sidenote":{"type":"string","description":"` + poison + `"}}}`)}
	fresh := &mcp.Tool{Name: "fresh", Description: "Fresh " + poison, InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)}
	add := catalog.NewToolEntry("calc", "calc__add", cur)
	add.AlwaysLoad = true
	add.Hold(&catalog.Quarantine{Reason: trust.ReasonFlagged, Findings: scan.Tool(cur), Summary: trust.Summarize(old, cur), Previous: old, Review: "toolsearch review calc__add"})
	fr := catalog.NewToolEntry("calc", "calc__fresh", fresh)
	fr.Hold(&catalog.Quarantine{Reason: trust.ReasonNew, Summary: trust.Summarize(nil, fresh), Review: "toolsearch review calc__fresh"})
	c := catalog.New(ReservedNames...)
	c.Put(&catalog.Source{Name: "calc", Kind: catalog.SourceServer, State: catalog.StateActive, Entries: []*catalog.Entry{add, fr}})
	return c
}

// TestHeldToolsShowNoHeldText: listing, search at every detail, tools/list
// and calls show a held tool's name, its change and the command that
// shows the user the change, never its new text, nor how to approve it
// (a poisoned server would have the model run that); calls are refused
// before reaching the upstream.
func TestHeldToolsShowNoHeldText(t *testing.T) {
	up := &fakeUpstreams{}
	s, err := New(heldCatalog(t), Options{ListingBudget: DefaultListingBudget, Upstreams: up})
	if err != nil {
		t.Fatal(err)
	}
	cs, _ := connectClient(t, s, "")
	if strings.Contains(s.Description(), poison) {
		t.Error("the listing shows held text")
	}
	if names := toolNames(t, cs); strings.Contains(names, "calc__add") {
		t.Errorf("a held always-loaded tool is listed directly: %s", names)
	}
	for _, q := range []string{"select:calc__add,calc__fresh", "adds numbers", "fresh"} {
		for _, detail := range []string{DetailFull, DetailCompact, DetailNames} {
			text, res := callText(t, cs, ToolSearch, map[string]any{"query": q, "detail": detail})
			data, _ := json.Marshal(res.StructuredContent)
			if strings.Contains(text, poison) || strings.Contains(string(data), poison) || strings.Contains(text, "sidenote\":") {
				t.Errorf("%q at %s shows held text:\n%s", q, detail, text)
			}
			if strings.Contains(text+string(data), "approve calc__") {
				t.Errorf("%q at %s tells the model how to approve:\n%s\n%s", q, detail, text, data)
			}
			if strings.Contains(text, "calc__add") && !strings.Contains(text, "[quarantined: flagged by the scanner (model-directive, exfiltration); description changed; parameters added: sidenote. Calls are refused until the user approves it: ask them to review it with `toolsearch review calc__add`]") {
				t.Errorf("%q at %s lacks the quarantine note:\n%s", q, detail, text)
			}
		}
	}
	text, res := callText(t, cs, CallTool, map[string]any{"name": "calc__add", "arguments": map[string]any{"a": 1}})
	if !res.IsError || !strings.HasPrefix(text, "quarantined: calc__add is held for review") || strings.Contains(text, poison) {
		t.Errorf("call: %s", text)
	}
	if sc, _ := res.StructuredContent.(map[string]any); sc["error"] != "quarantined" || sc["review"] != "toolsearch review calc__add" || sc["approve"] != nil {
		t.Errorf("structured: %v", res.StructuredContent)
	}
	if !strings.Contains(text, "review the change with `toolsearch review calc__add`") || strings.Contains(text, "toolsearch approve") {
		t.Errorf("the call's refusal must name the review command and never the approval:\n%s", text)
	}
	if len(up.calls) > 0 {
		t.Errorf("a held tool reached the upstream: %v", up.calls)
	}
}
