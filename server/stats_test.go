package server

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader"
)

// recordHandler keeps log records for inspection.
type recordHandler struct {
	mu      sync.Mutex
	records []slog.Record
}

func (h *recordHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *recordHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.records = append(h.records, r.Clone())
	return nil
}
func (h *recordHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *recordHandler) WithGroup(string) slog.Handler      { return h }

// find returns the attributes of the first record with the message and
// the attribute key=value.
func (h *recordHandler) find(msg, key string, value int64) (map[string]slog.Value, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range h.records {
		attrs := map[string]slog.Value{}
		r.Attrs(func(a slog.Attr) bool { attrs[a.Key] = a.Value; return true })
		if r.Message == msg && attrs[key].Kind() == slog.KindInt64 && attrs[key].Int64() == value {
			return attrs, true
		}
	}
	return nil, false
}

func readStats(t *testing.T, cs *mcp.ClientSession) SessionStats {
	t.Helper()
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: StatsURI})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Contents) != 1 || res.Contents[0].MIMEType != "application/json" {
		t.Fatalf("stats contents %+v", res.Contents)
	}
	var st SessionStats
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

func TestStatsAfterAScriptedSession(t *testing.T) { synctest.Test(t, testStatsAfterAScriptedSession) }

func testStatsAfterAScriptedSession(t *testing.T) {
	logs := &recordHandler{}
	s, err := New(testCatalog(t), Options{ListingBudget: DefaultListingBudget, Upstreams: &fakeUpstreams{}, Logger: slog.New(logs)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	count := s.Tokens().Count
	cs, _ := connectClient(t, s, "2025-11-25")

	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	searchText, _ := callText(t, cs, ToolSearch, map[string]any{"query": "echo a message"})
	proxied, _ := callText(t, cs, CallTool, map[string]any{"name": "srv__echo", "arguments": map[string]any{"message": "hi"}})
	direct, _ := callText(t, cs, "srv__echo", map[string]any{"message": "direct"})
	refused, _ := callText(t, cs, CallTool, map[string]any{"name": "nope"})

	first := readStats(t, cs)
	st := readStats(t, cs) // now includes the first read

	if st.Searches != 1 || st.Calls != 3 {
		t.Errorf("searches %d, calls %d; want 1 and 3", st.Searches, st.Calls)
	}
	if got, want := st.ByTool[ToolSearch], (Tally{1, count(searchText)}); got != want {
		t.Errorf("tool_search tally %+v, want %+v", got, want)
	}
	if got, want := st.ByTool["srv__echo"], (Tally{2, count(proxied) + count(direct)}); got != want {
		t.Errorf("srv__echo tally %+v, want %+v (call_tool and direct calls booked to the target)", got, want)
	}
	if got, want := st.BySource["srv"], st.ByTool["srv__echo"]; got != want {
		t.Errorf("srv source %+v, want %+v", got, want)
	}
	if got := st.ByTool[CallTool]; got != (Tally{1, count(refused)}) {
		t.Errorf("unresolved call_tool %+v", got)
	}

	// The listing is what Measure counts up front: instructions plus the
	// exact tools/list.
	rep, err := s.Measure(context.Background(), MeasureOptions{Queries: []string{"x"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := st.BySource[ListingSource].Tokens, rep.Total.UpFront; got != want {
		t.Errorf("listing %d tokens, want the %d Measure counts up front", got, want)
	}
	firstRead := st.BySource[OverheadSource].Tokens - first.BySource[OverheadSource].Tokens
	if firstRead <= 0 || st.ByMethod["resources/read"].Results != 1 {
		t.Errorf("the first stats read was not booked: %+v then %+v", first.BySource, st.BySource)
	}
	sum := 0
	for _, tally := range st.BySource {
		sum += tally.Tokens
	}
	if sum != st.Tokens || st.Discovery != st.BySource[ListingSource].Tokens+st.BySource[OverheadSource].Tokens {
		t.Errorf("sources sum to %d, total %d, discovery %d", sum, st.Tokens, st.Discovery)
	}
	if st.Eager.Tokens != rep.Total.Eager || st.Eager.Entries != rep.Total.Entries || st.Tokenizer != rep.Tokenizer {
		t.Errorf("eager %+v, want %d tokens over %d entries", st.Eager, rep.Total.Eager, rep.Total.Entries)
	}

	// Ending the session logs its summary (Measure's own session logged
	// one already, without searches).
	cs.Close()
	synctest.Wait() // the session has ended and its summary is logged
	attrs, ok := logs.find("session summary", "searches", 1)
	if !ok {
		t.Fatal("no session summary logged")
	}
	if attrs["calls"].Int64() != 3 || attrs["eager_tokens"].Int64() != int64(rep.Total.Eager) || attrs["tokens"].Int64() < int64(st.Tokens) {
		t.Errorf("summary %v", attrs)
	}
}

func TestStatsAreKeptPerSession(t *testing.T) {
	s, _ := New(testCatalog(t), Options{ListingBudget: DefaultListingBudget})
	defer s.Close()
	// Two sessions of one MCP server, as over HTTP.
	ms := s.NewMCPServer()
	defer s.Release(ms)
	connect := func() *mcp.ClientSession {
		return connectTo(t, ms, mcp.NewClient(&mcp.Implementation{Name: "test"}, nil), "")
	}
	a, b := connect(), connect()
	callText(t, a, ToolSearch, map[string]any{"query": "echo"})
	callText(t, a, ToolSearch, map[string]any{"query": "ping"})
	if got := readStats(t, a).Searches; got != 2 {
		t.Errorf("session a: %d searches, want 2", got)
	}
	if got := readStats(t, b).Searches; got != 0 {
		t.Errorf("session b: %d searches, want 0", got)
	}
}

func TestAttributeSkillCalls(t *testing.T) {
	s, _ := New(measureCatalog(t), Options{ListingBudget: DefaultListingBudget})
	defer s.Close()
	tests := []struct {
		name, args   string
		tool, source string
	}{
		{RunScript, `{"skill": "release-notes", "script": "scripts/collect.sh"}`, "release-notes:scripts/collect.sh", loader.SkillsSourceName},
		{ReadSkillFile, `{"skill": "release-notes", "path": "SKILL.md"}`, ReadSkillFile, loader.SkillsSourceName},
		{RunScript, `{"skill": "nope", "script": "x"}`, RunScript, OverheadSource},
		{CallTool, `{"name": "echo"}`, "srv__echo", "srv"}, // by its upstream name
		{ToolSearch, `{"query": "x"}`, ToolSearch, OverheadSource},
	}
	for _, tt := range tests {
		tool, source := s.attributeCall(tt.name, json.RawMessage(tt.args))
		if tool != tt.tool || source != tt.source {
			t.Errorf("%s %s: booked to %s/%s, want %s/%s", tt.name, tt.args, tool, source, tt.tool, tt.source)
		}
	}
}

func TestResultTokens(t *testing.T) {
	s, _ := New(testCatalog(t), Options{})
	defer s.Close()
	count := s.Tokens().Count
	list := &mcp.ListResourcesResult{Resources: []*mcp.Resource{{URI: "a://b", Name: "b"}}}
	listJSON, _ := json.Marshal(list)
	tests := []struct {
		name   string
		res    mcp.Result
		tokens int
		blob   int64
	}{
		{"text wins over structured content", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hello world"}}, StructuredContent: map[string]any{"a": strings.Repeat("x ", 50)}}, 2, 0},
		{"structured content without text", &mcp.CallToolResult{StructuredContent: map[string]any{"ok": true}}, count(`{"ok":true}`), 0},
		{"images are bytes", &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: make([]byte, 100), MIMEType: "image/png"}}}, 0, 100},
		{"resource text and blob", &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "skill://a/SKILL.md", Text: "hello world"}, {URI: "skill://a/x.bin", Blob: make([]byte, 7)}}}, 2, 7},
		{"prompt messages", &mcp.GetPromptResult{Description: "not read", Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "hello world"}}}}, 2, 0},
		{"instructions only", &mcp.InitializeResult{Instructions: "hello world", ProtocolVersion: "2025-11-25"}, 2, 0},
		{"lists as JSON", list, count(string(listJSON)), 0},
	}
	for _, tt := range tests {
		tokens, blob := s.resultTokens(tt.res)
		if tokens != tt.tokens || blob != tt.blob {
			t.Errorf("%s: %d tokens, %d blob bytes; want %d, %d", tt.name, tokens, blob, tt.tokens, tt.blob)
		}
	}
}

// A stdio process exits as soon as its session ends: Release must log the
// summary itself rather than leave it to a goroutine that may never run.
func TestReleaseLogsOpenSessions(t *testing.T) { synctest.Test(t, testReleaseLogsOpenSessions) }

func testReleaseLogsOpenSessions(t *testing.T) {
	logs := &recordHandler{}
	s, _ := New(testCatalog(t), Options{ListingBudget: DefaultListingBudget, Logger: slog.New(logs)})
	defer s.Close()
	ms := s.NewMCPServer()
	cs := connectTo(t, ms, mcp.NewClient(&mcp.Implementation{Name: "test"}, nil), "")
	callText(t, cs, ToolSearch, map[string]any{"query": "echo"})
	s.Release(ms)
	if _, ok := logs.find("session summary", "searches", 1); !ok {
		t.Error("no session summary logged on release")
	}
	s.Release(ms) // twice is harmless
	cs.Close()
	synctest.Wait() // closeOnEnd has run: it must not log again
	n := 0
	logs.mu.Lock()
	for _, r := range logs.records {
		if r.Message == "session summary" {
			n++
		}
	}
	logs.mu.Unlock()
	if n != 1 {
		t.Errorf("%d session summaries, want 1", n)
	}
	s.Release(ms)
}
