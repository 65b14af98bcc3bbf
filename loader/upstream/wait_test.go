package upstream

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// notYet checks that nothing arrives on c for a moment: the caller is
// still waiting.
func notYet[T any](t *testing.T, c <-chan T, what string) {
	t.Helper()
	select {
	case v := <-c:
		t.Fatalf("%s did not wait: %v", what, v)
	case <-time.After(50 * time.Millisecond):
	}
}

// A call made while the server is still connecting (right after start)
// waits for it and succeeds.
func TestCallWaitsForStartingServer(t *testing.T) {
	e := newEnv(t)
	f := e.add("fake", nil)
	f.addEcho("echo", "Echo.")
	gate := make(chan struct{})
	f.initGate = gate
	m := e.start()
	called := make(chan error, 1)
	go func() {
		res, err := m.Call(context.Background(), "fake", "echo", nil)
		if err == nil && !strings.HasPrefix(textOf(res), "echo") {
			err = errors.New("unexpected result " + textOf(res))
		}
		called <- err
	}()
	notYet(t, called, "a call to a server that is connecting")
	close(gate)
	if err := recv(t, called, "the call"); err != nil {
		t.Errorf("call made while connecting: %v", err)
	}
}

// The wait is bounded by the server's connect wait, which wins over the
// global one; a disabled server answers at once.
func TestConnectWait(t *testing.T) {
	e := newEnv(t)
	f := e.add("slow", nil)
	f.addEcho("echo", "Echo.")
	f.initGate = make(chan struct{}) // never opens
	e.add("off", nil).addEcho("echo", "Echo.")
	e.opts.ConnectWait = time.Hour
	e.opts.Settings["slow"] = Settings{ConnectWait: 10 * time.Millisecond}
	e.opts.Settings["off"] = Settings{Disabled: true, ConnectWait: time.Hour}
	m := e.start()
	_, err := m.Call(context.Background(), "slow", "echo", nil)
	var na *NotActiveError
	if !errors.As(err, &na) || na.State != catalog.StateConnecting || !strings.Contains(na.Reason, "still connecting after waiting 10ms") {
		t.Errorf("slow: got %v", err)
	}
	if _, err := m.Call(context.Background(), "off", "echo", nil); !errors.As(err, &na) || na.State != catalog.StateDisabled {
		t.Errorf("disabled: got %v", err)
	}
	// The call's own timeout bounds the wait when it is shorter.
	e.opts.Settings["slow"] = Settings{Timeout: 15 * time.Millisecond}
	m2 := New(e.configs(), e.opts)
	m2.Start(context.Background())
	defer m2.Close()
	if _, err := m2.Call(context.Background(), "slow", "echo", nil); !errors.As(err, &na) || !strings.Contains(na.Reason, "after waiting 15ms") {
		t.Errorf("timeout shorter than the connect wait: got %v", err)
	}
}

// The last known catalog is marked cached until the server lists its
// tools in this run.
func TestCachedUntilListed(t *testing.T) {
	e := newEnv(t)
	f := e.add("fake", nil)
	f.addEcho("echo", "Echo.")
	first := e.start()
	src := waitSource(t, e.catalog, "fake", "active", inState(catalog.StateActive))
	if src.Cached || src.EntryState() != catalog.StateActive {
		t.Errorf("a fresh listing is marked cached: %+v", src)
	}
	first.Close()

	e.catalog = catalog.New()
	e.opts.Catalog = e.catalog
	gate := make(chan struct{})
	f.gateList(gate)
	m := e.start()
	src, _ = e.catalog.Snapshot().Source("fake")
	if !src.Cached || src.EntryState() != catalog.StateCached || src.State != catalog.StateConnecting {
		t.Errorf("before the server answers: cached=%v entry state %s, state %s", src.Cached, src.EntryState(), src.State)
	}
	// AwaitStarted returns once the server has listed its tools.
	started := make(chan struct{})
	go func() { m.AwaitStarted(context.Background(), "fake"); close(started) }()
	notYet(t, started, "AwaitStarted")
	close(gate)
	recv(t, started, "AwaitStarted")
	src, _ = e.catalog.Snapshot().Source("fake")
	if src.Cached || src.State != catalog.StateActive || len(src.Entries) != 1 {
		t.Errorf("after listing: %+v", src)
	}
}
