package upstream

import (
	"context"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

func TestReconfigureTouchesOnlyWhatChanged(t *testing.T) {
	e := newEnv(t)
	release := make(chan struct{})
	keep := e.add("keep", nil)
	keep.addEcho("echo", "Echo.")
	keep.addEcho("wipe", "Wipe.")
	gatedProgressTool(keep, release)
	e.add("gone", nil).addEcho("echo", "Echo.")
	change := e.add("change", nil)
	change.addEcho("echo", "Echo.")
	m := e.start()
	for _, name := range []string{"keep", "gone", "change"} {
		waitSource(t, e.catalog, name, "active", inState(catalog.StateActive))
	}

	// A call in flight on a server that does not change goes on.
	callDone := make(chan error, 1)
	go func() {
		_, err := m.Call(WithCaller(context.Background(), &fakeCaller{name: "c", token: "t"}), "keep", "work", []byte(`{"who":"c"}`))
		callDone <- err
	}()

	e.add("new", nil).addEcho("hello", "Hello.")
	servers := e.configs()
	servers = slices.DeleteFunc(servers, func(c ServerConfig) bool { return c.Name == "gone" })
	for i := range servers {
		if servers[i].Name == "change" {
			servers[i].Args = []string{"--verbose"}
		}
	}
	keepDials, changeDials := keep.dialCount(), change.dialCount()
	ch := m.Reconfigure(servers, map[string]Settings{"keep": {Policy: map[string]catalog.Policy{"wipe": catalog.PolicyHidden}}})
	if !slices.Equal(ch.Added, []string{"new"}) || !slices.Equal(ch.Removed, []string{"gone"}) ||
		!slices.Equal(ch.Restarted, []string{"change"}) || !slices.Equal(ch.Updated, []string{"keep"}) {
		t.Errorf("changes = %+v", ch)
	}
	waitSource(t, e.catalog, "new", "the new server active", inState(catalog.StateActive))
	waitSource(t, e.catalog, "change", "the changed server active again", inState(catalog.StateActive))
	if _, ok := e.catalog.Snapshot().Source("gone"); ok {
		t.Error("the removed server is still in the catalog")
	}
	if w, ok := e.catalog.Snapshot().Lookup("keep__wipe"); !ok || w.Policy != catalog.PolicyHidden {
		t.Errorf("keep__wipe = %+v, want hidden by the new policy", w)
	}
	if keep.dialCount() != keepDials {
		t.Error("the server whose settings alone changed was reconnected")
	}
	if change.dialCount() != changeDials+1 {
		t.Errorf("the changed server was dialled %d times more, want once", change.dialCount()-changeDials)
	}
	close(release)
	if err := <-callDone; err != nil {
		t.Errorf("the call in flight on the untouched server failed: %v", err)
	}
	if _, err := m.Call(context.Background(), "new", "hello", nil); err != nil {
		t.Errorf("calling the new server: %v", err)
	}
	if _, err := m.Call(context.Background(), "gone", "echo", nil); err == nil {
		t.Error("the removed server still takes calls")
	}

	// Disabling stops a server and keeps its last known tools; enabling
	// starts it again.
	m.Reconfigure(servers, map[string]Settings{"keep": {Disabled: true}})
	src := waitSource(t, e.catalog, "keep", "disabled", inState(catalog.StateDisabled))
	if len(src.Entries) == 0 {
		t.Error("a disabled server's last known tools left the catalog")
	}
	m.Reconfigure(servers, nil)
	waitSource(t, e.catalog, "keep", "active again", inState(catalog.StateActive))
	if ch := m.Reconfigure(servers, nil); !ch.Empty() {
		t.Errorf("the same configuration changed %+v", ch)
	}
}

func TestASubscriptionSurvivesARestart(t *testing.T) {
	e := newEnv(t)
	f := e.add("notes", &mcp.ServerOptions{
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	addFeatures(f)
	m := e.start()
	waitSource(t, e.catalog, "notes", "active", inState(catalog.StateActive))
	got := make(chan string, 1)
	cancel, err := m.Subscribe(context.Background(), "notes", "notes://today", func(p *mcp.ResourceUpdatedNotificationParams) {
		select {
		case got <- p.URI:
		default:
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	servers := e.configs()
	servers[0].Env = map[string]string{"NEW": "1"}
	if ch := m.Reconfigure(servers, nil); len(ch.Restarted) != 1 {
		t.Fatalf("changes = %+v", ch)
	}
	waitSource(t, e.catalog, "notes", "active again", inState(catalog.StateActive))
	waitFor(t, "an update through the new connection", func() bool {
		_ = f.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: "notes://today"})
		select {
		case <-got:
			return true
		default:
			return false
		}
	})
}

func TestStatusSaysWhileAnAnnouncedChangeIsNotListed(t *testing.T) {
	e := newEnv(t)
	f := e.add("changing", nil)
	f.addEcho("echo", "Echo.")
	m := e.start()
	waitSource(t, e.catalog, "changing", "active", inState(catalog.StateActive))
	relisting := func() bool { return m.Status()[0].Relisting }
	if relisting() {
		t.Fatal("relisting before any change was announced")
	}
	gate := make(chan struct{})
	f.gateList(gate)
	f.addEcho("more", "More.") // announces the change
	waitFor(t, "the announcement", relisting)
	close(gate)
	waitSource(t, e.catalog, "changing", "the new tool", func(s *catalog.Source) bool {
		return slices.Contains(entryNames(s), "changing__more")
	})
	waitFor(t, "the change listed", func() bool { return !relisting() })
}
