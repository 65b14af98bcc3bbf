package main

import (
	"strings"
	"testing"
)

// TestServeToolsThatDifferOnlyInCase runs a real upstream whose tools/list has
// calculate_bmi and calculate_BMI. MCP's tool names are case-sensitive, so they
// are two tools: toolsearch once refused the second as a collision, which left
// it unreachable. Each is found, described and called by its own name; a name
// in neither's case is refused with both to choose from.
func TestServeToolsThatDifferOnlyInCase(t *testing.T) {
	e := newTrustEnv(t)
	e.setTools(`[
		{"name": "calculate_bmi", "description": "Body mass index from pounds and inches.", "inputSchema": {"type": "object"}, "_meta": {"version": "imperial"}},
		{"name": "calculate_BMI", "description": "Body mass index from kilograms and metres.", "inputSchema": {"type": "object"}, "_meta": {"version": "metric"}}
	]`)
	s := e.serve()
	call := func(name string) map[string]any {
		return map[string]any{"name": name, "arguments": map[string]any{}}
	}
	waitForCall(t, s, "the first listing", "call_tool", call("calc__calculate_bmi"), contains("ran calculate_bmi imperial"))
	if text, res := s.call(t, "call_tool", call("calc__calculate_BMI")); res.IsError || !strings.Contains(text, "ran calculate_BMI metric") {
		t.Errorf("call calc__calculate_BMI: %s", text)
	}
	text, res := s.call(t, "call_tool", call("calc__Calculate_Bmi"))
	if !res.IsError || !strings.Contains(text, "call one of calc__calculate_BMI, calc__calculate_bmi") {
		t.Errorf("call in neither's case: %s", text)
	}
	for name, desc := range map[string]string{"calc__calculate_bmi": "pounds and inches", "calc__calculate_BMI": "kilograms and metres"} {
		text, _ := s.call(t, "tool_search", map[string]any{"query": "select:" + name})
		if !strings.Contains(text, "## 1. "+name) || !strings.Contains(text, desc) || strings.Contains(text, "## 2.") {
			t.Errorf("select:%s:\n%s", name, text)
		}
	}
	if text, _ := s.call(t, "tool_search", map[string]any{"query": "body mass index"}); !strings.Contains(text, "calc__calculate_bmi") || !strings.Contains(text, "calc__calculate_BMI") {
		t.Errorf("a search finds only one:\n%s", text)
	}
}
