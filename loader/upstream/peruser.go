package upstream

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

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
	return fmt.Sprintf("Log in to %s as %s: open toolsearch's status page with your own token and press \"Log in\" beside %s, "+
		"or use a client that opens login links (URL-mode elicitation) and call again; the login is yours alone and no one else's calls use it.",
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
// caller's own grant, over a connection of its own that ends with the
// call: the server's shared session, and the shared grant it carries, is
// never used for it. A caller without a usable grant is refused with the
// sentence that says how to log in.
//
// The grant is used as stored: refreshing a person's expiring token, and
// keeping a connection per person between calls, wait for the grant store
// keyed by (principal, server) (Options.UserGrants).
func (m *Manager) callAsPrincipal(ctx context.Context, u *upstream, params *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	who := principal.From(ctx)
	if u.auth == nil {
		return nil, fmt.Errorf("upstream %s: oauth.identity is user, but the server does not log in with OAuth (a stdio server, or one whose .mcp.json entry sends its own Authorization header): the operator should remove identity from its settings", u.cfg.Name)
	}
	var g *oauth.Grant
	if m.opts.UserGrants != nil {
		var err error
		if g, err = m.opts.UserGrants.PrincipalGrant(ctx, who, u.cfg.Name, u.cfg.URL); err != nil {
			u.log.Warn("reading a person's login failed", "principal", who, "err", err)
			return nil, m.userLoginRequired(u.cfg.Name, who, "the stored login could not be read")
		}
	}
	switch {
	case g == nil:
		u.log.Info("call refused: no login of the caller's own", "principal", who)
		return nil, m.userLoginRequired(u.cfg.Name, who, "no login is stored for "+who)
	case g.Server != u.cfg.Name || g.Resource != u.cfg.URL:
		// A store that answers with another server's grant must not
		// have its token sent here.
		return nil, m.userLoginRequired(u.cfg.Name, who, "the stored login is for another server")
	case !g.Valid(time.Now(), 0):
		return nil, m.userLoginRequired(u.cfg.Name, who, "the login expired or was refused")
	}
	if !m.calls.Admit() {
		return nil, ErrClosed
	}
	defer m.calls.Done()
	release, err := u.takeSlot(ctx, u.settings().timeout())
	if err != nil {
		return nil, err
	}
	defer release()
	if u.isHeld(params.Name) {
		return nil, fmt.Errorf("upstream %s: %s: %w", u.cfg.Name, params.Name, ErrHeld)
	}
	res, err := m.callWithToken(ctx, u, g.Token.AccessToken, params)
	if err != nil {
		err = redact.New([]string{g.Token.AccessToken, g.Token.RefreshToken}).Error(u.redact.Error(err))
	}
	return res, err
}

// callWithToken connects to the server with token as its bearer, makes
// the call and disconnects, all within the server's timeout.
func (m *Manager) callWithToken(ctx context.Context, u *upstream, token string, params *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	timeout := u.settings().timeout()
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, errCallTimeout)
	defer cancel()
	client := httpClient(u.cfg.URL, u.cfg.Headers)
	origin, _ := url.Parse(u.cfg.URL)
	client.Transport = &bearerTransport{base: client.Transport, origin: origin, token: token}
	var t mcp.Transport
	if u.cfg.Type == TypeSSE {
		t = &mcp.SSEClientTransport{Endpoint: u.cfg.URL, HTTPClient: client}
	} else {
		t = &mcp.StreamableClientTransport{Endpoint: u.cfg.URL, HTTPClient: client}
	}
	cs, err := mcp.NewClient(m.opts.ClientInfo, nil).Connect(ctx, t, nil)
	if err == nil {
		defer cs.Close()
		var res *mcp.CallToolResult
		if res, err = cs.CallTool(ctx, params); err == nil {
			return res, nil
		}
	}
	if errors.Is(context.Cause(ctx), errCallTimeout) {
		return nil, &TimeoutError{Server: u.cfg.Name, Tool: params.Name, Limit: timeout}
	}
	return nil, fmt.Errorf("upstream %s: calling %s as the caller: %w", u.cfg.Name, params.Name, err)
}

// bearerTransport sends one person's access token to the server's own
// origin, and to no other (see headerTransport).
type bearerTransport struct {
	base   http.RoundTripper
	origin *url.URL
	token  string
}

func (t *bearerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.origin == nil || !oauth.SameOrigin(req.URL, t.origin) {
		return t.base.RoundTrip(req)
	}
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+t.token)
	return t.base.RoundTrip(req)
}
