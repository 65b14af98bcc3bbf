package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/trust"
)

func TestConnectListCall(t *testing.T) {
	e := newEnv(t)
	f := e.add("fake", &mcp.ServerOptions{Instructions: "Use fake for echoes."})
	f.addEcho("echo", "Echo the arguments.")
	f.AddTool(&mcp.Tool{
		Name: "rich", Title: "Rich", Description: "Has everything.",
		InputSchema:  map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}},
		OutputSchema: map[string]any{"type": "object"},
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true},
		Icons:        []mcp.Icon{{Source: "https://example.com/i.png"}},
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{StructuredContent: map[string]any{}}, nil
	})

	var states []catalog.State
	var mu sync.Mutex
	defer e.catalog.Subscribe(func(_, s *catalog.Snapshot) {
		if src, ok := s.Source("fake"); ok {
			mu.Lock()
			if len(states) == 0 || states[len(states)-1] != src.State {
				states = append(states, src.State)
			}
			mu.Unlock()
		}
	})()
	m := e.start()
	src := waitSource(t, e.catalog, "fake", "active", inState(catalog.StateActive))
	mu.Lock()
	if want := []catalog.State{catalog.StateConnecting, catalog.StateActive}; !slices.Equal(states, want) {
		t.Errorf("states = %v, want %v", states, want)
	}
	mu.Unlock()

	if got, want := entryNames(src), []string{"fake__echo", "fake__rich"}; !slices.Equal(got, want) {
		t.Fatalf("entries = %v, want %v", got, want)
	}
	if src.Kind != catalog.SourceServer || src.Instructions != "Use fake for echoes." || src.LastListed.IsZero() || src.LastError != "" {
		t.Errorf("source = %+v", src)
	}
	rich := src.Entries[1]
	if rich.Upstream != "rich" || rich.Tool.Title != "Rich" || rich.Tool.OutputSchema == nil ||
		rich.Tool.Annotations == nil || !rich.Tool.Annotations.ReadOnlyHint || len(rich.Tool.Icons) != 1 ||
		rich.Policy != catalog.PolicyCallable || rich.Changed || rich.AlwaysLoad {
		t.Errorf("rich entry lost part of its definition: %+v, tool %+v", rich, rich.Tool)
	}
	// Schemas are kept as JSON, not as the maps the client decodes them into.
	if in, ok := rich.Tool.InputSchema.(json.RawMessage); !ok || string(in) != `{"properties":{"q":{"type":"string"}},"type":"object"}` {
		t.Errorf("input schema kept as %T %s", rich.Tool.InputSchema, in)
	}
	if _, ok := rich.Tool.OutputSchema.(json.RawMessage); !ok {
		t.Errorf("output schema kept as %T", rich.Tool.OutputSchema)
	}

	res, err := m.Call(context.Background(), "fake", "echo", json.RawMessage(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := textOf(res); got != `echo {"a":1}` {
		t.Errorf("result = %q", got)
	}
	if _, err := m.Call(context.Background(), "fake", "echo", nil); err != nil {
		t.Errorf("call without arguments: %v", err)
	}

	// Concurrent calls share the session.
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := range 50 {
		wg.Go(func() {
			res, err := m.Call(context.Background(), "fake", "echo", json.RawMessage(fmt.Sprintf(`{"i":%d}`, i)))
			if err == nil && textOf(res) != fmt.Sprintf(`echo {"i":%d}`, i) {
				err = fmt.Errorf("call %d got %q", i, textOf(res))
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}

	st := m.Status()
	if len(st) != 1 || st[0].State != catalog.StateActive || st[0].Tools != 2 || st[0].PID != 0 {
		t.Errorf("status = %+v", st)
	}
}

func TestCallErrors(t *testing.T) {
	e := newEnv(t)
	e.add("fake", nil).addEcho("echo", "Echo.")
	e.opts.Settings["fake"] = Settings{Policy: map[string]catalog.Policy{"echo": catalog.PolicyHidden}}
	m := e.start()
	waitSource(t, e.catalog, "fake", "active", inState(catalog.StateActive))
	ctx := context.Background()

	_, err := m.Call(ctx, "fake", "nosuch", nil)
	var ce *CallError
	var we *jsonrpc.Error
	if !errors.As(err, &ce) || !errors.As(err, &we) || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("unknown tool: got %v, want a *CallError with the JSON-RPC error", err)
	}
	if _, err := m.Call(ctx, "other", "echo", nil); !errors.Is(err, ErrUnknownServer) {
		t.Errorf("unknown server: got %v", err)
	}
	if _, err := m.Call(ctx, "fake", "echo", nil); err == nil || !strings.Contains(err.Error(), "hidden") {
		t.Errorf("hidden tool: got %v, want a refusal", err)
	}
}

func TestListChanged(t *testing.T) {
	e := newEnv(t)
	f := e.add("fake", nil)
	f.addEcho("one", "First.")
	m := e.start()
	waitSource(t, e.catalog, "fake", "active", inState(catalog.StateActive))

	gate := make(chan struct{})
	f.gateList(gate)
	f.addEcho("two", "Second.") // notifies tools/list_changed
	src := waitSource(t, e.catalog, "fake", "validating", inState(catalog.StateValidating))
	if got := entryNames(src); !slices.Equal(got, []string{"fake__one"}) {
		t.Errorf("while validating, entries = %v, want the old list", got)
	}
	// A call while the server re-lists its tools waits for it.
	called := make(chan error, 1)
	go func() {
		_, err := m.Call(context.Background(), "fake", "one", nil)
		called <- err
	}()
	select {
	case err := <-called:
		t.Fatalf("the call while validating did not wait: %v", err)
	case <-time.After(50 * time.Millisecond):
	}

	close(gate)
	if err := recv(t, called, "the call made while validating"); err != nil {
		t.Errorf("call while validating: %v", err)
	}
	src = waitSource(t, e.catalog, "fake", "the new tool", func(s *catalog.Source) bool {
		return s.State == catalog.StateActive && len(s.Entries) == 2
	})
	if got := entryNames(src); !slices.Equal(got, []string{"fake__one", "fake__two"}) {
		t.Errorf("entries = %v", got)
	}
	if _, err := m.Call(context.Background(), "fake", "two", nil); err != nil {
		t.Error(err)
	}
}

// Bulk reports a listing under way, from its first page to its save, so
// that the process's collector keeps its garbage small; a Manager of no
// servers is never at it.
func TestBulkWhileListing(t *testing.T) {
	if (*Manager)(nil).Bulk() {
		t.Error("a nil Manager reports bulk work")
	}
	e := newEnv(t)
	f := e.add("fake", nil)
	f.addEcho("one", "First.")
	gate := make(chan struct{})
	f.gateList(gate)
	m := e.start()
	waitFor(t, "bulk work while the tools are listed", m.Bulk)
	close(gate)
	waitSource(t, e.catalog, "fake", "active", inState(catalog.StateActive))
	waitFor(t, "the end of bulk work once listed and saved", func() bool { return !m.Bulk() })
	if _, err := os.Stat(m.servers["fake"].id.file); err != nil {
		t.Errorf("bulk work over before the catalog was saved: %v", err)
	}
}

func TestZeroToolsKeepLastList(t *testing.T) {
	e := newEnv(t)
	f := e.add("fake", nil)
	f.addEcho("one", "First.")
	m := e.start()
	waitSource(t, e.catalog, "fake", "active", inState(catalog.StateActive))

	f.RemoveTools("one")
	src := waitSource(t, e.catalog, "fake", "the warning", func(s *catalog.Source) bool {
		return s.State == catalog.StateActive && s.LastError != ""
	})
	if got := entryNames(src); !slices.Equal(got, []string{"fake__one"}) || !strings.Contains(src.LastError, "no tools") {
		t.Errorf("after an empty listing: entries %v, last error %q", got, src.LastError)
	}

	// An explicit refresh accepts the empty list.
	if err := m.Refresh(context.Background(), "fake"); err != nil {
		t.Fatal(err)
	}
	src, _ = e.catalog.Snapshot().Source("fake")
	if len(src.Entries) != 0 || src.LastError != "" || src.State != catalog.StateActive {
		t.Errorf("after refresh: %+v", src)
	}

	// A real list replaces it again.
	f.addEcho("two", "Second.")
	waitSource(t, e.catalog, "fake", "the new list", func(s *catalog.Source) bool { return len(s.Entries) == 1 })
}

func TestCrashRecovery(t *testing.T) {
	t.Run("backoff", func(t *testing.T) {
		e := newEnv(t)
		f := e.add("fake", nil)
		f.addEcho("echo", "Echo.")
		e.start()
		waitSource(t, e.catalog, "fake", "active", inState(catalog.StateActive))

		f.crash()
		src := waitSource(t, e.catalog, "fake", "failed", inState(catalog.StateFailed))
		if src.LastError == "" || len(src.Entries) != 1 {
			t.Errorf("failed source: %+v", src)
		}
		waitSource(t, e.catalog, "fake", "active again", inState(catalog.StateActive))
		if n := f.dialCount(); n != 2 {
			t.Errorf("dialled %d times, want 2", n)
		}
	})
	t.Run("call", func(t *testing.T) {
		e := newEnv(t)
		f := e.add("fake", nil)
		f.addEcho("echo", "Echo.")
		m := New(e.configs(), e.opts)
		m.firstBackoff = time.Hour // only the call can bring it back
		m.Start(context.Background())
		defer m.Close()
		waitSource(t, e.catalog, "fake", "active", inState(catalog.StateActive))

		f.crash()
		waitSource(t, e.catalog, "fake", "failed", inState(catalog.StateFailed))
		res, err := m.Call(context.Background(), "fake", "echo", json.RawMessage(`{}`))
		if err != nil {
			t.Fatalf("call after a crash: %v", err)
		}
		if textOf(res) != "echo {}" || f.dialCount() != 2 {
			t.Errorf("got %q after %d dials", textOf(res), f.dialCount())
		}
	})
	t.Run("call fails fast when reconnecting fails", func(t *testing.T) {
		e := newEnv(t)
		f := e.add("fake", nil)
		f.addEcho("echo", "Echo.")
		m := New(e.configs(), e.opts)
		m.firstBackoff = time.Hour
		m.Start(context.Background())
		defer m.Close()
		waitSource(t, e.catalog, "fake", "active", inState(catalog.StateActive))

		f.mu.Lock()
		f.dialErr = errors.New("server unreachable")
		f.mu.Unlock()
		f.crash()
		waitSource(t, e.catalog, "fake", "failed", inState(catalog.StateFailed))
		_, err := m.Call(context.Background(), "fake", "echo", nil)
		var na *NotActiveError
		if !errors.As(err, &na) || na.State != catalog.StateFailed || !strings.Contains(na.Reason, "server unreachable") {
			t.Errorf("got %v, want a NotActiveError with the dial error", err)
		}
	})
}

// A server that stops answering pings is reconnected without waiting for a
// call to find out; one that answers them is left alone.
func TestKeepAlive(t *testing.T) {
	e := newEnv(t)
	e.opts.KeepAlive = 20 * time.Millisecond
	// Pings keep connections of protocols before 2026-07-28.
	f := e.add("old", &mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
	f.addEcho("echo", "Echo.")
	e.start()
	waitSource(t, e.catalog, "old", "active", inState(catalog.StateActive))
	time.Sleep(200 * time.Millisecond) // ten pings answered
	if n := f.dialCount(); n != 1 {
		t.Fatalf("dialled %d times while the server answered pings, want 1", n)
	}

	gate := make(chan struct{})
	f.gatePing(gate)
	src := waitSource(t, e.catalog, "old", "failed", inState(catalog.StateFailed))
	if src.LastError == "" {
		t.Error("failed without a reason")
	}
	f.gatePing(nil)
	close(gate)
	waitSource(t, e.catalog, "old", "active again", inState(catalog.StateActive))
	if n := f.dialCount(); n != 2 {
		t.Errorf("dialled %d times, want 2", n)
	}
}

func TestCallTimeoutAndCancel(t *testing.T) {
	e := newEnv(t)
	f := e.add("fake", nil)
	started := make(chan struct{}, 1)
	cancelled := make(chan struct{}, 1)
	f.AddTool(&mcp.Tool{Name: "slow", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			started <- struct{}{}
			<-ctx.Done()
			cancelled <- struct{}{}
			return nil, ctx.Err()
		})
	e.opts.Settings["fake"] = Settings{Timeout: 50 * time.Millisecond}
	m := e.start()
	waitSource(t, e.catalog, "fake", "active", inState(catalog.StateActive))

	_, err := m.Call(context.Background(), "fake", "slow", nil)
	var te *TimeoutError
	if !errors.As(err, &te) || !te.Timeout() || te.Limit != 50*time.Millisecond {
		t.Fatalf("got %v, want a TimeoutError", err)
	}
	recv(t, started, "the slow tool to start")
	recv(t, cancelled, "the timed-out call to be cancelled upstream")

	// The caller's cancellation reaches the tool too.
	u := m.servers["fake"]
	u.setMu.Lock() // the server's loop reads its settings meanwhile
	u.set.Timeout = time.Hour
	u.setMu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := m.Call(ctx, "fake", "slow", nil)
		done <- err
	}()
	recv(t, started, "the slow tool to start")
	cancel()
	recv(t, cancelled, "the cancellation to reach the tool")
	if err := recv(t, done, "the call to return"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled call returned %v", err)
	}

	// The server still works.
	if st := m.Status(); st[0].State != catalog.StateActive {
		t.Errorf("state after the timeouts: %s", st[0].State)
	}
}

func TestConnectTimeout(t *testing.T) {
	e := newEnv(t)
	f := e.add("fake", nil)
	f.initGate = make(chan struct{}) // never answers
	e.opts.ConnectTimeout = 50 * time.Millisecond
	m := New(e.configs(), e.opts)
	m.firstBackoff = time.Hour
	m.Start(context.Background())
	defer m.Close()
	src := waitSource(t, e.catalog, "fake", "failed", inState(catalog.StateFailed))
	if !strings.Contains(src.LastError, "no answer to initialization within 50ms") {
		t.Errorf("last error = %q", src.LastError)
	}
}

func TestManyToolsAcrossPages(t *testing.T) {
	e := newEnv(t)
	f := e.add("big", &mcp.ServerOptions{PageSize: 7})
	var tools []*mcp.Tool
	for i := range 1000 {
		tools = append(tools, &mcp.Tool{Name: fmt.Sprintf("tool_%04d", i), Description: "A tool.", InputSchema: map[string]any{"type": "object"}})
	}
	for _, tool := range tools {
		f.AddTool(tool, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	}
	e.start()
	src := waitSource(t, e.catalog, "big", "active", inState(catalog.StateActive))
	if len(src.Entries) != 1000 || src.Entries[999].Name != "big__tool_0999" {
		t.Errorf("got %d entries", len(src.Entries))
	}
}

// TestNamesRefused: the catalog keeps the names MCP allows, however long
// once prefixed with the server's name (the call proxy reaches them; only
// a tool listed to the host directly must fit model APIs), and refuses
// the others with what to do.
func TestNamesRefused(t *testing.T) {
	e := newEnv(t)
	long := "a_server_name_that_is_rather_long"
	own64 := strings.Repeat("n", 64)
	f := e.add(long, nil)
	f.addEcho("short", "Fits.")
	f.addEcho(own64, "64 characters of its own, 99 once prefixed.")
	f.addEcho("dotted.name", "Dots are fine in MCP.")
	f.addEcho(strings.Repeat("m", 129), "Longer than MCP allows.")
	f.addEcho("spaced name", "A space MCP does not allow.")
	// a__b exposes c as a__b__c, as a exposes b__c: the catalog keeps
	// the first source's.
	e.add("a", nil).addEcho("b__c", "From a.")
	e.add("a__b", nil).addEcho("c", "From a__b.")
	m := New([]ServerConfig{{Name: "a", Type: TypeStdio}, {Name: "a__b", Type: TypeStdio}, {Name: long, Type: TypeStdio}}, e.opts)
	m.Start(context.Background())
	defer m.Close()

	src := waitSource(t, e.catalog, long, "active", inState(catalog.StateActive))
	if got, want := entryNames(src), []string{long + "__dotted.name", long + "__" + own64, long + "__short"}; !slices.Equal(got, want) {
		t.Errorf("entries = %v, want %v", got, want)
	}
	reasons := map[string]string{}
	for _, r := range src.Refused {
		reasons[r.Entry.Upstream] = r.Reason
	}
	if r := reasons[strings.Repeat("m", 129)]; !strings.Contains(r, "over the 128 that MCP allows") || !strings.Contains(r, "the server must give it a shorter one") {
		t.Errorf("too long: reason %q", r)
	}
	if r := reasons["spaced name"]; !strings.Contains(r, "characters outside") {
		t.Errorf("bad characters: reason %q", r)
	}

	waitSource(t, e.catalog, "a", "active", inState(catalog.StateActive))
	waitSource(t, e.catalog, "a__b", "active", inState(catalog.StateActive))
	snap := e.catalog.Snapshot()
	if got, ok := snap.Lookup("a__b__c"); !ok || got.Source != "a" {
		t.Errorf("a__b__c = %+v, want a's tool", got)
	}
	var collision bool
	for _, r := range snap.Refused {
		collision = collision || (r.Entry.Source == "a__b" && strings.Contains(r.Reason, "collides"))
	}
	if !collision {
		t.Errorf("a__b's tool was not refused: %+v", snap.Refused)
	}
}

func TestPolicyAndAlwaysLoad(t *testing.T) {
	e := newEnv(t)
	f := e.add("fake", nil)
	for _, name := range []string{"get_weather", "get_secret", "delete_all", "list"} {
		f.addEcho(name, "A tool.")
	}
	e.opts.Settings["fake"] = Settings{
		AlwaysLoad: []string{"get_*"},
		Policy: map[string]catalog.Policy{
			"*":          catalog.PolicyVisibleOnly,
			"get_*":      catalog.PolicyCallable,
			"get_secret": catalog.PolicyHidden,
			"delete_*":   "nonsense", // read as hidden
		},
	}
	m := e.start()
	src := waitSource(t, e.catalog, "fake", "active", inState(catalog.StateActive))
	got := map[string]string{}
	for _, en := range src.Entries {
		got[en.Upstream] = fmt.Sprintf("%s %v", en.Policy, en.AlwaysLoad)
	}
	want := map[string]string{
		"get_weather": "callable true",
		"get_secret":  "hidden true",
		"delete_all":  "hidden false",
		"list":        "visible_only false",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("policies = %v, want %v", got, want)
	}
	if _, err := m.Call(context.Background(), "fake", "list", nil); err == nil {
		t.Error("a visible_only tool was called")
	}
	if _, err := m.Call(context.Background(), "fake", "get_weather", nil); err != nil {
		t.Error(err)
	}
}

func TestPersistedCatalog(t *testing.T) {
	e := newEnv(t)
	f := e.add("fake", &mcp.ServerOptions{Instructions: "Fake things."})
	f.addEcho("stable", "Never changes.")
	f.addEcho("shifty", "Version one.")
	m := e.start()
	waitSource(t, e.catalog, "fake", "active", inState(catalog.StateActive))
	m.Close()

	// A restarted toolsearch publishes the last known tools before the
	// server answers.
	blocked := e.opts
	blocked.Catalog = catalog.New()
	dialled := make(chan struct{})
	blocked.Dial = func(ctx context.Context, _ ServerConfig) (mcp.Transport, error) {
		close(dialled)
		<-ctx.Done()
		return nil, ctx.Err()
	}
	blocked.ConnectWait = 20 * time.Millisecond
	m2 := New(e.configs(), blocked)
	m2.Start(context.Background())
	src, _ := blocked.Catalog.Snapshot().Source("fake")
	if src == nil || src.State != catalog.StateConnecting || !slices.Equal(entryNames(src), []string{"fake__shifty", "fake__stable"}) ||
		src.Instructions != "Fake things." || src.LastListed.IsZero() || !src.Cached || src.EntryState() != catalog.StateCached {
		t.Errorf("published at start: %+v", src)
	}
	if _, ok := src.Entries[0].Tool.InputSchema.(json.RawMessage); !ok {
		t.Errorf("persisted schema read back as %T, want JSON", src.Entries[0].Tool.InputSchema)
	}
	recv(t, dialled, "the dial")
	_, err := m2.Call(context.Background(), "fake", "stable", nil)
	var na *NotActiveError
	if !errors.As(err, &na) || na.State != catalog.StateConnecting || !strings.Contains(na.Reason, "still connecting after waiting 20ms") {
		t.Errorf("call while connecting: %v", err)
	}
	m2.Close()

	// The definition changes; the mark survives another restart.
	f.RemoveTools("shifty")
	f.addEcho("shifty", "Version two.")
	for range 2 {
		e.catalog = catalog.New()
		e.opts.Catalog = e.catalog
		m3 := e.start()
		src = waitSource(t, e.catalog, "fake", "active", func(s *catalog.Source) bool {
			return s.State == catalog.StateActive && len(s.Entries) == 2 && s.Entries[0].Tool.Description == "Version two."
		})
		if !src.Entries[0].Changed || src.Entries[1].Changed {
			t.Errorf("changed marks: shifty %v, stable %v", src.Entries[0].Changed, src.Entries[1].Changed)
		}
		m3.Close()
	}

	// Until it is reset.
	m4 := e.start()
	waitSource(t, e.catalog, "fake", "active", inState(catalog.StateActive))
	if err := m4.ResetChanged("fake"); err != nil {
		t.Fatal(err)
	}
	src, _ = e.catalog.Snapshot().Source("fake")
	if src.Entries[0].Changed {
		t.Error("still marked changed after ResetChanged")
	}
	m4.Close()
	e.opts.Catalog = catalog.New()
	LoadPersisted(e.configs(), e.opts)
	if src, _ := e.opts.Catalog.Snapshot().Source("fake"); len(src.Entries) != 2 || src.Entries[0].Changed {
		t.Errorf("LoadPersisted after reset: %+v", src)
	}
}

func TestDisabled(t *testing.T) {
	e := newEnv(t)
	f := e.add("fake", nil)
	f.addEcho("echo", "Echo.")
	first := e.start()
	waitSource(t, e.catalog, "fake", "active", inState(catalog.StateActive))
	first.Close() // leaves a last known catalog

	e.opts.Catalog = catalog.New()
	e.opts.Settings["fake"] = Settings{Disabled: true}
	m := New(e.configs(), e.opts)
	m.Start(context.Background())
	defer m.Close()
	src, _ := e.opts.Catalog.Snapshot().Source("fake")
	if src.State != catalog.StateDisabled || !slices.Equal(entryNames(src), []string{"fake__echo"}) {
		t.Errorf("disabled source: %+v", src)
	}
	_, err := m.Call(context.Background(), "fake", "echo", nil)
	var na *NotActiveError
	if !errors.As(err, &na) || na.State != catalog.StateDisabled {
		t.Errorf("call: got %v", err)
	}
	if err := m.Refresh(context.Background(), "fake"); !errors.As(err, &na) {
		t.Errorf("refresh: got %v", err)
	}
	m.Close()
	if n := f.dialCount(); n != 1 {
		t.Errorf("dialled %d times; a disabled server must not be", n)
	}
}

// startForeverCall starts a manager with one server, whose tool "forever"
// runs until it is cancelled, and a call of that tool; it returns once the
// call runs, with where its error will arrive.
func startForeverCall(t *testing.T) (*Manager, <-chan error) {
	t.Helper()
	e := newEnv(t)
	f := e.add("fake", nil)
	started := make(chan struct{})
	f.AddTool(&mcp.Tool{Name: "forever", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			close(started)
			<-ctx.Done()
			return nil, ctx.Err()
		})
	e.opts.Settings["fake"] = Settings{Timeout: time.Hour}
	m := e.start()
	waitSource(t, e.catalog, "fake", "active", inState(catalog.StateActive))
	done := make(chan error, 1)
	go func() {
		_, err := m.Call(context.Background(), "fake", "forever", nil)
		done <- err
	}()
	recv(t, started, "the call to start")
	return m, done
}

func TestCloseEndsCallsInFlight(t *testing.T) {
	m, done := startForeverCall(t)
	m.Close()
	var ce *CallError
	if err := recv(t, done, "the call to end"); !errors.As(err, &ce) {
		t.Errorf("call during Close returned %v", err)
	}
	if _, err := m.Call(context.Background(), "fake", "forever", nil); !errors.Is(err, ErrClosed) {
		t.Errorf("call after Close returned %v", err)
	}
}

func TestShutdownGivesCallsTheGrace(t *testing.T) {
	e := newEnv(t)
	f := e.add("fake", nil)
	started, finish := make(chan struct{}), make(chan struct{})
	f.AddTool(&mcp.Tool{Name: "slow", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			close(started)
			select {
			case <-finish:
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		})
	e.opts.Settings["fake"] = Settings{Timeout: time.Hour}
	m := e.start()
	waitSource(t, e.catalog, "fake", "active", inState(catalog.StateActive))
	done := make(chan error, 1)
	go func() {
		res, err := m.Call(context.Background(), "fake", "slow", nil)
		if err == nil && textOf(res) != "done" {
			err = fmt.Errorf("result %+v", res)
		}
		done <- err
	}()
	recv(t, started, "the call to start")

	shut := make(chan error, 1)
	go func() { shut <- m.Shutdown(context.Background()) }()
	// Shutdown has begun once new calls are refused; the call in flight
	// goes on, and so does its server.
	for {
		if _, err := m.Call(context.Background(), "fake", "no_such_tool", nil); errors.Is(err, ErrClosed) {
			break
		}
	}
	select {
	case err := <-shut:
		t.Fatalf("Shutdown returned %v with a call in flight", err)
	case err := <-done:
		t.Fatalf("the call in flight ended with %v once Shutdown began", err)
	default:
	}
	close(finish)
	if err := recv(t, done, "the call to end"); err != nil {
		t.Errorf("the call in flight: %v", err)
	}
	if err := recv(t, shut, "Shutdown to return"); err != nil {
		t.Errorf("Shutdown: %v", err)
	}
}

func TestShutdownEndsCallsAfterGrace(t *testing.T) {
	m, done := startForeverCall(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := m.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Shutdown = %v; want the grace to run out", err)
	}
	var ce *CallError
	if err := recv(t, done, "the call to end"); !errors.As(err, &ce) {
		t.Errorf("the call cut short returned %v", err)
	}
}

// A re-listing keeps the entries of the tools it lists as they were, and
// never changes an entry it has published.
func TestRelistKeepsUnchangedEntries(t *testing.T) {
	e := newEnv(t)
	f := e.add("fake", nil)
	e.opts.Settings["fake"] = Settings{Quarantine: trust.ModeOff} // the changed tool is served, not held
	f.addEcho("one", "First.")
	f.addEcho("two", "Second.")
	m := e.start()
	src := waitSource(t, e.catalog, "fake", "active", inState(catalog.StateActive))
	one, two := src.Entries[0], src.Entries[1]

	f.RemoveTools("two")
	f.addEcho("two", "Second, revised.")
	src = waitSource(t, e.catalog, "fake", "the new definition", func(s *catalog.Source) bool {
		return s.State == catalog.StateActive && len(s.Entries) == 2 && s.Entries[1].Description == "Second, revised."
	})
	if src.Entries[0] != one {
		t.Error("the unchanged tool got a new entry")
	}
	revised := src.Entries[1]
	if revised == two || !revised.Changed || two.Changed || two.Description != "Second." {
		t.Errorf("changed tool: new entry %+v, old entry %+v", revised, two)
	}

	if err := m.ResetChanged("fake"); err != nil {
		t.Fatal(err)
	}
	src, _ = e.catalog.Snapshot().Source("fake")
	if src.Entries[1].Changed || !revised.Changed {
		t.Errorf("after ResetChanged: current entry changed=%v, published entry changed=%v (want false, true)", src.Entries[1].Changed, revised.Changed)
	}
	if src.Entries[0] != one || src.Entries[1].Digest != revised.Digest {
		t.Errorf("after ResetChanged: entries %+v", src.Entries)
	}
}

// A rebuild over tools listed as they were keeps their published entries,
// and makes nothing for each tool on the way: a copy of each entry (184
// bytes), and of the server's settings for each decision, were two
// allocations a tool at every listing.
func TestRebuildCopiesNoUnchangedEntry(t *testing.T) {
	const tools = 500
	e := newEnv(t)
	f := e.add("fake", nil)
	e.opts.Settings["fake"] = Settings{Quarantine: trust.ModeOff}
	for i := range tools {
		f.addEcho(fmt.Sprintf("tool%03d", i), "Does a thing.")
	}
	m := e.start()
	waitSource(t, e.catalog, "fake", "active", func(s *catalog.Source) bool {
		return s.State == catalog.StateActive && len(s.Entries) == tools
	})
	u := m.servers["fake"]
	u.mu.Lock()
	defer u.mu.Unlock()
	before := slices.Clone(u.entries)
	allocs := testing.AllocsPerRun(3, u.rebuild)
	if !slices.Equal(u.entries, before) {
		t.Fatal("a rebuild of the same tools made new entries")
	}
	if allocs > tools/5 { // 32 when written: the maps, sized beforehand
		t.Errorf("a rebuild of %d unchanged tools made %.0f allocations, about one a tool or more", tools, allocs)
	}
	// Deciding again (when another server's tools or the approvals change)
	// likewise.
	if allocs := testing.AllocsPerRun(3, func() { u.reassess(false) }); allocs > tools/5 {
		t.Errorf("deciding again on %d unchanged tools made %.0f allocations, about one a tool or more", tools, allocs)
	}
}

// ConnectTimeout bounds each page of a listing, not the listing as a whole:
// a hundred thousand tools take longer than that to list on a busy machine.
func TestSlowListingOfManyPages(t *testing.T) {
	e := newEnv(t)
	e.opts.ConnectTimeout = time.Second
	f := e.add("big", &mcp.ServerOptions{PageSize: 10})
	for i := range 50 { // five pages of 300 ms: more than ConnectTimeout in all
		f.addEcho(fmt.Sprintf("tool_%02d", i), "A tool.")
	}
	f.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				time.Sleep(300 * time.Millisecond)
			}
			return next(ctx, method, req)
		}
	})
	e.start()
	src := waitSource(t, e.catalog, "big", "active or failed", func(s *catalog.Source) bool {
		return s.State == catalog.StateActive || s.State == catalog.StateFailed
	})
	if src.State != catalog.StateActive || len(src.Entries) != 50 {
		t.Errorf("state %s, %d entries, error %q", src.State, len(src.Entries), src.LastError)
	}
}

// A server that pages on without end is cut off, with the reason.
func TestEndlessListing(t *testing.T) {
	defer func(n int) { maxListedTools = n }(maxListedTools)
	maxListedTools = 100
	e := newEnv(t)
	f := e.add("endless", &mcp.ServerOptions{PageSize: 7})
	for i := range 10 {
		f.addEcho(fmt.Sprintf("tool_%02d", i), "A tool.")
	}
	f.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "tools/list" {
				return next(ctx, method, req)
			}
			// Always the first page, always another to come, each
			// under a cursor of its own.
			p := req.GetParams().(*mcp.ListToolsParams)
			n, _ := strconv.Atoi(p.Cursor)
			p.Cursor = ""
			res, err := next(ctx, method, req)
			if err == nil {
				res.(*mcp.ListToolsResult).NextCursor = strconv.Itoa(n + 1)
			}
			return res, err
		}
	})
	e.start()
	src := waitSource(t, e.catalog, "endless", "failed", inState(catalog.StateFailed))
	if !strings.Contains(src.LastError, "listed more than 100 tools") {
		t.Errorf("LastError = %q", src.LastError)
	}
}
