package upstream

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The slots admit max calls, make the next wait for a release, refuse it
// once the wait runs out, and let its context end the wait.
func TestCallSlots(t *testing.T) {
	tests := []struct {
		name string
		// then is what happens while the second call waits.
		then func(release func(), cancel context.CancelFunc)
		want error
	}{
		{"a call ends: the waiter runs", func(release func(), _ context.CancelFunc) { release() }, nil},
		{"none ends within the wait: refused", func(func(), context.CancelFunc) {}, errNoSlot},
		{"the caller gives up", func(_ func(), cancel context.CancelFunc) { cancel() }, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var c callSlots
				noWait := func() { t.Error("the first call waited") }
				if err := c.acquire(t.Context(), 1, time.Minute, noWait); err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				waits := 0
				done := make(chan error, 1)
				start := time.Now()
				go func() { done <- c.acquire(ctx, 1, time.Minute, func() { waits++ }) }()
				synctest.Wait()
				if waits != 1 {
					t.Fatalf("the second call began %d waits, want 1", waits)
				}
				go tt.then(c.release, cancel)
				err := <-done
				if !errors.Is(err, tt.want) {
					t.Fatalf("got %v, want %v", err, tt.want)
				}
				if tt.want == errNoSlot && time.Since(start) != time.Minute {
					t.Errorf("refused after %v, want the whole wait (1m)", time.Since(start))
				}
			})
		})
	}
}

// No limit admits every call at once; a limit changed between calls
// applies to the next.
func TestCallSlotsLimit(t *testing.T) {
	var c callSlots
	never := func() { t.Fatal("waited") }
	for range 100 {
		if err := c.acquire(t.Context(), 0, time.Minute, never); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.acquire(t.Context(), 101, time.Minute, never); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := c.acquire(ctx, 101, time.Minute, func() {}); !errors.Is(err, context.Canceled) {
		t.Fatalf("a call beyond a lowered limit: got %v, want to wait (and be cancelled)", err)
	}
}

// observed records what an Observer is told.
type observed struct {
	mu             sync.Mutex
	waits, refused map[string]int
	logins         []string
	waiting        chan struct{} // signalled at each wait
}

func newObserved() *observed {
	return &observed{waits: map[string]int{}, refused: map[string]int{}, waiting: make(chan struct{}, 10)}
}

func (o *observed) CallWaited(server string) {
	o.mu.Lock()
	o.waits[server]++
	o.mu.Unlock()
	o.waiting <- struct{}{}
}

func (o *observed) CallRefused(server string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.refused[server]++
}

func (o *observed) LoginDone(server, outcome string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.logins = append(o.logins, server+" "+outcome)
}

func (o *observed) counts(server string) (waits, refused int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.waits[server], o.refused[server]
}

// A server's maxConcurrent holds calls beyond it: one waits and runs once
// a call ends, one is refused with a sentence that says what to do, one is
// cancelled by its caller; each wait and refusal is told to the Observer.
// Another server is not held by it.
func TestMaxConcurrent(t *testing.T) {
	e := newEnv(t)
	f := e.add("busy", nil)
	gate, started := make(chan struct{}), make(chan struct{}, 1)
	f.AddTool(&mcp.Tool{Name: "slow", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			started <- struct{}{}
			select {
			case <-gate:
			case <-ctx.Done():
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
		})
	f.addEcho("echo", "Echo.")
	e.add("free", nil).addEcho("echo", "Echo.")
	obs := newObserved()
	e.opts.Observer = obs
	e.opts.Settings["busy"] = Settings{MaxConcurrent: 1, QueueWait: time.Hour}
	m := e.start()

	first := make(chan error, 1)
	go func() {
		_, err := m.Call(context.Background(), "busy", "slow", nil)
		first <- err
	}()
	recv(t, started, "the first call upstream")
	// The second call waits for the first (its wait is an hour).
	second := make(chan error, 1)
	go func() {
		res, err := m.Call(context.Background(), "busy", "echo", nil)
		if err == nil && !strings.HasPrefix(textOf(res), "echo") {
			err = errors.New("unexpected result " + textOf(res))
		}
		second <- err
	}()
	select {
	case <-obs.waiting:
	case err := <-second:
		t.Fatalf("a call beyond maxConcurrent 1 did not wait: %v", err)
	case <-time.After(waitLimit):
		t.Fatal("the second call neither waited nor ended")
	}
	// A third is cancelled by its caller while it waits.
	ctx, cancel := context.WithCancel(context.Background())
	third := make(chan error, 1)
	go func() {
		_, err := m.Call(ctx, "busy", "echo", nil)
		third <- err
	}()
	select {
	case <-obs.waiting:
	case err := <-third:
		t.Fatalf("a third call did not wait: %v", err)
	case <-time.After(waitLimit):
		t.Fatal("the third call neither waited nor ended")
	}
	cancel()
	if err := recv(t, third, "the cancelled call"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled while waiting: got %v", err)
	}
	// Another server is not held by this one's limit.
	if _, err := m.Call(context.Background(), "free", "echo", nil); err != nil {
		t.Errorf("another server: %v", err)
	}
	close(gate)
	if err := recv(t, first, "the first call"); err != nil {
		t.Errorf("first call: %v", err)
	}
	if err := recv(t, second, "the waiting call"); err != nil {
		t.Errorf("the call that waited: %v", err)
	}
	if waits, refused := obs.counts("busy"); waits != 2 || refused != 0 {
		t.Errorf("waits %d, refusals %d; want 2 and 0", waits, refused)
	}
}

// A call that waits in vain is refused with a *BusyError whose message
// names the limit and what to do; so is one whose timeout ends the wait.
func TestMaxConcurrentRefuses(t *testing.T) {
	for _, set := range []Settings{
		{MaxConcurrent: 1, QueueWait: time.Millisecond, Timeout: 5 * time.Second},
		{MaxConcurrent: 1, QueueWait: time.Hour, Timeout: 20 * time.Millisecond},
	} {
		e := newEnv(t)
		f := e.add("busy", nil)
		gate := make(chan struct{})
		f.AddTool(&mcp.Tool{Name: "slow", InputSchema: map[string]any{"type": "object"}},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				<-gate
				return &mcp.CallToolResult{}, nil
			})
		obs := newObserved()
		e.opts.Observer = obs
		e.opts.Settings["busy"] = set
		// The first call's slot is taken by hand: the upstream need not
		// answer first.
		m := e.start()
		u, _ := m.server("busy")
		if err := u.slots.acquire(context.Background(), 1, 0, func() {}); err != nil {
			t.Fatal(err)
		}
		_, err := m.Call(context.Background(), "busy", "slow", nil)
		var busy *BusyError
		if !errors.As(err, &busy) || busy.Server != "busy" || busy.Max != 1 {
			t.Fatalf("%+v: got %v, want a *BusyError", set, err)
		}
		for _, want := range []string{"busy is busy", "maxConcurrent", "Try again in a moment"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%+v: %q does not say %q", set, err, want)
			}
		}
		if waits, refused := obs.counts("busy"); waits != 1 || refused != 1 {
			t.Errorf("%+v: waits %d, refusals %d; want 1 and 1", set, waits, refused)
		}
		u.slots.release()
		close(gate)
	}
}

// Every login's outcome is told to the Observer, a refused one included;
// a login to a server that is not configured is not (its name is the
// caller's).
func TestLoginObserved(t *testing.T) {
	e := newEnv(t)
	e.add("local", nil).addEcho("echo", "Echo.")
	obs := newObserved()
	e.opts.Observer = obs
	m := e.start()
	if err := m.Login(context.Background(), "local", nil); err == nil {
		t.Fatal("a login to a stdio server worked")
	}
	if err := m.Login(context.Background(), "nosuch", nil); err == nil {
		t.Fatal("a login to an unknown server worked")
	}
	if got := fmt.Sprint(obs.logins); got != "[local failed]" {
		t.Errorf("logins observed: %s", got)
	}
	for err, want := range map[error]string{
		nil: LoginOK,
		&LoggedInError{Server: "s", Err: errors.New("list")}: LoginOK,
		fmt.Errorf("s: %w", ErrLoginNotNeeded):               LoginNotNeeded,
		fmt.Errorf("waiting: %w", context.Canceled):          LoginCanceled,
		errors.New("refused"):                                LoginFailed,
	} {
		if got := loginOutcome(err); got != want {
			t.Errorf("loginOutcome(%v) = %s, want %s", err, got, want)
		}
	}
}
