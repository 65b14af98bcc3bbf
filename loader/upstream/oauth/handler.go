package oauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// ClientName is how toolsearch names itself when it registers with an
// authorization server.
const ClientName = "toolsearch"

// Handler authorizes one server's requests; it is the auth.OAuthHandler
// of the server's transport. It attaches the server's Tokens to every
// request. When the server answers 401 or 403 insufficient_scope, it runs
// the SDK's authorization-code flow (auth.AuthorizationCodeHandler: PKCE,
// discovery, registration, resource indicators, scope selection) if the
// request may involve the person — a login, or a context carrying a
// Prompter — and otherwise fails with a *LoginRequiredError.
type Handler struct {
	tokens   *Tokens
	settings Settings
	client   *http.Client

	// For a login: the prompter every 401 goes through, and the stored
	// tokens are not sent until the login has new ones.
	prompter *Prompter
	mu       sync.Mutex
	loggedIn bool
	// failed is why the login failed: the SDK connects with
	// server/discover and, when that fails, with initialize, and each
	// 401 came here, so a failed login opened a second page. A login
	// runs once; later 401s get its error.
	failed error
	// person marks the handler of one person's connection: it never runs
	// a login, whatever prompter the request's context carries, since a
	// person logs in through UserLogins, bound to them.
	person bool
}

var _ auth.OAuthHandler = (*Handler)(nil)

// NewHandler returns the handler of the server whose tokens t holds.
// Discovery, registration and token requests go through client (nil means
// http.DefaultClient), guarded (see Guard).
func NewHandler(t *Tokens, s Settings, client *http.Client) *Handler {
	return &Handler{tokens: t, settings: s, client: Guard(client, t.resource)}
}

// NewPersonHandler returns the handler of one person's connection to a
// server (identity: user): it attaches the tokens of t (that person's
// grant), refreshes them once for every replica, and never runs a login.
func NewPersonHandler(t *Tokens, s Settings, client *http.Client) *Handler {
	h := NewHandler(t, s, client)
	h.person = true
	return h
}

// ForLogin returns a handler for an explicit login through p: it sends no
// stored token, so that the server asks for authorization, and answers
// that through p, once. Later requests carry the new tokens.
func (h *Handler) ForLogin(p *Prompter) *Handler {
	return &Handler{tokens: h.tokens, settings: h.settings, client: h.client, prompter: p}
}

// LoggedIn reports whether a login handler obtained new tokens.
func (h *Handler) LoggedIn() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.loggedIn
}

// Tokens returns the tokens the handler attaches.
func (h *Handler) Tokens() *Tokens { return h.tokens }

// TokenSource returns the server's tokens, or nil (no Authorization
// header) while there are none, or while a login has none of its own yet.
func (h *Handler) TokenSource(context.Context) (oauth2.TokenSource, error) {
	if h.prompter != nil && !h.LoggedIn() {
		return nil, nil
	}
	if !h.tokens.has() {
		return nil, nil
	}
	return h.tokens, nil
}

// Authorize answers a 401 or 403 to req. The transport retries req once
// when it returns nil.
func (h *Handler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	challenges, _ := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	stepUp := resp.StatusCode == http.StatusForbidden && challengeParam(challenges, "error") == "insufficient_scope"
	if resp.StatusCode == http.StatusForbidden && !stepUp {
		// Not a matter of scopes: the retry gets the same answer,
		// which the caller then sees.
		discard(resp)
		return nil
	}
	p := h.prompter
	if p != nil {
		h.mu.Lock()
		again, failed := h.loggedIn && !stepUp, h.failed
		h.mu.Unlock()
		if failed != nil && !stepUp {
			discard(resp)
			return failed
		}
		if again {
			discard(resp)
			return &LoginRequiredError{Server: h.tokens.server, Reason: "the server refused the token the login just obtained"}
		}
	} else if p = PrompterFrom(ctx); h.person || (p != nil && p.StepUpOnly && !stepUp) {
		p = nil
	}
	if !stepUp && h.prompter == nil {
		// Perhaps the token only expired early or was rotated: a
		// refresh, or the token another caller already has, may do.
		err := h.tokens.rejected(bearer(req))
		if err == nil || p == nil || !errors.Is(err, ErrLoginRequired) {
			discard(resp)
			return err
		}
	}
	if p == nil {
		// Only a step-up gets here with no one to ask: the scopes are
		// kept for the next login, and this request fails.
		discard(resp)
		scopes := strings.Fields(challengeParam(challenges, "scope"))
		h.tokens.want(scopes)
		return &LoginRequiredError{Server: h.tokens.server, Reason: "the server asked for scopes its token lacks", MoreScopes: true, Scopes: scopes}
	}
	if err := h.authorize(ctx, p, req, resp, stepUp); err != nil {
		if h.prompter != nil {
			h.mu.Lock()
			h.failed = err
			h.mu.Unlock()
		}
		return err
	}
	h.mu.Lock()
	h.loggedIn = true
	h.mu.Unlock()
	return nil
}

// authorize runs the SDK's authorization-code flow through p.
func (h *Handler) authorize(ctx context.Context, p *Prompter, req *http.Request, resp *http.Response, stepUp bool) error {
	server := h.tokens.server
	redirectURL, cb, stop, err := p.begin(h.settings.CallbackPort)
	if err != nil {
		discard(resp)
		return err
	}
	defer stop()
	client, flow := withFlowSecrets(h.client)
	rec := &metadataRecorder{base: flow}
	rec.resource, _ = url.Parse(h.tokens.resource)
	client.Transport = rec
	prev := h.tokens.Grant()
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              redirectURL,
		AuthorizationCodeFetcher: h.fetcher(p, cb),
		ScopeFilter:              func(found []string) []string { return h.scopes(found, prev, stepUp) },
		RequestRefreshToken:      true,
		Client:                   client,
		NewTokenSource: func(_ context.Context, c *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
			g := h.grant(c, tok, rec.lookup(c.Endpoint.TokenURL))
			if err := h.tokens.Save(g); err != nil {
				return nil, fmt.Errorf("storing the tokens of %s: %w", server, err)
			}
			return h.tokens, nil
		},
	}
	h.register(cfg, redirectURL)
	ach, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		discard(resp)
		return fmt.Errorf("logging in to %s: %w", server, err)
	}
	if err := ach.Authorize(ctx, req, resp); err != nil {
		return fmt.Errorf("logging in to %s: %w", server, sanitize(err, append(flow.list(), h.settings.ClientSecret)...))
	}
	return nil
}

// register says how toolsearch registers: as the pre-registered client
// when one is configured; else by its client ID metadata document when
// one is configured and the authorization server supports them, falling
// back to dynamic registration (RFC 7591).
func (h *Handler) register(cfg *auth.AuthorizationCodeHandlerConfig, redirectURL string) {
	s := h.settings
	if s.ClientID != "" {
		creds := &oauthex.ClientCredentials{ClientID: s.ClientID}
		if s.ClientSecret != "" {
			creds.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: s.ClientSecret}
		}
		cfg.PreregisteredClient = creds
		return
	}
	if s.ClientMetadataURL != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: s.ClientMetadataURL}
	}
	cfg.DynamicClientRegistrationConfig = &auth.DynamicClientRegistrationConfig{
		Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName:    ClientName,
			RedirectURIs:  []string{redirectURL},
			GrantTypes:    []string{"authorization_code", "refresh_token"},
			ResponseTypes: []string{"code"},
		},
	}
}

// scopes chooses the scopes to request from those the SDK found (the
// WWW-Authenticate challenge's, else the resource metadata's): the
// configured scopes instead at a first login, and always the scopes
// granted before and those a server asked for since, so that a step-up
// never loses what was granted.
func (h *Handler) scopes(found []string, prev *Grant, stepUp bool) []string {
	want := found
	if len(h.settings.Scopes) > 0 && !stepUp {
		want = h.settings.Scopes
	}
	if prev != nil {
		want = union(want, prev.Scopes)
		want = union(want, prev.WantScopes)
	}
	return want
}

// grant makes the grant a login obtained.
func (h *Handler) grant(c *oauth2.Config, tok *oauth2.Token, meta *oauthex.AuthServerMeta) *Grant {
	g := &Grant{
		Server:       h.tokens.server,
		Resource:     h.tokens.resource,
		AuthURL:      c.Endpoint.AuthURL,
		TokenURL:     c.Endpoint.TokenURL,
		ClientID:     c.ClientID,
		ClientSecret: c.ClientSecret,
		AuthStyle:    c.Endpoint.AuthStyle,
		Scopes:       grantedScopes(tok, c.Scopes),
		Token:        tok,
		Obtained:     h.tokens.now(),
	}
	if meta != nil {
		g.Issuer, g.RevocationURL = meta.Issuer, meta.RevocationEndpoint
	} else if u, err := url.Parse(c.Endpoint.AuthURL); err == nil {
		// No metadata (the 2025-03-26 fallback): the server's origin
		// is the authorization server.
		g.Issuer = u.Scheme + "://" + u.Host
	}
	return g
}

// fetcher shows the authorization page through p and waits for the
// redirect that carries its state.
func (h *Handler) fetcher(p *Prompter, cb *Callbacks) auth.AuthorizationCodeFetcher {
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		u, err := url.Parse(args.URL)
		if err != nil {
			return nil, errors.New("the authorization server's authorization endpoint is not a URL")
		}
		done, stop := cb.expect(u.Query().Get("state"), h.tokens.server)
		defer stop()
		if err := p.Show(ctx, h.tokens.server, args.URL); err != nil {
			return nil, err
		}
		res, err := h.await(ctx, p, done)
		if p.Done != nil {
			p.Done(ctx, h.tokens.server, err)
		}
		return res, err
	}
}

// await waits for the redirect of a login whose page was shown.
func (h *Handler) await(ctx context.Context, p *Prompter, done <-chan callbackResult) (*auth.AuthorizationResult, error) {
	timer := time.NewTimer(p.wait())
	defer timer.Stop()
	select {
	case r := <-done:
		return r.res, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("the login was abandoned: %w", context.Cause(ctx))
	case <-timer.C:
		return nil, fmt.Errorf("the login was not finished in the browser within %v", p.wait())
	}
}

// challengeParam returns a parameter of the Bearer challenge.
func challengeParam(cs []oauthex.Challenge, name string) string {
	for _, c := range cs {
		if c.Scheme == "bearer" && c.Params[name] != "" {
			return c.Params[name]
		}
	}
	return ""
}

// bearer returns the access token a request carried.
func bearer(req *http.Request) string {
	scheme, token, ok := strings.Cut(req.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "bearer") {
		return ""
	}
	return token
}

// discard closes a response no one reads (Authorize owns the ones it is
// given), after draining a bounded part of it so that its connection can
// be reused.
func discard(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}
