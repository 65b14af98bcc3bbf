package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lockedBuffer is a trace the server writes while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Len()
}

// failingUpstream answers every call with an error result: a short first
// line, then a long text.
type failingUpstream struct{ rest int }

func (f failingUpstream) Call(context.Context, string, string, json.RawMessage) (*mcp.CallToolResult, error) {
	text := "the widget broke\n" + strings.Repeat("stack frame\n", f.rest/12)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: true}, nil
}

// TestActivityBoundsClientStrings: the client makes up tool names, queries
// and arguments' names, and an upstream its error text. A megabyte of
// either is neither repeated whole to the client (which the accounting then
// tokenizes) nor kept among the recent events, nor written to the trace;
// what is kept says it was cut.
func TestActivityBoundsClientStrings(t *testing.T) {
	var trace lockedBuffer
	s, err := New(testCatalog(t), Options{Activity: NewActivity(10, &trace, false), Upstreams: failingUpstream{rest: 1 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cs, _ := connectClient(t, s, "2025-11-25")
	long := "widget_" + strings.Repeat("x", 1<<20)

	calls := []struct {
		name string
		args map[string]any
	}{
		{long, nil},
		{ToolSearch, map[string]any{"query": long}},
		{ToolSearch, map[string]any{"query": "echo", "kind": long}},
		{CallTool, map[string]any{"name": long}},
		{CallTool, map[string]any{"name": "srv__echo", "arguments": map[string]any{long: 1}}},
		{CallTool, map[string]any{"name": "srv__ping"}}, // the upstream's long error, shown whole
		{ReadSkillFile, map[string]any{"skill": long, "path": "SKILL.md"}},
	}
	for _, c := range calls {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.name, Arguments: c.args})
		if err != nil {
			t.Fatalf("%.40s: %v", c.name, err)
		}
		text := resultText(res)
		if len(text) > 4<<10 && c.args["name"] != "srv__ping" {
			t.Errorf("%.40s %.60v: a message of %d bytes", c.name, c.args, len(text))
		}
		if strings.Contains(text, "widget_xxx") && !strings.Contains(text, "cut short") {
			t.Errorf("%.40s: the message repeats part of the name without saying it was cut: %.300s", c.name, text)
		}
	}
	s.flushCounts() // the events are recorded
	events := s.opts.Activity.Recent()
	if len(events) < len(calls) {
		t.Fatalf("%d events recorded, want %d", len(events), len(calls))
	}
	for _, ev := range events {
		for field, v := range map[string]string{"tool": ev.Tool, "target": ev.Target, "query": ev.Query, "error": ev.Error} {
			if len(v) > 2<<10 {
				t.Errorf("%s event: a %s of %d bytes kept: %.80s", ev.Method, field, len(v), v)
			}
		}
	}
	if n := trace.Len(); n > 32<<10 {
		t.Errorf("the trace holds %d bytes for %d events", n, len(events))
	}
	kept := false
	for _, ev := range events {
		kept = kept || strings.HasPrefix(ev.Tool, "widget_xxx") && strings.HasSuffix(ev.Tool, "(1048583 bytes)")
	}
	if !kept {
		t.Error("no event keeps the unknown tool's name by its start and its length")
	}
}

// TestActivityHoldsNoLongResult: an event keeps the first line of an
// upstream's error, in memory of its own, not a window on the whole result.
func TestActivityHoldsNoLongResult(t *testing.T) {
	const results, size = 10, 1 << 20
	s, err := New(testCatalog(t), Options{Activity: NewActivity(results, nil, false), Upstreams: failingUpstream{rest: size}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cs, _ := connectClient(t, s, "2025-11-25")
	heap := func() uint64 {
		// Twice: the encoders' pooled buffers of the last answer (a megabyte)
		// outlive one collection.
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	callText(t, cs, CallTool, map[string]any{"name": "srv__ping"}) // warm up
	s.flushCounts()
	before := heap()
	for range results {
		callText(t, cs, CallTool, map[string]any{"name": "srv__ping"})
	}
	s.flushCounts()
	after := heap()
	if grown := int64(after) - int64(before); grown > results*size/4 {
		t.Errorf("the heap grew by %d MB for %d events", grown>>20, results)
	}
	if got := s.opts.Activity.Recent()[0].Error; got != "the widget broke" {
		t.Errorf("error %.100q, want the first line", got)
	}
}

// TestLongScriptPathsCutShort: run_skill_script and read_skill_file refuse
// a path longer than any in a skill folder, and repeat only its start.
func TestLongScriptPathsCutShort(t *testing.T) {
	s := nestedServer(t)
	long := "scripts/" + strings.Repeat("x", 1<<20)
	text, failed := runText(s, "gamma", long)
	if !failed || len(text) > 1<<10 || !strings.Contains(text, "cut short") {
		t.Errorf("run_skill_script: failed %v, a message of %d bytes: %.200s", failed, len(text), text)
	}
	_, err := s.ReadSkillFile(ReadArgs{Skill: "gamma", Path: long})
	if err == nil || len(err.Error()) > 1<<10 || !strings.Contains(err.Error(), "cut short") {
		t.Errorf("read_skill_file: an error of %d bytes: %.200v", len(fmt.Sprint(err)), err)
	}
	// A path that could be one is looked for, and not found.
	_, err = s.ReadSkillFile(ReadArgs{Skill: "gamma", Path: "references/" + strings.Repeat("y", 300) + ".md"})
	if err == nil || !strings.Contains(err.Error(), "has no file") || !strings.Contains(err.Error(), "cut short") {
		t.Errorf("read_skill_file: %.200v", err)
	}
}
