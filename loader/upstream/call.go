package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// NotActiveError is returned for a call to a server that is not active.
type NotActiveError struct {
	Server string
	State  catalog.State
	Reason string // the last error (with stderr) or what the server is doing
}

func (e *NotActiveError) Error() string {
	msg := fmt.Sprintf("upstream %s is %s", e.Server, e.State)
	if line, _, _ := strings.Cut(e.Reason, "\n"); line != "" {
		msg += ": " + line
	}
	return msg
}

// NotActive returns the state and the reason, for callers that render
// not-active errors without knowing this package.
func (e *NotActiveError) NotActive() (catalog.State, string) { return e.State, e.Reason }

// TimeoutError is returned for a call that got no result within the
// server's timeout. The call was cancelled upstream.
type TimeoutError struct {
	Server, Tool string
	Limit        time.Duration // the server's timeout
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("upstream %s: %s gave no result within %v", e.Server, e.Tool, e.Limit)
}

// Timeout reports true, as net.Error does.
func (e *TimeoutError) Timeout() bool { return true }

// CallError is returned for a call that failed in transport or was
// answered with a JSON-RPC error (errors.As finds a *jsonrpc.Error then).
// Its message holds none of the server's secrets (URL keys, header values).
type CallError struct {
	Server, Tool string
	Err          error
}

func (e *CallError) Error() string {
	return fmt.Sprintf("upstream %s: %s: %v", e.Server, e.Tool, e.Err)
}
func (e *CallError) Unwrap() error { return e.Err }

var errCallTimeout = errors.New("call timed out")

// Call forwards a tools/call to the server's tool (its own upstream name)
// and returns the upstream's result unchanged; a tool error is a result,
// not an error. The call is bounded by the server's timeout (a
// *TimeoutError); cancelling ctx cancels it upstream and returns ctx's
// error. A server that is not active gives a *NotActiveError, but a failed
// one is reconnected at once and the call waits for that within its
// timeout. A call beyond the server's MaxConcurrent waits for a slot within
// its timeout and QueueWait, then gets a *BusyError. Tools their policy
// does not make callable are refused. Once Shutdown (or Close) has begun,
// new calls get ErrClosed; calls already running get Shutdown's grace.
func (m *Manager) Call(ctx context.Context, server, tool string, args json.RawMessage) (*mcp.CallToolResult, error) {
	u, err := m.server(server)
	if err != nil {
		return nil, err
	}
	if p := u.settings().policy(tool); p != catalog.PolicyCallable {
		return nil, fmt.Errorf("upstream %s: %s is not callable: its policy is %s", server, tool, p)
	}
	if u.settings().OAuth.PerUser() {
		// Under the caller's own login, never the shared session's.
		params := &mcp.CallToolParams{Name: tool}
		if len(args) > 0 {
			params.Arguments = args
		}
		return m.callAsPrincipal(ctx, u, params)
	}
	// The call is decided on the definition the server will be called
	// with: the one its live session listed, after the wait for it. The
	// last known (approved) definition says nothing of what a server that
	// is starting or re-listing serves now.
	// The call holds a slot under the server's MaxConcurrent from before
	// it waits for the server until it ends.
	release := func() {}
	defer func() { release() }()
	connect := func(ctx context.Context, timeout time.Duration) (*session, error) {
		rel, err := u.takeSlot(ctx, timeout)
		if err != nil {
			return nil, err
		}
		release = rel
		s, err := u.awaitListed(ctx, timeout)
		if err != nil {
			return nil, err
		}
		if u.isHeld(tool) {
			return nil, fmt.Errorf("upstream %s: %s: %w", server, tool, ErrHeld)
		}
		return s, nil
	}
	params := &mcp.CallToolParams{Name: tool}
	if len(args) > 0 {
		params.Arguments = args // a nil RawMessage would be sent as null
	}
	var res *mcp.CallToolResult
	err = m.forward(ctx, u, tool, connect, func(ctx context.Context, s *session, clock *callClock) (err error) {
		res, err = request(ctx, u, clock, params, s.cs.CallTool)
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// await returns the live session once the server is active. A server
// that is connecting or re-listing its tools is waited for, up to its
// connect wait; a failed one is kicked into reconnecting and that attempt
// waited for. Other states (disabled, or failed again) are refused at once.
// ctx bounds it all (the call's timeout).
func (u *upstream) await(ctx context.Context, timeout time.Duration) (*session, error) {
	kicked, kickedAt := false, 0
	wait := min(u.connectWait(), timeout)
	var waitUp <-chan time.Time // started by the first wait
	for {
		u.mu.Lock()
		state, s, attempt, lastErr, changed := u.state, u.sess, u.attempt, u.lastErr, u.changed
		u.mu.Unlock()
		switch {
		case state == catalog.StateActive && s != nil:
			return s, nil
		case state == catalog.StateFailed && !kicked:
			kicked, kickedAt = true, attempt
			signal(u.kick)
		case state == catalog.StateNeedsAuth && !kicked && u.loggedInSince():
			// Someone logged in (perhaps in another process): try
			// the new tokens rather than refusing.
			kicked, kickedAt = true, attempt
			signal(u.kick)
		case kicked && (state == catalog.StateConnecting || (state == catalog.StateFailed || state == catalog.StateNeedsAuth) && attempt == kickedAt):
			// The reconnection asked for is pending or under way.
		case state == catalog.StateNeedsAuth:
			return nil, u.authRequired(u.authReason(), nil)
		case !kicked && (state == catalog.StateConnecting || state == catalog.StateValidating):
			// Starting, or re-listing its tools: a call made right
			// after start waits rather than fails.
		default:
			return nil, u.notActive(state, lastErr)
		}
		if waitUp == nil {
			timer := time.NewTimer(wait)
			defer timer.Stop()
			waitUp = timer.C
		}
		select {
		case <-changed:
		case <-u.m.ctx.Done():
			return nil, ErrClosed
		case <-waitUp:
			return nil, u.notReady(state, lastErr, kicked, wait)
		case <-ctx.Done():
			return nil, u.notReady(state, lastErr, kicked, timeout)
		}
	}
}

// awaitListed is await for a call: it also waits while a change of tools
// the server announced is not listed yet, so that the call is decided on
// the listing the change brings. A server that keeps announcing changes
// is listed at least every minRelist, so the wait ends; it is bounded by
// the connect wait all the same.
func (u *upstream) awaitListed(ctx context.Context, timeout time.Duration) (*session, error) {
	wait := time.NewTimer(min(u.connectWait(), timeout))
	defer wait.Stop()
	for {
		s, err := u.await(ctx, timeout)
		if err != nil {
			return nil, err
		}
		u.mu.Lock()
		changed, current := u.changed, u.sess == s && u.state == catalog.StateActive
		u.mu.Unlock()
		if current && !u.relisting.Load() {
			return s, nil
		}
		select {
		case <-changed:
		case <-wait.C:
			return nil, u.notReady(catalog.StateValidating, "", false, min(u.connectWait(), timeout))
		case <-ctx.Done():
			return nil, u.notReady(catalog.StateValidating, "", false, timeout)
		case <-u.m.ctx.Done():
			return nil, ErrClosed
		}
	}
}

// notReady describes a server that was waited for in vain.
func (u *upstream) notReady(state catalog.State, lastErr string, kicked bool, waited time.Duration) *NotActiveError {
	e := u.notActive(state, lastErr)
	what := "still " + string(state)
	if kicked {
		what = "not reconnected"
	}
	e.Reason = strings.TrimSpace(fmt.Sprintf("%s after waiting %v for it\n%s", what, waited, e.Reason))
	return e
}

// connectWait is how long a call waits for the server to become active.
func (u *upstream) connectWait() time.Duration {
	if u.settings().ConnectWait > 0 {
		return u.settings().ConnectWait
	}
	return u.m.opts.ConnectWait
}
