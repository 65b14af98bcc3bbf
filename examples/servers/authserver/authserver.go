// Package authserver is a small OAuth 2.1 authorization server for trying
// and testing toolsearch's login offline. It approves every authorization
// request at once (there is no user to ask), and keeps everything in
// memory. It is a test double, not something to protect real data with.
//
// What it implements is what an MCP client meets in the wild:
//
//   - metadata at /.well-known/oauth-authorization-server (RFC 8414)
//   - dynamic client registration at /register (RFC 7591)
//   - /authorize for the authorization code grant with PKCE S256 only,
//     binding the code to the client, redirect URI, scopes and resource
//     indicator (RFC 8707), and answering with iss (RFC 9207)
//   - /token for authorization_code and refresh_token, with client
//     authentication client_secret_basic, client_secret_post or none, and
//     refresh token rotation
//   - /revoke (RFC 7009) and /introspect (RFC 7662), which a resource server
//     uses to check tokens ([Server.Verifier], [IntrospectionVerifier])
//
// Tests read what happened from [Server.Stats] and break things on
// purpose with [Server.RevokeAll].
package authserver

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// Options configure a Server.
type Options struct {
	// Issuer is the server's URL (scheme, host and port, no path), which
	// prefixes every endpoint. It may be set after New, before the first
	// request, with SetIssuer.
	Issuer string
	// Scopes are the scopes_supported advertised.
	Scopes []string
	// AccessTTL is the life of an access token; zero means an hour.
	AccessTTL time.Duration
	// Clients are registered in advance: client ID to secret ("" for a
	// public client). Any redirect URI on 127.0.0.1 or localhost is
	// accepted for them, as RFC 8252 asks for native apps.
	Clients map[string]string
}

// Stats counts what the server was asked.
type Stats struct {
	Registrations  int // dynamic registrations
	Authorizations int // authorization requests approved
	CodeExchanges  int // authorization codes exchanged for tokens
	Refreshes      int // refresh_token grants, answered or refused
	Revocations    int
}

// Server is the authorization server; it is an http.Handler.
type Server struct {
	mux  *http.ServeMux
	opts Options

	mu      sync.Mutex
	issuer  string
	clients map[string]*client
	codes   map[string]*grant // authorization code -> grant
	access  map[string]*grant // access token -> grant
	refresh map[string]*grant // refresh token -> grant
	stats   Stats
}

type client struct {
	secret       string
	redirectURIs []string // nil: any loopback redirect URI
	authMethod   string   // client_secret_basic, client_secret_post or none
}

// A grant is what one authorization allowed.
type grant struct {
	clientID  string
	redirect  string
	challenge string // PKCE S256 code challenge, until the code is used
	scope     string
	resource  string
	expires   time.Time // of the code, then of the access token
}

// New returns a server.
func New(opts Options) *Server {
	if opts.AccessTTL <= 0 {
		opts.AccessTTL = time.Hour
	}
	s := &Server{
		mux:     http.NewServeMux(),
		opts:    opts,
		issuer:  strings.TrimSuffix(opts.Issuer, "/"),
		clients: map[string]*client{},
		codes:   map[string]*grant{},
		access:  map[string]*grant{},
		refresh: map[string]*grant{},
	}
	for id, secret := range opts.Clients {
		method := "client_secret_basic"
		if secret == "" {
			method = "none"
		}
		s.clients[id] = &client{secret: secret, authMethod: method}
	}
	s.mux.HandleFunc("GET /.well-known/oauth-authorization-server", s.metadata)
	s.mux.HandleFunc("POST /register", s.register)
	s.mux.HandleFunc("GET /authorize", s.authorize)
	s.mux.HandleFunc("POST /token", s.token)
	s.mux.HandleFunc("POST /revoke", s.revoke)
	s.mux.HandleFunc("POST /introspect", s.introspect)
	return s
}

// SetIssuer sets the server's URL, for a server whose port is known only
// once it listens.
func (s *Server) SetIssuer(issuer string) {
	s.mu.Lock()
	s.issuer = strings.TrimSuffix(issuer, "/")
	s.mu.Unlock()
}

// Issuer returns the server's URL.
func (s *Server) Issuer() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.issuer
}

// Stats returns what the server was asked so far.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// RevokeAll revokes every token issued, as an administrator would: the
// next refresh is refused with invalid_grant.
func (s *Server) RevokeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.access)
	clear(s.refresh)
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	s.mux.ServeHTTP(w, r)
}

func (s *Server) metadata(w http.ResponseWriter, r *http.Request) {
	iss := s.Issuer()
	writeJSON(w, http.StatusOK, &oauthex.AuthServerMeta{
		Issuer:                                     iss,
		AuthorizationEndpoint:                      iss + "/authorize",
		TokenEndpoint:                              iss + "/token",
		RegistrationEndpoint:                       iss + "/register",
		RevocationEndpoint:                         iss + "/revoke",
		IntrospectionEndpoint:                      iss + "/introspect",
		ScopesSupported:                            s.opts.Scopes,
		ResponseTypesSupported:                     []string{"code"},
		GrantTypesSupported:                        []string{"authorization_code", "refresh_token"},
		TokenEndpointAuthMethodsSupported:          []string{"client_secret_basic", "client_secret_post", "none"},
		CodeChallengeMethodsSupported:              []string{"S256"},
		AuthorizationResponseIssParameterSupported: true,
	})
}

func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	var meta oauthex.ClientRegistrationMetadata
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody)).Decode(&meta); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_client_metadata", "the body is not client metadata JSON")
		return
	}
	if len(meta.RedirectURIs) == 0 {
		oauthError(w, http.StatusBadRequest, "invalid_redirect_uri", "redirect_uris is required")
		return
	}
	for _, u := range meta.RedirectURIs {
		if p, err := url.Parse(u); err != nil || p.Scheme == "" || p.Fragment != "" {
			oauthError(w, http.StatusBadRequest, "invalid_redirect_uri", "each redirect URI must be an absolute URI without a fragment")
			return
		}
	}
	c := &client{redirectURIs: meta.RedirectURIs, authMethod: meta.TokenEndpointAuthMethod}
	switch c.authMethod {
	case "":
		c.authMethod = "client_secret_basic"
	case "client_secret_basic", "client_secret_post", "none":
	default:
		oauthError(w, http.StatusBadRequest, "invalid_client_metadata", "unsupported token_endpoint_auth_method")
		return
	}
	if c.authMethod != "none" {
		c.secret = rand.Text()
	}
	id := rand.Text()
	s.mu.Lock()
	s.clients[id] = c
	s.stats.Registrations++
	s.mu.Unlock()
	meta.TokenEndpointAuthMethod = c.authMethod
	writeJSON(w, http.StatusCreated, &oauthex.ClientRegistrationResponse{
		ClientRegistrationMetadata: meta,
		ClientID:                   id,
		ClientSecret:               c.secret,
		ClientIDIssuedAt:           time.Now(),
	})
}

// authorize approves at once. Until the redirect URI is known good,
// errors are shown here rather than sent to it (RFC 6749 §4.1.2.1).
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	c := s.clients[q.Get("client_id")]
	s.mu.Unlock()
	redirect := q.Get("redirect_uri")
	switch {
	case c == nil:
		http.Error(w, "unknown client_id", http.StatusBadRequest)
		return
	case !c.allows(redirect):
		http.Error(w, "redirect_uri is not registered for this client", http.StatusBadRequest)
		return
	}
	back, _ := url.Parse(redirect)
	reply := back.Query()
	reply.Set("state", q.Get("state"))
	reply.Set("iss", s.Issuer())
	fail := func(code, desc string) {
		reply.Set("error", code)
		reply.Set("error_description", desc)
		back.RawQuery = reply.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	}
	switch {
	case q.Get("response_type") != "code":
		fail("unsupported_response_type", "only response_type=code is supported")
		return
	case q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256":
		fail("invalid_request", "PKCE with code_challenge_method=S256 is required")
		return
	}
	code := rand.Text()
	s.mu.Lock()
	s.codes[code] = &grant{
		clientID:  q.Get("client_id"),
		redirect:  redirect,
		challenge: q.Get("code_challenge"),
		scope:     q.Get("scope"),
		resource:  q.Get("resource"),
		expires:   time.Now().Add(time.Minute),
	}
	s.stats.Authorizations++
	s.mu.Unlock()
	reply.Set("code", code)
	back.RawQuery = reply.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

// allows reports whether redirect is a registered redirect URI of c.
func (c *client) allows(redirect string) bool {
	if c.redirectURIs != nil {
		return slices.Contains(c.redirectURIs, redirect)
	}
	u, err := url.Parse(redirect)
	return err == nil && u.Scheme == "http" && (u.Hostname() == "127.0.0.1" || u.Hostname() == "localhost")
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if !parseForm(w, r) {
		return
	}
	id, ok := s.authenticate(r)
	if !ok {
		w.Header().Set("WWW-Authenticate", `Basic realm="token"`)
		oauthError(w, http.StatusUnauthorized, "invalid_client", "client authentication failed")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		s.stats.CodeExchanges++
		code := r.PostForm.Get("code")
		g := s.codes[code]
		delete(s.codes, code) // one use, whatever happens
		switch {
		case g == nil || g.clientID != id || time.Now().After(g.expires):
			oauthError(w, http.StatusBadRequest, "invalid_grant", "unknown, expired or used authorization code")
			return
		case g.redirect != r.PostForm.Get("redirect_uri"):
			oauthError(w, http.StatusBadRequest, "invalid_grant", "redirect_uri differs from the authorization request's")
			return
		case !pkceMatches(r.PostForm.Get("code_verifier"), g.challenge):
			oauthError(w, http.StatusBadRequest, "invalid_grant", "code_verifier does not match the code_challenge")
			return
		case r.PostForm.Get("resource") != g.resource:
			oauthError(w, http.StatusBadRequest, "invalid_target", "resource differs from the authorization request's")
			return
		}
		s.issue(w, g)
	case "refresh_token":
		s.stats.Refreshes++
		rt := r.PostForm.Get("refresh_token")
		g := s.refresh[rt]
		if g == nil || g.clientID != id {
			oauthError(w, http.StatusBadRequest, "invalid_grant", "unknown or revoked refresh token")
			return
		}
		delete(s.refresh, rt) // rotation: a refresh token is good once
		s.issue(w, g)
	default:
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", "only authorization_code and refresh_token are supported")
	}
}

// issue answers with new tokens for g. Callers hold s.mu.
func (s *Server) issue(w http.ResponseWriter, g *grant) {
	next := *g
	next.challenge = ""
	next.expires = time.Now().Add(s.opts.AccessTTL)
	access, refresh := "at-"+rand.Text(), "rt-"+rand.Text()
	s.access[access] = &next
	s.refresh[refresh] = &next
	resp := map[string]any{
		"access_token":  access,
		"token_type":    "Bearer",
		"expires_in":    int(s.opts.AccessTTL / time.Second),
		"refresh_token": refresh,
	}
	if g.scope != "" {
		resp["scope"] = g.scope
	}
	writeJSON(w, http.StatusOK, resp)
}

// authenticate checks the client's credentials, in the way it registered
// for (a public client sends only its ID), and returns its ID.
func (s *Server) authenticate(r *http.Request) (string, bool) {
	id, secret, basic := r.BasicAuth()
	if basic {
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
	} else {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	s.mu.Lock()
	c := s.clients[id]
	s.mu.Unlock()
	if c == nil {
		return "", false
	}
	if c.secret == "" {
		return id, secret == ""
	}
	return id, subtle.ConstantTimeCompare([]byte(secret), []byte(c.secret)) == 1
}

func (s *Server) revoke(w http.ResponseWriter, r *http.Request) {
	if !parseForm(w, r) {
		return
	}
	id, ok := s.authenticate(r)
	if !ok {
		oauthError(w, http.StatusUnauthorized, "invalid_client", "client authentication failed")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.Revocations++
	tok := r.PostForm.Get("token")
	// Revoking a refresh token ends its grant: the access tokens issued
	// with it go too (RFC 7009 §2.1).
	if g := s.refresh[tok]; g != nil && g.clientID == id {
		delete(s.refresh, tok)
		for at, ag := range s.access {
			if ag == g {
				delete(s.access, at)
			}
		}
	}
	if g := s.access[tok]; g != nil && g.clientID == id {
		delete(s.access, tok)
	}
	w.WriteHeader(http.StatusOK) // whether or not the token was known
}

// Subject is the one user every token is issued to: the server approves
// without asking anyone.
const Subject = "demo-user"

// Introspection is the answer of /introspect (RFC 7662).
type Introspection struct {
	Active   bool   `json:"active"`
	Scope    string `json:"scope,omitempty"`
	ClientID string `json:"client_id,omitempty"`
	Sub      string `json:"sub,omitempty"`
	Exp      int64  `json:"exp,omitempty"`
	Aud      string `json:"aud,omitempty"` // the resource the token is for
}

func (s *Server) introspect(w http.ResponseWriter, r *http.Request) {
	if !parseForm(w, r) {
		return
	}
	writeJSON(w, http.StatusOK, s.Introspect(r.PostForm.Get("token")))
}

// Introspect says whether an access token is active, and what for.
func (s *Server) Introspect(token string) Introspection {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.access[token]
	if g == nil || time.Now().After(g.expires) {
		return Introspection{}
	}
	return Introspection{Active: true, Scope: g.scope, ClientID: g.clientID, Sub: Subject, Exp: g.expires.Unix(), Aud: g.resource}
}

// pkceMatches checks an S256 code verifier against its challenge.
func pkceMatches(verifier, challenge string) bool {
	if len(verifier) < 43 || len(verifier) > 128 {
		return false
	}
	sum := sha256.Sum256([]byte(verifier))
	return subtle.ConstantTimeCompare([]byte(base64.RawURLEncoding.EncodeToString(sum[:])), []byte(challenge)) == 1
}

// maxBody bounds what is read of a body: a request's, or an introspection
// answer's.
const maxBody = 64 << 10

// parseForm reads a request's form body, within maxBody, and answers
// invalid_request when it cannot.
func parseForm(w http.ResponseWriter, r *http.Request) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "the body is not a form")
		return false
	}
	return true
}

func oauthError(w http.ResponseWriter, status int, code, desc string) {
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
