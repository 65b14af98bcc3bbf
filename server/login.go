package server

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// authRequired is implemented by errors saying that a server needs someone
// to log in (upstream.AuthRequiredError).
type authRequired interface {
	AuthRequired() (reason, command string)
}

// userLoginRequired is implemented by errors saying that a server takes
// each person's own login and the caller has none
// (upstream.UserLoginRequiredError). Unlike authRequired, it never makes
// a session run a login: that would store the server's shared login.
type userLoginRequired interface {
	UserLoginRequired() (who, reason, how string)
}

// userLoginResult tells the model that the person it works for must log
// in as themselves, and how.
func userLoginResult(e *catalog.Entry, who, reason, how string) *mcp.CallToolResult {
	res := errorResult(fmt.Sprintf("auth_required: server %s takes each person's own login, and %s has none that works (%s), so %s was not called. Tell the user: %s",
		e.Source, who, reason, e.Name, how))
	res.StructuredContent = structuredError(res, map[string]any{"error": "auth_required", "server": e.Source, "principal": who, "reason": reason, "how": how})
	return res
}

// loginer is implemented by Upstreams that can run a login
// (*upstream.Manager).
type loginer interface {
	Login(ctx context.Context, server string, p *oauth.Prompter) error
}

// loginCallback is where the HTTP server receives logins' redirects.
type loginCallback struct {
	redirectURL string
	callbacks   *oauth.Callbacks
	// personRedirect is where a person's own login (identity: user)
	// comes back: the HTTP server's callback as people reach it, which
	// completes it on any replica.
	personRedirect string
}

// SetLoginCallback makes the logins that sessions start come back to
// redirectURL, where the HTTP server serves cb, rather than to a loopback
// port of their own. Call it before serving.
func (s *Server) SetLoginCallback(redirectURL string, cb *oauth.Callbacks) {
	next := loginCallback{redirectURL: redirectURL, callbacks: cb}
	if old := s.loginCallback.Load(); old != nil {
		next.personRedirect = old.personRedirect
	}
	s.loginCallback.Store(&next)
}

// SetPersonLoginRedirect lets a session whose client opens login pages
// (URL-mode elicitation) take its caller through their own login to a
// server with identity: user, coming back to redirectURL (the HTTP
// server's callback, as people reach it). Call it before serving.
func (s *Server) SetPersonLoginRedirect(redirectURL string) {
	next := loginCallback{personRedirect: redirectURL}
	if old := s.loginCallback.Load(); old != nil {
		next.redirectURL, next.callbacks = old.redirectURL, old.callbacks
	}
	s.loginCallback.Store(&next)
}

// personLoginer is implemented by Upstreams whose servers may take each
// person's own login (*upstream.Manager).
type personLoginer interface {
	BeginPersonLogin(ctx context.Context, server, who, redirectURL, nonce string) (string, error)
	PersonLoginNeeded(server, who string) string
}

// personLoginPoll is how often a session waiting for its caller's own
// login looks for the grant, which the callback stores on any replica.
const personLoginPoll = 500 * time.Millisecond

// personLoginFor takes the caller through their own login to the entry's
// server when its session's client opens login pages, and reports whether
// the call should be made again: the grant is stored under the caller's
// key (the login is begun for them, whoever's browser comes back).
func (s *Server) personLoginFor(ctx context.Context, e *catalog.Entry) bool {
	p := oauth.PrompterFrom(ctx)
	pl, ok := s.opts.Upstreams.(personLoginer)
	cb := s.loginCallback.Load()
	if p == nil || p.StepUpOnly || !ok || cb == nil || cb.personRedirect == "" {
		return false
	}
	who := PrincipalOf(ctx)
	authURL, err := pl.BeginPersonLogin(ctx, e.Source, who, cb.personRedirect, "")
	if err != nil {
		s.log.Warn("a person's login from a session could not begin", "server", e.Source, "principal", who, "err", err)
		return false
	}
	if err := p.Show(ctx, e.Source, authURL); err != nil {
		s.log.Info("a person's login was not opened", "server", e.Source, "principal", who, "err", err)
		return false
	}
	wait := p.Wait
	if wait <= 0 {
		wait = oauth.LoginLife
	}
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	tick := time.NewTicker(personLoginPoll)
	defer tick.Stop()
	for pl.PersonLoginNeeded(e.Source, who) != "" {
		select {
		case <-tick.C:
		case <-deadline.C:
			if p.Done != nil {
				p.Done(ctx, e.Source, errors.New("the login was not finished in time"))
			}
			return false
		case <-ctx.Done():
			return false
		}
	}
	if p.Done != nil {
		p.Done(ctx, e.Source, nil)
	}
	return true
}

// authRequiredResult tells the model that a person must log in, and how.
func authRequiredResult(e *catalog.Entry, reason, command string) *mcp.CallToolResult {
	reason = upstreamError(reason) // it may quote the server's own error
	res := errorResult(fmt.Sprintf("auth_required: server %s needs a login before %s can be called (%s). Ask the user to run this command in a terminal, then call again:\n%s",
		e.Source, e.Name, reason, command))
	res.StructuredContent = structuredError(res, map[string]any{"error": "auth_required", "server": e.Source, "reason": reason, "command": command})
	return res
}

// withLoginPrompter lets the calls of a session run a login when the
// session's client opens URLs on request (URL-mode elicitation, protocol
// 2025-11-25): the person is asked to open the authorization page, and the
// call goes on once the browser comes back. Other sessions are unchanged,
// and their calls to a server that needs a login return auth_required.
func (s *Server) withLoginPrompter(ctx context.Context, ss *mcp.ServerSession) context.Context {
	if ss == nil {
		return ctx
	}
	params := ss.InitializeParams()
	if params == nil || params.Capabilities == nil || params.Capabilities.Elicitation == nil || params.Capabilities.Elicitation.URL == nil {
		return ctx
	}
	var id string // of the elicitation under way
	p := &oauth.Prompter{
		Show: func(ctx context.Context, server, authURL string) error {
			id = rand.Text()
			res, err := ss.Elicit(ctx, &mcp.ElicitParams{
				Mode:          "url",
				Message:       fmt.Sprintf("Log in to %s so that toolsearch can call its tools; the call goes on once you have.", server),
				URL:           authURL,
				ElicitationID: id,
			})
			if err != nil {
				return fmt.Errorf("asking the client to open the login page: %w", err)
			}
			if res.Action != "accept" {
				return fmt.Errorf("the user did not open the login page of %s (%s)", server, res.Action)
			}
			return nil
		},
		Done: func(ctx context.Context, server string, err error) {
			if err := ss.NotifyElicitationComplete(ctx, &mcp.ElicitationCompleteParams{ElicitationID: id}); err != nil {
				s.log.Debug("could not tell the client that the login finished", "server", server, "err", err)
			}
		},
	}
	if cb := s.loginCallback.Load(); cb != nil {
		p.RedirectURL, p.Callbacks = cb.redirectURL, cb.callbacks
	}
	return oauth.WithPrompter(ctx, p)
}

// loginFor runs a login when a call failed because its server needs one
// and the call's session can take the person through it. It reports
// whether the call should be made again.
func (s *Server) loginFor(ctx context.Context, e *catalog.Entry, err error) bool {
	var ul userLoginRequired
	if errors.As(err, &ul) {
		return s.personLoginFor(ctx, e)
	}
	var ar authRequired
	p := oauth.PrompterFrom(ctx)
	l, ok := s.opts.Upstreams.(loginer)
	if p == nil || p.StepUpOnly || !ok || !errors.As(err, &ar) {
		return false
	}
	if err := l.Login(ctx, e.Source, p); err != nil {
		s.log.Warn("login from a session failed", "server", e.Source, "err", err)
		return false
	}
	return true
}
