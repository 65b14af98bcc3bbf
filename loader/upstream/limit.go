package upstream

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// DefaultQueueWait bounds how long a call beyond a server's MaxConcurrent
// waits for one of the calls running to end, when Settings.QueueWait is
// zero. The call's own timeout bounds it too.
const DefaultQueueWait = 10 * time.Second

// BusyError is returned for a call refused because its server already ran
// Settings.MaxConcurrent calls, and none of them ended while the call
// waited. Its message is a sentence the model can act on.
type BusyError struct {
	Server string
	Max    int           // the server's MaxConcurrent
	Waited time.Duration // how long the call waited for a slot
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("upstream %s is busy: it already runs %d calls at once, its limit (servers.%s.maxConcurrent in toolsearch.yaml), and none ended within %v. Try again in a moment, or make fewer calls to %s at once.",
		e.Server, e.Max, e.Server, e.Waited, e.Server)
}

// Observer is told what the manager's calls and logins meet, for metrics
// (package server/metrics implements it). Its methods must not block: they
// run on the calls' paths. Server names are configured ones, never a
// client's.
type Observer interface {
	// CallWaited: a call found its server at its MaxConcurrent and begins
	// to wait for a slot (once per call, whatever comes of the wait).
	CallWaited(server string)
	// CallRefused: a call waited in vain and was refused (a *BusyError).
	CallRefused(server string)
	// LoginDone: a login through Manager.Login ended, with one of the
	// Login* outcomes.
	LoginDone(server, outcome string)
}

// Outcomes of a login, as Observer.LoginDone reports them.
const (
	LoginOK        = "ok"         // logged in
	LoginNotNeeded = "not_needed" // the server answered without one
	LoginCanceled  = "canceled"   // the person or the request gave up
	LoginFailed    = "failed"     // anything else
)

// loginOutcome classifies what Login returned.
func loginOutcome(err error) string {
	var li *LoggedInError
	switch {
	case err == nil, errors.As(err, &li): // the tokens are kept, whatever the listing gave
		return LoginOK
	case errors.Is(err, ErrLoginNotNeeded):
		return LoginNotNeeded
	case errors.Is(err, context.Canceled):
		return LoginCanceled
	}
	return LoginFailed
}

// callSlots counts the calls running on one server, and makes calls
// beyond its MaxConcurrent wait for one to end. The limit is read at each
// call, so that a reconfiguration applies to the next one; waiters are not
// served in order (a call arriving as a slot frees may take it), which the
// bounded wait keeps from starving anyone for longer than it.
type callSlots struct {
	mu      sync.Mutex
	running int
	// freed is closed, and forgotten, when a call ends while others wait.
	freed chan struct{}
}

// errNoSlot ends a wait that found no free slot in time.
var errNoSlot = errors.New("no free call slot")

// acquire takes a slot when fewer than max calls run (max <= 0 means no
// limit), and otherwise waits up to wait for one, calling onWait as it
// begins to. A wait in vain gives errNoSlot, and ctx ending gives its
// error. Every nil error must be followed by one release.
func (c *callSlots) acquire(ctx context.Context, max int, wait time.Duration, onWait func()) error {
	var expired <-chan time.Time
	for {
		c.mu.Lock()
		if max <= 0 || c.running < max {
			c.running++
			c.mu.Unlock()
			return nil
		}
		if c.freed == nil {
			c.freed = make(chan struct{})
		}
		freed := c.freed
		c.mu.Unlock()
		if expired == nil {
			timer := time.NewTimer(wait)
			defer timer.Stop()
			expired = timer.C
			onWait()
		}
		select {
		case <-freed:
		case <-expired:
			return errNoSlot
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// release gives a slot back and wakes the calls waiting for one.
func (c *callSlots) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.running--
	if c.freed != nil {
		close(c.freed)
		c.freed = nil
	}
}

// takeSlot admits a call to u under its MaxConcurrent, within ctx (the
// call's timeout), and tells the manager's Observer of a wait and a
// refusal. It returns the function that gives the slot back.
func (u *upstream) takeSlot(ctx context.Context, timeout time.Duration) (release func(), err error) {
	set := u.settings()
	wait := set.QueueWait
	if wait <= 0 {
		wait = DefaultQueueWait
	}
	wait = min(wait, timeout)
	obs := u.m.opts.Observer
	err = u.slots.acquire(ctx, set.MaxConcurrent, wait, func() {
		if obs != nil {
			obs.CallWaited(u.cfg.Name)
		}
	})
	// The call's timeout ending the wait is a refusal too: the caller is
	// still there, and only the server's limit kept it waiting.
	if errors.Is(err, errNoSlot) || err != nil && errors.Is(context.Cause(ctx), errCallTimeout) {
		if obs != nil {
			obs.CallRefused(u.cfg.Name)
		}
		return nil, &BusyError{Server: u.cfg.Name, Max: set.MaxConcurrent, Waited: wait}
	}
	if err != nil {
		return nil, err
	}
	return u.slots.release, nil
}
