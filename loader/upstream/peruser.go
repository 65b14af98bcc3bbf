package upstream

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/principal"
	"github.com/toolsearch/toolsearch/internal/redact"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// UserLoginRequiredError refuses a call to a server whose logins are per
// person (oauth.identity: user) from a principal who holds no usable login
// of their own. It is not an *AuthRequiredError on purpose: that one makes
// a session run a login, which would store the server's shared grant, and
// the shared grant is never used for a person.
type UserLoginRequiredError struct {
	Server    string
	Principal string
	Reason    string // why, in a sentence: no login stored, or it expired
	How       string // how this person logs in, in a sentence
}

func (e *UserLoginRequiredError) Error() string {
	return fmt.Sprintf("upstream %s uses each person's own login, and %s has no usable one (%s). %s",
		e.Server, e.Principal, e.Reason, e.How)
}

// UserLoginRequired returns who must log in, why, and how, for callers
// that render the error without knowing this package.
func (e *UserLoginRequiredError) UserLoginRequired() (who, reason, how string) {
	return e.Principal, e.Reason, e.How
}

// userLoginHow is the sentence that tells a person how to log in to a
// server as themselves, when Options.UserLoginHint gives none.
func userLoginHow(server, who string) string {
	return fmt.Sprintf("Log in to %s as %s: open toolsearch's /login page (served by toolsearch serve --http) in a browser with your own token and press \"Log in to %s\", "+
		"or use a client that opens login pages (URL-mode elicitation) and call again; the login is yours alone and no one else's calls use it.",
		server, who, server)
}

func (m *Manager) userLoginRequired(server, who, reason string) *UserLoginRequiredError {
	how := ""
	if m.opts.UserLoginHint != nil {
		how = m.opts.UserLoginHint(server, who)
	}
	if how == "" {
		how = userLoginHow(server, who)
	}
	return &UserLoginRequiredError{Server: server, Principal: who, Reason: reason, How: how}
}

// callAsPrincipal makes a call to a server with identity: user under the
// caller's own grant, over the caller's own connection (one per person and
// server, kept while it is used, see personal): the server's shared
// session, and the shared grant it carries, are never used for it. The
// person's token is refreshed before it expires, once for every replica. A
// caller without a usable grant is refused with the sentence that says how
// to log in.
func (m *Manager) callAsPrincipal(ctx context.Context, u *upstream, params *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	who := principal.From(ctx)
	if u.auth == nil {
		return nil, fmt.Errorf("upstream %s: oauth.identity is user, but the server does not log in with OAuth (a stdio server, or one whose .mcp.json entry sends its own Authorization header): the operator should remove identity from its settings", u.cfg.Name)
	}
	tokens := m.tokensFor(u, who)
	if why := tokens.NeedsLogin(); why != "" {
		u.log.Info("call refused: no usable login of the caller's own", "principal", who, "why", why)
		return nil, m.userLoginRequired(u.cfg.Name, who, personReason(who, why))
	}
	if !m.calls.Admit() {
		return nil, ErrClosed
	}
	defer m.calls.Done()
	timeout := u.settings().timeout()
	release, err := u.takeSlot(ctx, timeout)
	if err != nil {
		return nil, err
	}
	defer release()
	if u.isHeld(params.Name) {
		return nil, fmt.Errorf("upstream %s: %s: %w", u.cfg.Name, params.Name, ErrHeld)
	}
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, errCallTimeout)
	defer cancel()
	// No login runs on a person's connection, whatever the session's
	// client could open: a person logs in bound to themselves.
	ctx = oauth.WithPrompter(ctx, nil)
	c, done, err := m.personSession(ctx, u, who, tokens)
	var res *mcp.CallToolResult
	if err == nil {
		res, err = c.cs.CallTool(ctx, params)
		done(err != nil)
	}
	if lr, ok := loginRequired(err); ok {
		return nil, m.userLoginRequired(u.cfg.Name, who, personReason(who, lr.Reason))
	}
	if err != nil {
		err = redact.New(tokens.Secrets()).Error(u.redact.Error(err))
		if errors.Is(context.Cause(ctx), errCallTimeout) {
			return nil, &TimeoutError{Server: u.cfg.Name, Tool: params.Name, Limit: timeout}
		}
		return nil, fmt.Errorf("upstream %s: calling %s as %s: %w", u.cfg.Name, params.Name, who, err)
	}
	return res, nil
}

// personReason says why a person's login cannot serve, about them.
func personReason(who, why string) string {
	if why == "no login is stored for it" {
		return "no login is stored for " + who
	}
	return why
}
