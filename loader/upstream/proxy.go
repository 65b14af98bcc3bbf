package upstream

import (
	"context"
	"errors"

	"github.com/toolsearch/toolsearch/loader"
)

// proxy runs one request to the server u on its live session, with the
// rules of Call: admitted only before Shutdown, bounded by the server's timeout (whose clock stops while
// the caller is asked for input), waiting for a failed server to
// reconnect, and ended with the connection. what names the request in
// errors.
func (m *Manager) proxy(ctx context.Context, u *upstream, what string, do func(ctx context.Context, s *session, clock *callClock) error) error {
	// Like calls, requests begun before Shutdown get its grace, and none
	// begins after.
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
	s, err := u.live()
	if s == nil {
		s, err = u.await(tctx, timeout)
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
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
	return &CallError{Server: u.cfg.Name, Tool: what, Err: u.redact.Error(err)}
}

// live returns the server's connection if it is up, re-listing its tools
// included: prompts and resources do not wait for tools.
func (u *upstream) live() (*session, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.sess != nil && (u.state == loader.StateActive || u.state == loader.StateValidating) {
		return u.sess, nil
	}
	return nil, nil
}
