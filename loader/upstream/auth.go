package upstream

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/redact"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// ErrLoginNotNeeded is returned by Login for a server that answers
// without a login.
var ErrLoginNotNeeded = errors.New("the server answers without a login")

// AuthRequiredError is returned for a call to a server that needs someone
// to log in: it has no tokens, its tokens were refused, or the call needs
// scopes they lack. It says which command logs in.
type AuthRequiredError struct {
	Server  string
	Reason  string   // why, in a sentence
	Command string   // the exact command that logs in
	Scopes  []string // scopes the server asked for, for a call that needs more
}

func (e *AuthRequiredError) Error() string {
	return fmt.Sprintf("upstream %s needs a login (%s): run %s", e.Server, e.Reason, e.Command)
}

// AuthRequired returns the reason and the command, for callers that render
// the error without knowing this package.
func (e *AuthRequiredError) AuthRequired() (reason, command string) { return e.Reason, e.Command }

// Is makes errors.Is(err, oauth.ErrLoginRequired) true.
func (e *AuthRequiredError) Is(target error) bool { return target == oauth.ErrLoginRequired }

// authPoll is how often a server waiting for a login looks for tokens
// another process stored (`toolsearch auth login`).
const authPoll = 2 * time.Second

// newAuth returns the OAuth handler of a server's connections, or nil for
// servers that cannot use one: stdio servers, and servers whose .mcp.json
// entry sends an Authorization header of its own (the operator chose a
// static token).
func (m *Manager) newAuth(u *upstream) *oauth.Handler {
	if u.cfg.Type == TypeStdio || m.opts.TokenStore == nil {
		return nil
	}
	for k := range u.cfg.Headers {
		if strings.EqualFold(k, "Authorization") {
			return nil
		}
	}
	t := oauth.NewTokens(m.opts.TokenStore, u.cfg.Name, u.cfg.URL, m.opts.OAuthClient, u.log)
	return oauth.NewHandler(t, u.settings().OAuth, m.opts.OAuthClient)
}

// loginCommand is the command that logs in to a server.
func (m *Manager) loginCommand(server string) string {
	if m.opts.LoginCommand != nil {
		return m.opts.LoginCommand(server)
	}
	return "toolsearch auth login " + server
}

// Tokens returns the OAuth tokens of a server, nil for a server that does
// not use OAuth (stdio, or a configured Authorization header).
func (m *Manager) Tokens(server string) (*oauth.Tokens, error) {
	u, err := m.server(server)
	if err != nil {
		return nil, err
	}
	if u.auth == nil {
		return nil, nil
	}
	return u.auth.Tokens(), nil
}

// Login runs an interactive login to a server through p: it connects
// without the stored tokens, so that the server asks for authorization,
// lets p take the person through it, stores the new tokens, and lists the
// tools with them. A running server then reconnects with them at once. A
// server that answers without a login gives ErrLoginNotNeeded. What the
// login obtained is described by Tokens(server).Info().
func (m *Manager) Login(ctx context.Context, server string, p *oauth.Prompter) (err error) {
	u, err := m.server(server)
	if err != nil {
		return err
	}
	if m.opts.Observer != nil {
		defer func() { m.opts.Observer.LoginDone(server, loginOutcome(err)) }()
	}
	if u.auth == nil {
		switch {
		case u.cfg.Type == TypeStdio:
			return fmt.Errorf("%s is a stdio server: it runs as the user and takes no login", server)
		case m.opts.TokenStore == nil:
			return fmt.Errorf("no place to keep tokens: %w", m.tokenStoreErr)
		}
		return fmt.Errorf("%s sends the Authorization header set in its .mcp.json entry; remove that header to log in with OAuth instead", server)
	}
	h := u.auth.ForLogin(p)
	t, _, err := u.transport(ctx, nil, h)
	if err != nil {
		return err
	}
	client := mcp.NewClient(m.opts.ClientInfo, nil)
	cs, err := client.Connect(ctx, t, nil)
	if err == nil {
		_, err = cs.ListTools(ctx, nil)
		cs.Close()
	}
	err = u.redactErr(err)
	if !h.LoggedIn() {
		if err != nil {
			return fmt.Errorf("logging in to %s: %w", server, err)
		}
		return fmt.Errorf("%s: %w", server, ErrLoginNotNeeded)
	}
	signal(u.kick) // reconnect now, with the new tokens
	if err != nil {
		return &LoggedInError{Server: server, Err: err}
	}
	return nil
}

// LoggedInError is returned by Login when the login worked but the server
// still failed to list its tools with the new tokens.
type LoggedInError struct {
	Server string
	Err    error
}

func (e *LoggedInError) Error() string {
	return fmt.Sprintf("logged in to %s, but listing its tools failed: %v", e.Server, e.Err)
}
func (e *LoggedInError) Unwrap() error { return e.Err }

// loginRequired finds why a connection or call failed for want of a
// login.
func loginRequired(err error) (*oauth.LoginRequiredError, bool) {
	var lr *oauth.LoginRequiredError
	return lr, errors.As(err, &lr)
}

// authRequired is the error for a call to a server in state needs_auth.
func (u *upstream) authRequired(reason string, scopes []string) *AuthRequiredError {
	return &AuthRequiredError{Server: u.cfg.Name, Reason: reason, Command: u.m.loginCommand(u.cfg.Name), Scopes: scopes}
}

// needAuth moves the server to needs_auth.
func (u *upstream) needAuth(lr *oauth.LoginRequiredError) {
	u.log.Warn("upstream needs a login", "reason", lr.Reason, "command", u.m.loginCommand(u.cfg.Name))
	version := u.auth.Tokens().Version()
	u.update(func() {
		u.state, u.sess, u.authVersion = catalog.StateNeedsAuth, nil, version
		u.lastErr = fmt.Sprintf("needs a login: %s; run %s", lr.Reason, u.m.loginCommand(u.cfg.Name))
	})
}

// waitForLogin waits, in state needs_auth, until new tokens may be there
// (stored by any process), a call or Login asks to try again, or ctx ends,
// which it reports as false. Explicit refreshes are queued on waiting.
func (u *upstream) waitForLogin(ctx context.Context, waiting *[]chan error) bool {
	tick := time.NewTicker(authPoll)
	defer tick.Stop()
	u.mu.Lock()
	version := u.authVersion
	u.mu.Unlock()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-u.kick:
			return true
		case r := <-u.refresh:
			*waiting = append(*waiting, r)
			return true
		case <-tick.C:
			if u.auth.Tokens().Version() != version {
				return true
			}
		}
	}
}

// authLost ends the session of a server whose tokens a call found refused,
// so that the server moves to needs_auth.
func (u *upstream) authLost(lr *oauth.LoginRequiredError) {
	select {
	case u.lostAuth <- lr:
	default:
	}
}

// withOAuth attaches a server's OAuth handler to its HTTP transport: the
// SDK's own hook for Streamable HTTP; for SSE, whose transport has none, an
// http.RoundTripper that does the same (the token on every request; on a
// 401 or 403, Authorize and one retry).
func withOAuth(t mcp.Transport, h *oauth.Handler) mcp.Transport {
	if h == nil {
		return t
	}
	switch t := t.(type) {
	case *mcp.StreamableClientTransport:
		t.OAuthHandler = h
	case *mcp.SSEClientTransport:
		c := t.HTTPClient
		if c == nil {
			c = http.DefaultClient
		}
		base := c.Transport
		if base == nil {
			base = http.DefaultTransport
		}
		wrapped := *c
		home, err := url.Parse(h.Tokens().Resource())
		if err != nil || home.Host == "" {
			home = nil // no origin: the token goes nowhere
		}
		wrapped.Transport = &authTransport{base: base, h: h, home: home}
		t.HTTPClient = &wrapped
	}
	return t
}

// authTransport authorizes the requests of an SSE connection. It sees
// every hop of a redirect, so it sends the token only to the server's own
// origin (as headerTransport sends the configured headers): a redirect
// elsewhere must not carry it.
type authTransport struct {
	base http.RoundTripper
	h    *oauth.Handler
	home *url.URL // the server's URL; nil sends the token nowhere
}

func (a *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if a.home == nil || !oauth.SameOrigin(req.URL, a.home) {
		return a.base.RoundTrip(req)
	}
	sent, resp, err := a.send(req)
	if err != nil || (resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden) {
		return resp, err
	}
	if req.Body != nil && req.GetBody == nil {
		return resp, nil // the body is spent: no retry
	}
	if err := a.h.Authorize(req.Context(), sent, resp); err != nil {
		return nil, err
	}
	_, resp, err = a.send(req)
	return resp, err
}

// send sends a copy of req with the current access token.
func (a *authTransport) send(req *http.Request) (*http.Request, *http.Response, error) {
	r := req.Clone(req.Context())
	if req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, nil, err
		}
		r.Body = body
	}
	ts, err := a.h.TokenSource(req.Context())
	if err != nil {
		return nil, nil, err
	}
	if ts != nil {
		tok, err := ts.Token()
		if err != nil {
			return nil, nil, err
		}
		r.Header.Set("Authorization", tok.Type()+" "+tok.AccessToken)
	}
	resp, err := a.base.RoundTrip(r)
	return r, resp, err
}

// loggedInSince reports whether the tokens changed since the server
// entered needs_auth.
func (u *upstream) loggedInSince() bool {
	u.mu.Lock()
	version := u.authVersion
	u.mu.Unlock()
	return u.auth != nil && u.auth.Tokens().Version() != version
}

// authReason says why a server in needs_auth needs a login.
func (u *upstream) authReason() string {
	if u.auth != nil {
		if why := u.auth.Tokens().NeedsLogin(); why != "" {
			return why
		}
	}
	return "the server refused its tokens"
}

// Check connects once to an HTTP or SSE server with its stored tokens
// (refreshing them when they are about to expire), lists its tools and
// disconnects, for `toolsearch auth status`; it needs no Start. A server
// that needs a login gives an error matching oauth.ErrLoginRequired.
func (m *Manager) Check(ctx context.Context, server string) error {
	u, err := m.server(server)
	if err != nil {
		return err
	}
	if u.cfg.Type == TypeStdio {
		return fmt.Errorf("%s is a stdio server", server)
	}
	t, _, err := u.transport(ctx, nil, u.auth)
	if err != nil {
		return err
	}
	cs, err := mcp.NewClient(m.opts.ClientInfo, nil).Connect(ctx, t, nil)
	if err != nil {
		return u.redactErr(err)
	}
	defer cs.Close()
	_, err = cs.ListTools(ctx, nil)
	return u.redactErr(err)
}

// redactErr returns err without the server's configured secrets and
// without its OAuth client secret and tokens, which a server's error
// answer may quote back.
func (u *upstream) redactErr(err error) error {
	err = u.redact.Error(err)
	if u.auth != nil && err != nil {
		err = redact.New(u.auth.Tokens().Secrets()).Error(err)
	}
	return err
}

// Config returns how a server is reached.
func (m *Manager) Config(server string) (ServerConfig, error) {
	u, err := m.server(server)
	if err != nil {
		return ServerConfig{}, err
	}
	return u.cfg, nil
}

// Names returns the configured servers, sorted.
func (m *Manager) Names() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return slices.Clone(m.names)
}
