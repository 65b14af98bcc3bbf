package oauth

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/toolsearch/toolsearch/internal/utf8cut"
	"golang.org/x/oauth2"
)

// UserLogins run the logins of people (servers with identity: user) in two
// halves that need not meet in one process. Begin discovers the
// authorization server, registers toolsearch with it and records the
// pending login (its state, PKCE verifier and client) in Pending; the
// redirect back reaches Complete on whichever replica the load balancer
// picks, which takes the pending login (once, across every replica) and
// stores the grant under the key of the principal who began it. Who brings
// the redirect back plays no part: the state names the principal.
//
// The protocol is the one the go-sdk's auth.AuthorizationCodeHandler runs
// for the shared login (PKCE S256, protected resource and authorization
// server metadata with the 2025-03-26 fallbacks, pre-registered clients,
// client ID metadata documents or dynamic registration, resource
// indicators, RFC 9207's issuer), split in two because the SDK keeps the
// verifier in the goroutine that waits for the redirect.
type UserLogins struct {
	Pending Logins
	Grants  Grants
	// Client makes every request of a login (nil: http.DefaultClient),
	// guarded (see Guard).
	Client *http.Client
	Log    *slog.Logger
}

// A LoginStart asks for one person's login to one server.
type LoginStart struct {
	Principal, Server string
	Resource          string // the server's URL
	Settings          Settings
	RedirectURL       string // where the redirect comes back (CallbackPath)
	// Nonce, when set, binds the login to the browser holding it in a
	// cookie (see LoginCookie): the redirect is taken from it only.
	Nonce string
}

// LoginCookie names the cookie that binds a login begun on the status
// page to the browser that began it.
const LoginCookie = "toolsearch_login"

// ErrNoPendingLogin is returned by Complete for a state no login waits for:
// finished already, expired, or never begun.
var ErrNoPendingLogin = errors.New("no login waits for this redirect: it may have been finished already, or timed out")

// binding is what a pending login keeps of a browser's nonce.
func binding(nonce string) string {
	sum := sha256.Sum256([]byte("toolsearch login binding\x00" + nonce))
	return hex.EncodeToString(sum[:])
}

// Begin starts a login for s.Principal and returns the authorization
// page's URL, which the person opens.
func (u *UserLogins) Begin(ctx context.Context, s LoginStart) (authURL string, err error) {
	if s.Principal == "" {
		return "", errors.New("a person's login needs the person: the request names no principal")
	}
	client, flow := withFlowSecrets(Guard(u.Client, s.Resource))
	defer func() {
		if err != nil {
			err = fmt.Errorf("logging in to %s as %s: %w", s.Server, s.Principal, sanitize(err, append(flow.list(), s.Settings.ClientSecret)...))
		}
	}()
	challenges, err := probe(ctx, client, s.Resource)
	if err != nil {
		return "", err
	}
	prm := resourceMetadata(ctx, client, challenges, s.Resource)
	if len(prm.AuthorizationServers) == 0 {
		return "", errors.New("the server's protected resource metadata names no authorization server")
	}
	asm, err := auth.GetAuthServerMetadata(ctx, prm.AuthorizationServers[0], client)
	if err != nil {
		return "", fmt.Errorf("reading the authorization server's metadata: %w", err)
	}
	if asm == nil { // the 2025-03-26 fallback: predefined endpoints
		base := strings.TrimSuffix(prm.AuthorizationServers[0], "/")
		asm = &oauthex.AuthServerMeta{Issuer: base, AuthorizationEndpoint: base + "/authorize", TokenEndpoint: base + "/token", RegistrationEndpoint: base + "/register"}
	}
	l := &PendingLogin{
		State: rand.Text(), Principal: s.Principal, Server: s.Server, Resource: s.Resource, Indicator: prm.Resource,
		Expires: time.Now().Add(LoginLife), Verifier: oauth2.GenerateVerifier(), RedirectURL: s.RedirectURL,
		AuthURL: asm.AuthorizationEndpoint, TokenURL: asm.TokenEndpoint, Issuer: asm.Issuer, RevocationURL: asm.RevocationEndpoint,
		IssRequired: asm.AuthorizationResponseIssParameterSupported,
		Scopes:      u.remembered(ctx, GrantKey{Principal: s.Principal, Server: s.Server, Resource: s.Resource}, loginScopes(s.Settings, challenges, prm, asm)),
	}
	if s.Nonce != "" {
		l.Binding = binding(s.Nonce)
	}
	if err := u.register(ctx, client, l, s.Settings, asm); err != nil {
		return "", err
	}
	if err := u.Pending.PutLogin(ctx, l); err != nil {
		if errors.Is(err, ErrUnavailable) {
			return "", fmt.Errorf("the login cannot be recorded while the shared state (the database) cannot be reached: try again once it is back: %w", err)
		}
		return "", fmt.Errorf("recording the login: %w", err)
	}
	return l.config().AuthCodeURL(l.State, oauth2.S256ChallengeOption(l.Verifier), oauth2.SetAuthURLParam("resource", l.Indicator)), nil
}

// Complete finishes the login a redirect back names by its state: it takes
// the pending login (a second redirect with the same state finds none),
// exchanges the code, and stores the grant under the principal who began
// the login. nonce is the login cookie the redirect's browser sent ("" for
// none). The pending login is returned, with or without an error, once it
// was found.
func (u *UserLogins) Complete(ctx context.Context, q url.Values, nonce string) (*PendingLogin, error) {
	state := q.Get("state")
	if state == "" {
		return nil, ErrNoPendingLogin
	}
	l, err := u.Pending.TakeLogin(ctx, state)
	if err != nil {
		return nil, fmt.Errorf("the pending login could not be read (try again, then log in again): %w", err)
	}
	if l == nil {
		return nil, ErrNoPendingLogin
	}
	if l.Binding != "" && subtle.ConstantTimeCompare([]byte(binding(nonce)), []byte(l.Binding)) != 1 {
		return l, errors.New("this login was begun in another browser than the one that came back with it; nothing was stored: log in again from your own status page")
	}
	if e := q.Get("error"); e != "" {
		msg := e
		if d := q.Get("error_description"); d != "" {
			msg += ": " + d
		}
		return l, fmt.Errorf("the authorization server refused the login: %s", utf8cut.Prefix(msg, 300))
	}
	if iss := q.Get("iss"); (l.IssRequired || iss != "") && iss != l.Issuer {
		return l, errors.New("the redirect names another authorization server than the one the login began with; nothing was stored")
	}
	client, flow := withFlowSecrets(Guard(u.Client, l.Resource))
	tok, err := l.config().Exchange(context.WithValue(ctx, oauth2.HTTPClient, client), q.Get("code"),
		oauth2.VerifierOption(l.Verifier), oauth2.SetAuthURLParam("resource", l.Indicator))
	if err != nil {
		return l, fmt.Errorf("exchanging the code for tokens: %w", sanitize(err, append(flow.list(), l.Verifier, l.ClientSecret, q.Get("code"))...))
	}
	g := &Grant{
		Server: l.Server, Resource: l.Resource, Issuer: l.Issuer, AuthURL: l.AuthURL, TokenURL: l.TokenURL,
		RevocationURL: l.RevocationURL, ClientID: l.ClientID, ClientSecret: l.ClientSecret, AuthStyle: l.AuthStyle,
		Scopes: grantedScopes(tok, l.Scopes), Token: tok, Obtained: time.Now(),
	}
	if _, err := u.Grants.SaveGrant(ctx, GrantKey{Principal: l.Principal, Server: l.Server, Resource: l.Resource}, g); err != nil {
		return l, fmt.Errorf("storing the login of %s to %s: %w", l.Principal, l.Server, err)
	}
	return l, nil
}

// config is the OAuth client configuration of a pending login.
func (l *PendingLogin) config() *oauth2.Config {
	return &oauth2.Config{
		ClientID: l.ClientID, ClientSecret: l.ClientSecret, RedirectURL: l.RedirectURL, Scopes: l.Scopes,
		Endpoint: oauth2.Endpoint{AuthURL: l.AuthURL, TokenURL: l.TokenURL, AuthStyle: l.AuthStyle},
	}
}

// register says which client toolsearch is: the pre-registered one, its
// client ID metadata document where the authorization server takes them,
// or one registered now (RFC 7591) for the login's redirect URI.
func (u *UserLogins) register(ctx context.Context, client *http.Client, l *PendingLogin, s Settings, asm *oauthex.AuthServerMeta) error {
	switch {
	case s.ClientMetadataURL != "" && asm.ClientIDMetadataDocumentSupported:
		l.ClientID = s.ClientMetadataURL
	case s.ClientID != "":
		l.ClientID, l.ClientSecret = s.ClientID, s.ClientSecret
		l.AuthStyle = tokenAuthStyle(asm.TokenEndpointAuthMethodsSupported)
	case asm.RegistrationEndpoint != "":
		reg, err := oauthex.RegisterClient(ctx, asm.RegistrationEndpoint, &oauthex.ClientRegistrationMetadata{
			ClientName:    ClientName,
			RedirectURIs:  []string{l.RedirectURL},
			GrantTypes:    []string{"authorization_code", "refresh_token"},
			ResponseTypes: []string{"code"},
		}, client)
		if err != nil {
			return fmt.Errorf("registering with the authorization server: %w", err)
		}
		l.ClientID, l.ClientSecret = reg.ClientID, reg.ClientSecret
		l.AuthStyle = methodStyle(reg.TokenEndpointAuthMethod)
	default:
		return errors.New("the authorization server offers no way to register, and servers.NAME.oauth names no clientId")
	}
	return nil
}

// tokenAuthStyle picks how a pre-registered client authenticates, as the
// SDK does: client_secret_post first (OAuth 2.1), then basic.
func tokenAuthStyle(supported []string) oauth2.AuthStyle {
	for _, m := range []string{"client_secret_post", "client_secret_basic"} {
		if slices.Contains(supported, m) {
			return methodStyle(m)
		}
	}
	return oauth2.AuthStyleAutoDetect
}

func methodStyle(method string) oauth2.AuthStyle {
	switch method {
	case "client_secret_post", "none":
		return oauth2.AuthStyleInParams
	}
	return oauth2.AuthStyleInHeader // RFC 7591's default: client_secret_basic
}

// loginScopes are the scopes a person's login asks for: the configured
// ones, else the challenge's, else the resource's; offline_access too
// where the authorization server takes it, for a refresh token.
func loginScopes(s Settings, challenges []oauthex.Challenge, prm *oauthex.ProtectedResourceMetadata, asm *oauthex.AuthServerMeta) []string {
	scopes := slices.Clone(s.Scopes)
	if len(scopes) == 0 {
		scopes = strings.Fields(challengeParam(challenges, "scope"))
	}
	if len(scopes) == 0 {
		scopes = slices.Clone(prm.ScopesSupported)
	}
	if slices.Contains(asm.ScopesSupported, "offline_access") && !slices.Contains(scopes, "offline_access") {
		scopes = append(scopes, "offline_access")
	}
	return scopes
}

// remembered adds to a person's login the scopes their grant holds and
// those the server asked for since (a 403 insufficient_scope to one of
// their calls, kept in their grant as WantScopes), as the shared login
// does (Handler.scopes): the probe goes without a token, so its challenge
// names the first login's scopes, and a step-up would lose what it is for.
// A grant that cannot be read adds nothing: the login replaces it.
func (u *UserLogins) remembered(ctx context.Context, k GrantKey, scopes []string) []string {
	prev, _, err := u.Grants.LoadGrant(ctx, k)
	if err != nil || prev == nil {
		return scopes
	}
	return union(union(scopes, prev.Scopes), prev.WantScopes)
}

// probeBody is the initialize request a login sends without a token, for
// the server's challenge.
const probeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"toolsearch","version":"login"}}}`

// probe asks the server without a token and returns its challenges (none
// when it did not answer 401 or 403: the metadata is then looked for where
// the specification puts it).
func probe(ctx context.Context, client *http.Client, resource string) ([]oauthex.Challenge, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, resource, bytes.NewReader([]byte(probeBody)))
	if err != nil {
		return nil, fmt.Errorf("the server's URL: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("reaching the server: %w", err)
	}
	defer discard(resp)
	if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		return nil, nil
	}
	cs, _ := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	return cs, nil
}

// resourceMetadata finds the server's protected resource metadata (RFC
// 9728): where its challenge says, at its path, at the root; else, as the
// 2025-03-26 specification had it, its origin is the authorization server.
func resourceMetadata(ctx context.Context, client *http.Client, challenges []oauthex.Challenge, resource string) *oauthex.ProtectedResourceMetadata {
	type try struct{ metadata, resource string }
	var tries []try
	for _, c := range challenges {
		if m := c.Params["resource_metadata"]; m != "" {
			tries = append(tries, try{m, resource})
			break
		}
	}
	ru, err := url.Parse(resource)
	if err == nil {
		mu := *ru
		mu.RawQuery, mu.Fragment = "", ""
		mu.Path = "/.well-known/oauth-protected-resource/" + strings.TrimLeft(ru.Path, "/")
		tries = append(tries, try{mu.String(), resource})
		root := *ru
		root.Path, root.RawQuery, root.Fragment = "", "", ""
		mu.Path = "/.well-known/oauth-protected-resource"
		tries = append(tries, try{mu.String(), root.String()})
	}
	for _, t := range tries {
		if prm, err := oauthex.GetProtectedResourceMetadata(ctx, t.metadata, t.resource, client); err == nil && prm != nil {
			return prm
		}
	}
	origin := ""
	if ru != nil {
		origin = ru.Scheme + "://" + ru.Host
	}
	return &oauthex.ProtectedResourceMetadata{AuthorizationServers: []string{origin}, Resource: resource}
}
