package upstream

import (
	"context"
	"errors"
	"time"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// forward runs one request to the server u, with the rules of calls:
// admitted only before Shutdown, bounded by the server's timeout (whose
// clock stops while the caller is asked for input), and ended with the
// connection. connect returns the connection within the timeout: a call
// waits for the server's tools (u.await), other requests take a live
// connection at once (u.live). what names the request in errors.
func (m *Manager) forward(ctx context.Context, u *upstream, what string,
	connect func(context.Context, time.Duration) (*session, error),
	do func(ctx context.Context, s *session, clock *callClock) error,
) error {
	// Requests begun before Shutdown get its grace, and none begins after.
	if !m.calls.Admit() {
		return ErrClosed
	}
	defer m.calls.Done()
	if m.ctx.Err() != nil {
		return ErrClosed
	}
	timeout := u.settings().timeout()
	tctx, clock, cancel := withCallClock(ctx, timeout, errCallTimeout)
	defer cancel()
	s, err := connect(tctx, timeout)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	// The request also ends when its connection is given up (a failure or
	// Close), so that closing the session never waits for it.
	callCtx, cancelCall := context.WithCancelCause(tctx)
	defer cancelCall(nil)
	stop := context.AfterFunc(s.ctx, func() { cancelCall(context.Cause(s.ctx)) })
	defer stop()

	err = do(callCtx, s, clock)
	if lr, ok := loginRequired(err); ok && u.auth != nil {
		if !lr.StepUp() {
			u.authLost(lr)
		}
		return u.authRequired(lr.Reason, lr.Scopes)
	}
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(context.Cause(callCtx), errCallTimeout):
		return &TimeoutError{Server: u.cfg.Name, Tool: what, Limit: timeout}
	case callCtx.Err() != nil:
		return &CallError{Server: u.cfg.Name, Tool: what, Err: errSessionClosed}
	}
	return &CallError{Server: u.cfg.Name, Tool: what, Err: u.redactErr(err)}
}

// live returns the server's connection at once if it is up, re-listing its
// tools included, and else awaits it: prompts and resources do not wait for
// tools.
func (u *upstream) live(ctx context.Context, timeout time.Duration) (*session, error) {
	u.mu.Lock()
	s, up := u.sess, u.sess != nil && (u.state == catalog.StateActive || u.state == catalog.StateValidating)
	u.mu.Unlock()
	if up {
		return s, nil
	}
	return u.await(ctx, timeout)
}
