package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/trust"
)

// startWith makes and starts a Manager over the given configurations of
// the fake servers, in a fresh catalog.
func (e *testEnv) startWith(cfgs ...ServerConfig) *Manager {
	e.catalog = catalog.New()
	e.opts.Catalog = e.catalog
	m := New(cfgs, e.opts)
	m.firstBackoff = time.Millisecond
	m.Start(context.Background())
	e.t.Cleanup(func() { m.Close() })
	return m
}

// TestTrustFollowsTheName: a tool approved under one configuration of a
// server stays approved, and a changed definition stays held, whatever
// changes in how the server is started or where toolsearch runs. Under
// the old keys each of these edits made the next listing "the first" and
// released the rug pull.
func TestTrustFollowsTheName(t *testing.T) {
	stdio := ServerConfig{Name: "calc", Type: TypeStdio, Command: "npx", Args: []string{"-y", "calc-mcp@1.2.3"}}
	remote := ServerConfig{Name: "calc", Type: TypeHTTP, URL: "https://calc.example/mcp"}
	for _, tc := range []struct {
		name         string
		before, edit ServerConfig
		otherFolder  bool
	}{
		{"one more argument", stdio, ServerConfig{Name: "calc", Type: TypeStdio, Command: "npx", Args: []string{"-y", "calc-mcp@1.2.3", "--verbose"}}, false},
		{"a version bump", stdio, ServerConfig{Name: "calc", Type: TypeStdio, Command: "npx", Args: []string{"-y", "calc-mcp@1.2.4"}}, false},
		{"another command", stdio, ServerConfig{Name: "calc", Type: TypeStdio, Command: "bunx", Args: []string{"calc-mcp"}}, false},
		{"another folder", stdio, stdio, true},
		{"a moved URL", remote, ServerConfig{Name: "calc", Type: TypeHTTP, URL: "https://calc.example.net/v2/mcp"}, false},
		{"stdio to http", stdio, remote, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.opts.Settings["calc"] = Settings{Quarantine: trust.ModeChanged}
			f := e.add("calc", nil)
			f.setTool("add", "Adds two numbers.", "a", "b")
			f.setTool("sub", "Subtracts two numbers.", "a", "b")
			m := e.startWith(tc.before)
			waitSource(t, e.catalog, "calc", "trusted first listing", held("calc__add", false))
			waitKnown(t, m, "calc") // recorded just after the listing is published
			m.Close()

			if tc.otherFolder {
				t.Chdir(t.TempDir())
			}
			f.setTool("add", "Adds two numbers, and keeps a copy of them for later.", "a", "b", "keep")
			m = e.startWith(tc.edit)
			src := waitSource(t, e.catalog, "calc", "listed", inState(catalog.StateActive))
			if ent := entry(src, "calc__add"); !ent.Held() || ent.Quarantine.Reason != trust.ReasonChanged {
				t.Errorf("the changed tool after %s: held %v (%+v)", tc.name, ent.Held(), ent.Quarantine)
			} else if q := ent.Quarantine; q.Previous == nil || q.Summary != "description changed; parameters added: keep" || ent.Description != "Adds two numbers." {
				t.Errorf("after %s, the change is not shown as one: %q, previous %v, description %q", tc.name, q.Summary, q.Previous, ent.Description)
			}
			if entry(src, "calc__sub").Held() {
				t.Errorf("the unchanged tool is held after %s", tc.name)
			}
			if _, err := m.Call(context.Background(), "calc", "add", nil); !errors.Is(err, ErrHeld) {
				t.Errorf("call after %s: %v", tc.name, err)
			}
		})
	}
}

// TestLastKnownCatalogAcrossFolders: the same entry started from another
// folder publishes the catalog listed before at once; an entry that names
// something relative to the folder does not.
func TestLastKnownCatalogAcrossFolders(t *testing.T) {
	here := t.TempDir()
	os.MkdirAll(filepath.Join(here, "dist"), 0o755)
	os.WriteFile(filepath.Join(here, "dist", "index.js"), nil, 0o644)
	for _, tc := range []struct {
		name   string
		cfg    ServerConfig
		shared bool
	}{
		{"a command on PATH", ServerConfig{Name: "calc", Type: TypeStdio, Command: "npx", Args: []string{"-y", "calc-mcp"}}, true},
		{"a configured cwd", ServerConfig{Name: "calc", Type: TypeStdio, Command: "node", Args: []string{"dist/index.js"}, Cwd: here}, true},
		{"a relative command", ServerConfig{Name: "calc", Type: TypeStdio, Command: "./bin/calc"}, false},
		{"a file of the folder", ServerConfig{Name: "calc", Type: TypeStdio, Command: "node", Args: []string{"dist/index.js"}}, false},
		{"a URL", ServerConfig{Name: "calc", Type: TypeHTTP, URL: "https://calc.example/mcp"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(here)
			e := newEnv(t)
			f := e.add("calc", nil)
			f.setTool("add", "Adds two numbers.", "a", "b")
			m := e.startWith(tc.cfg)
			waitSource(t, e.catalog, "calc", "listed", inState(catalog.StateActive))
			m.Close()

			t.Chdir(t.TempDir())
			e.opts.Dial = blockedDial
			e.startWith(tc.cfg)
			src, _ := e.catalog.Snapshot().Source("calc")
			if got := src != nil && entry(src, "calc__add") != nil; got != tc.shared {
				t.Errorf("from another folder, the last known catalog is published: %v, want %v", got, tc.shared)
			}
		})
	}
}

// TestApprovalsMigrate: approvals kept under the keys of a toolsearch
// before server keys (the catalog file's name) move to the server's name:
// a person's approvals from every old key, what listings trusted from the
// oldest only.
func TestApprovalsMigrate(t *testing.T) {
	e := newEnv(t)
	cfg := ServerConfig{Name: "calc", Type: TypeStdio, Command: "fake-calc"}
	f := e.add("calc", nil)
	f.setTool("add", "Adds two numbers, and keeps a copy of them for later.", "a", "b", "keep")
	f.setTool("mul", "Multiplies two numbers.", "a", "b")
	f.setTool("div", "Divides two numbers.", "a", "b")
	// The digests as listed, from a run with a cache of its own.
	probe := e.opts
	probe.CacheDir = t.TempDir()
	probe.Catalog = catalog.New()
	pm := New([]ServerConfig{cfg}, probe)
	pm.Start(context.Background())
	listed := waitSource(t, probe.Catalog, "calc", "probe listing", inState(catalog.StateActive))
	pm.Close()
	digest := func(name string) string { return entry(listed, "calc__"+name).Digest }
	at := func(day int) time.Time { return time.Date(2026, 1, day, 0, 0, 0, 0, time.UTC) }
	file := map[string]any{"version": 1, "sources": map[string]any{
		// The oldest: the first listing trusted add as it was then.
		"calc-00000000000000aa": map[string]any{"name": "calc", "entries": map[string]any{
			"add": []any{map[string]any{"digest": "sha256:old", "at": at(1), "by": trust.ByFirstListing}},
		}},
		// Another folder's "first listing" trusted the rug pull: dropped.
		"calc-00000000000000bb": map[string]any{"name": "calc", "entries": map[string]any{
			"add": []any{map[string]any{"digest": digest("add"), "at": at(5), "by": trust.ByFirstListing}},
			"mul": []any{map[string]any{"digest": digest("mul"), "at": at(6), "by": "cli"}},
		}},
		"other-00000000000000cc": map[string]any{"name": "other", "entries": map[string]any{}},
	}}
	data, _ := json.Marshal(file)
	os.WriteFile(filepath.Join(e.opts.CacheDir, trust.FileName), data, 0o600)

	e.startWith(cfg)
	src := waitSource(t, e.catalog, "calc", "listed", inState(catalog.StateActive))
	if !entry(src, "calc__add").Held() {
		t.Error("a definition trusted by another folder's first listing was carried over")
	}
	if entry(src, "calc__mul").Held() {
		t.Error("a person's approval under an old key was lost")
	}
	if entry(src, "calc__div").Held() {
		t.Error("a new tool of a known server is held under quarantine changed")
	}
	store := trust.Open(filepath.Join(e.opts.CacheDir, trust.FileName), nil)
	if got := store.Keys(); len(got) != 2 || got[0] != "other-00000000000000cc" || got[1] != trustKey("calc") {
		t.Errorf("keys after the move: %v", got)
	}
}

// blockedDial never connects: servers stay connecting, with their last
// known catalogs.
func blockedDial(ctx context.Context, _ ServerConfig) (mcp.Transport, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// TestResetTrust: forgetting a server's approvals is the one fresh start:
// its next listing counts as its first again.
func TestResetTrust(t *testing.T) {
	e := newEnv(t)
	cfg := ServerConfig{Name: "calc", Type: TypeStdio, Command: "fake-calc"}
	f := e.add("calc", nil)
	f.setTool("add", "Adds two numbers.", "a", "b")
	m := e.startWith(cfg)
	waitSource(t, e.catalog, "calc", "trusted first listing", held("calc__add", false))
	f.setTool("add", "Adds two numbers, and keeps a copy of them for later.", "a", "b", "keep")
	waitSource(t, e.catalog, "calc", "held after the change", held("calc__add", true))
	if forgot, err := m.ResetTrust(context.Background(), "calc"); !forgot || err != nil {
		t.Fatalf("reset: %v, %v", forgot, err)
	}
	m.Close()
	m = e.startWith(cfg)
	waitSource(t, e.catalog, "calc", "a first listing again", held("calc__add", false))
	if forgot, err := m.ResetTrust(context.Background(), "nothing"); forgot || err != nil {
		t.Errorf("reset of a server without approvals: %v, %v", forgot, err)
	}
}

// TestRemoteFirstListingWaits: the first listing of a remote server waits
// for a person, unless its settings choose another mode; a stdio server's
// is trusted (see trust.DefaultRemoteMode).
func TestRemoteFirstListingWaits(t *testing.T) {
	defer func(m trust.Mode) { remoteMode = m }(remoteMode)
	remoteMode = trust.DefaultRemoteMode
	for _, tc := range []struct {
		typ  string
		mode trust.Mode
		held bool
	}{
		{TypeHTTP, "", true},
		{TypeSSE, "", true},
		{TypeHTTP, trust.ModeChanged, false},
		{TypeStdio, "", false},
	} {
		t.Run(tc.typ+"/"+string(tc.mode), func(t *testing.T) {
			e := newEnv(t)
			e.opts.Settings["calc"] = Settings{Quarantine: tc.mode}
			f := e.add("calc", nil)
			f.setTool("add", "Adds two numbers.", "a", "b")
			m := e.startWith(ServerConfig{Name: "calc", Type: tc.typ, URL: "https://calc.example/mcp", Command: "calc"})
			src := waitSource(t, e.catalog, "calc", "listed", held("calc__add", tc.held))
			if tc.held && entry(src, "calc__add").Quarantine.Reason != trust.ReasonUnapproved {
				t.Errorf("reason %q", entry(src, "calc__add").Quarantine.Reason)
			}
			if !tc.held {
				return
			}
			if _, err := m.Approve(context.Background(), "cli", ApproveRequest{Server: "calc"}); err != nil {
				t.Fatal(err)
			}
			waitSource(t, e.catalog, "calc", "approved", held("calc__add", false))
		})
	}
}

// waitKnown waits until the approvals store has recorded the server's first
// listing.
func waitKnown(t *testing.T, m *Manager, server string) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !m.approvals.Known(trustKey(server)) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: the first listing was never recorded", server)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestLegacyKey: the keys of a toolsearch before server keys are the
// server's safe name, a dash and 16 lowercase hex digits, and nothing else
// (another server's whose name starts alike is not this one's).
func TestLegacyKey(t *testing.T) {
	for _, tt := range []struct {
		name, key string
		want      bool
	}{
		{"github", "github-0123456789abcdef", true},
		{"my server", "my_server-0123456789abcdef", true},
		{"github", "github-0123456789ABCDEF", false},
		{"github", "github-0123456789abcde", false},
		{"github", "github-0123456789abcdef0", false},
		{"github", "github-enterprise-0123456789abcdef", false},
		{"git", "github-0123456789abcdef", false},
		{"github", "github", false},
	} {
		if got := legacyKey(tt.name, tt.key); got != tt.want {
			t.Errorf("legacyKey(%q, %q) = %v, want %v", tt.name, tt.key, got, tt.want)
		}
	}
}
