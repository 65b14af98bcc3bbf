package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/toolsearch/toolsearch/examples/servers/authserver"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// oauthEnv is an MCP server behind OAuth, its authorization server, and a
// token store, all in process.
type oauthEnv struct {
	t       *testing.T
	as      *authserver.Server
	url     string // the MCP endpoint
	store   *oauth.Store
	catalog *catalog.Catalog
	opts    Options
	// adminScope, when set, is the scope tools/call of "admin" needs, asked
	// for with a 403 insufficient_scope; "never" refuses it whatever the
	// token.
	adminScope atomic.Value
	// shows counts the authorization pages shown.
	shows atomic.Int32
	// asHook, when it holds a non-nil http.HandlerFunc, answers the
	// authorization server's requests instead of it.
	asHook atomic.Value
}

func newOAuthEnv(t *testing.T, sse bool) *oauthEnv {
	e := &oauthEnv{t: t, catalog: catalog.New()}
	e.as = authserver.New(authserver.Options{Scopes: []string{"tasks", "admin"}})
	asSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hook, _ := e.asHook.Load().(http.HandlerFunc); hook != nil {
			hook(w, r)
			return
		}
		e.as.ServeHTTP(w, r)
	}))
	t.Cleanup(asSrv.Close)
	e.as.SetIssuer(asSrv.URL)

	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	path := "/mcp"
	if sse {
		path = "/sse"
	}
	e.url = srv.URL + path
	server := mcp.NewServer(&mcp.Implementation{Name: "protected", Version: "v1"}, nil)
	for _, name := range []string{"echo", "admin"} {
		server.AddTool(&mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: name + " ok"}}}, nil
			})
	}
	// bearer answers with the fingerprint of the token the call came with.
	server.AddTool(&mcp.Tool{Name: "bearer", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fingerprint(strings.TrimPrefix(req.Extra.Header.Get("Authorization"), "Bearer "))}}}, nil
		})
	prm := "/.well-known/oauth-protected-resource" + path
	mux.Handle(prm, auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource:             e.url,
		AuthorizationServers: []string{asSrv.URL},
		ScopesSupported:      []string{"tasks"},
	}))
	var h http.Handler
	if sse {
		h = mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return server }, nil)
	} else {
		h = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	}
	h = e.stepUp(h, srv.URL+prm)
	h = auth.RequireBearerToken(e.as.Verifier(e.url), &auth.RequireBearerTokenOptions{ResourceMetadataURL: srv.URL + prm, Scopes: []string{"tasks"}})(h)
	mux.Handle(path, h)

	store, err := oauth.NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e.store = store
	e.opts = Options{
		Catalog:    e.catalog,
		CacheDir:   t.TempDir(),
		Logger:     testLogger(t),
		TokenStore: store,
		MaxBackoff: time.Second,
	}
	return e
}

// stepUp refuses a tools/call of "admin" without e.adminScope with 403
// insufficient_scope, as the MCP spec's step-up flow has it.
func (e *oauthEnv) stepUp(next http.Handler, prm string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scope, _ := e.adminScope.Load().(string)
		if scope == "" || r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		var msg struct {
			Method string `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		_ = json.Unmarshal(body, &msg)
		info := auth.TokenInfoFromContext(r.Context())
		if msg.Method == "tools/call" && msg.Params.Name == "admin" && (info == nil || !slices.Contains(info.Scopes, scope) || scope == "never" || scope == "bare") {
			challenge := `Bearer error="insufficient_scope", scope="tasks ` + scope + `", resource_metadata="` + prm + `"`
			if scope == "bare" {
				challenge = `Bearer error="insufficient_scope"` // no scope named
			}
			w.Header().Set("WWW-Authenticate", challenge)
			http.Error(w, "insufficient scope", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (e *oauthEnv) config(typ string) []ServerConfig {
	return []ServerConfig{{Name: "remote", Type: typ, URL: e.url}}
}

// start makes and starts a Manager for the server, closed at the end of
// the test.
func (e *oauthEnv) start(typ string) *Manager {
	m := New(e.config(typ), e.opts)
	m.firstBackoff = time.Millisecond
	m.Start(context.Background())
	e.t.Cleanup(func() { m.Close() })
	return m
}

// prompter is a person who approves every login: their browser fetches
// the authorization URL and follows the redirects to toolsearch's
// callback.
func (e *oauthEnv) prompter() *oauth.Prompter {
	return &oauth.Prompter{Wait: waitLimit, Show: func(ctx context.Context, server, authURL string) error {
		e.shows.Add(1)
		resp, err := http.Get(authURL)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b, _ := io.ReadAll(resp.Body)
			return errors.New("callback page: " + resp.Status + ": " + string(b))
		}
		return nil
	}}
}

func (e *oauthEnv) login(m *Manager) *oauth.Info {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := m.Login(ctx, "remote", e.prompter()); err != nil {
		e.t.Fatalf("Login: %v", err)
	}
	tokens, _ := m.Tokens("remote")
	return tokens.Info()
}

func callOK(t *testing.T, m *Manager, tool string) {
	t.Helper()
	res, err := m.Call(context.Background(), "remote", tool, nil)
	if err != nil {
		t.Fatalf("Call(%s): %v", tool, err)
	}
	if got := textOf(res); got != tool+" ok" {
		t.Fatalf("Call(%s) = %q", tool, got)
	}
}

func wantAuthRequired(t *testing.T, err error) *AuthRequiredError {
	t.Helper()
	var ar *AuthRequiredError
	if !errors.As(err, &ar) {
		t.Fatalf("got %v (%T), want an *AuthRequiredError", err, err)
	}
	if ar.Command != "toolsearch auth login remote" {
		t.Errorf("command = %q", ar.Command)
	}
	return ar
}

func TestOAuthLoginServesAndSurvivesRestart(t *testing.T) {
	for _, typ := range []string{TypeHTTP, TypeSSE} {
		t.Run(typ, func(t *testing.T) {
			e := newOAuthEnv(t, typ == TypeSSE)
			m := e.start(typ)
			src := waitSource(t, e.catalog, "remote", "needs_auth", inState(catalog.StateNeedsAuth))
			if !strings.Contains(src.LastError, "toolsearch auth login remote") {
				t.Errorf("LastError = %q, want the login command", src.LastError)
			}
			_, err := m.Call(context.Background(), "remote", "echo", nil)
			wantAuthRequired(t, err)

			info := e.login(m)
			if info.Issuer != e.as.Issuer() || !slices.Contains(info.Scopes, "tasks") || !info.Refreshable || info.NeedsLogin != "" {
				t.Errorf("login: %+v", info)
			}
			waitSource(t, e.catalog, "remote", "active", inState(catalog.StateActive))
			callOK(t, m, "echo")

			file, err := os.Stat(e.store.Path("remote", e.url))
			if err != nil {
				t.Fatal(err)
			}
			if mode := file.Mode().Perm(); mode != 0o600 {
				t.Errorf("token file mode %v, want 0600", mode)
			}

			// A new process (a new Manager) uses the stored tokens.
			m.Close()
			e.catalog = catalog.New()
			e.opts.Catalog = e.catalog
			m2 := e.start(typ)
			waitSource(t, e.catalog, "remote", "active after restart", inState(catalog.StateActive))
			callOK(t, m2, "echo")
			if st := e.as.Stats(); st.Authorizations != 1 || e.shows.Load() != 1 {
				t.Errorf("%d authorizations, %d pages shown; want one login", st.Authorizations, e.shows.Load())
			}
		})
	}
}

func TestOAuthLoginNotNeeded(t *testing.T) {
	f := newFakeServer(nil)
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return f.Server }, nil))
	defer srv.Close()
	store, _ := oauth.NewStore(t.TempDir())
	m := New([]ServerConfig{{Name: "open", Type: TypeHTTP, URL: srv.URL}}, Options{TokenStore: store, CacheDir: t.TempDir()})
	defer m.Close()
	err := m.Login(context.Background(), "open", &oauth.Prompter{Show: func(context.Context, string, string) error {
		t.Error("a page was shown for a server that needs no login")
		return nil
	}})
	if !errors.Is(err, ErrLoginNotNeeded) {
		t.Fatalf("Login: %v, want ErrLoginNotNeeded", err)
	}
}

// TestOAuthRefreshOnce: an access token about to expire is refreshed once,
// however many calls need it at the same time.
func TestOAuthRefreshOnce(t *testing.T) {
	e := newOAuthEnv(t, false)
	m := e.start(TypeHTTP)
	e.login(m)
	waitSource(t, e.catalog, "remote", "active", inState(catalog.StateActive))

	// Make the stored token about to expire (it is still good at the
	// authorization server, which does not matter here).
	g, err := e.store.Load("remote", e.url)
	if err != nil || g == nil {
		t.Fatalf("Load: %v %v", g, err)
	}
	old := g.Token.AccessToken
	g.Obtained = time.Now().Add(-time.Hour)
	g.Token.Expiry = time.Now().Add(30 * time.Second)
	if err := e.store.Save(g); err != nil {
		t.Fatal(err)
	}

	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() { callOK(t, m, "echo") })
	}
	wg.Wait()
	if n := e.as.Stats().Refreshes; n != 1 {
		t.Errorf("%d refresh requests for 50 concurrent calls, want 1", n)
	}
	g2, _ := e.store.Load("remote", e.url)
	if g2.Token.AccessToken == old || !g2.Token.Expiry.After(time.Now().Add(time.Minute)) {
		t.Errorf("the refreshed token was not stored")
	}
}

// TestOAuthRevoked: tokens the authorization server revoked move the
// server to needs_auth, and a login brings it back.
func TestOAuthRevoked(t *testing.T) {
	for _, when := range []string{"at a refresh", "at a call"} {
		t.Run(when, func(t *testing.T) {
			e := newOAuthEnv(t, false)
			m := e.start(TypeHTTP)
			e.login(m)
			waitSource(t, e.catalog, "remote", "active", inState(catalog.StateActive))
			callOK(t, m, "echo")

			e.as.RevokeAll()
			if when == "at a refresh" {
				g, _ := e.store.Load("remote", e.url)
				g.Obtained, g.Token.Expiry = time.Now().Add(-time.Hour), time.Now().Add(time.Second)
				e.store.Save(g)
			}
			_, err := m.Call(context.Background(), "remote", "echo", nil)
			ar := wantAuthRequired(t, err)
			if !strings.Contains(ar.Reason, "refused") {
				t.Errorf("reason = %q", ar.Reason)
			}
			waitSource(t, e.catalog, "remote", "needs_auth", inState(catalog.StateNeedsAuth))
			_, err = m.Call(context.Background(), "remote", "echo", nil)
			wantAuthRequired(t, err)

			e.login(m)
			waitSource(t, e.catalog, "remote", "active again", inState(catalog.StateActive))
			callOK(t, m, "echo")
		})
	}
}

// TestOAuthLoginElsewhere: a server waiting for a login picks up tokens
// another process stored, without a call or a restart.
func TestOAuthLoginElsewhere(t *testing.T) {
	e := newOAuthEnv(t, false)
	m := e.start(TypeHTTP)
	waitSource(t, e.catalog, "remote", "needs_auth", inState(catalog.StateNeedsAuth))

	other := New(e.config(TypeHTTP), Options{TokenStore: e.store, CacheDir: t.TempDir()})
	defer other.Close()
	e.login(other)
	waitSource(t, e.catalog, "remote", "active", inState(catalog.StateActive))
	callOK(t, m, "echo")
}

// TestOAuthStepUp: a call the server refuses for want of a scope runs a
// second authorization with the union of the scopes when the call may
// involve the person, at most once; otherwise it fails with the scopes
// needed, and the next login asks for them.
func TestOAuthStepUp(t *testing.T) {
	e := newOAuthEnv(t, false)
	e.adminScope.Store("admin")
	m := e.start(TypeHTTP)
	e.login(m)
	waitSource(t, e.catalog, "remote", "active", inState(catalog.StateActive))
	callOK(t, m, "echo")

	_, err := m.Call(context.Background(), "remote", "admin", nil)
	ar := wantAuthRequired(t, err)
	if !slices.Contains(ar.Scopes, "admin") {
		t.Errorf("scopes = %v, want admin among them", ar.Scopes)
	}
	if src, _ := e.catalog.Snapshot().Source("remote"); src.State != catalog.StateActive {
		t.Errorf("state %s after a call that needs more scopes, want active", src.State)
	}

	ctx := oauth.WithPrompter(context.Background(), e.prompter())
	res, err := m.Call(ctx, "remote", "admin", nil)
	if err != nil || textOf(res) != "admin ok" {
		t.Fatalf("Call with a prompter: %v %v", res, err)
	}
	g, _ := e.store.Load("remote", e.url)
	if !slices.Contains(g.Scopes, "tasks") || !slices.Contains(g.Scopes, "admin") {
		t.Errorf("scopes after step-up %v, want tasks and admin", g.Scopes)
	}
	if n := e.shows.Load(); n != 2 {
		t.Errorf("%d pages shown, want 2 (login, step-up)", n)
	}

	// A refusal that names no scope is still about scopes: the server
	// stays active.
	e.adminScope.Store("bare")
	_, err = m.Call(context.Background(), "remote", "admin", nil)
	wantAuthRequired(t, err)
	callOK(t, m, "echo")
	if src, _ := e.catalog.Snapshot().Source("remote"); src.State != catalog.StateActive {
		t.Errorf("state %s after a 403 insufficient_scope without scopes, want active", src.State)
	}

	// A scope nothing grants: one authorization for the call, no loop.
	e.adminScope.Store("never")
	before := e.as.Stats().Authorizations
	_, err = m.Call(ctx, "remote", "admin", nil)
	if err == nil {
		t.Fatal("a call the server always refuses succeeded")
	}
	if n := e.as.Stats().Authorizations - before; n != 1 {
		t.Errorf("%d authorizations for one call, want 1", n)
	}
}

// TestSSETokenStaysHome: the SSE transport's requests carry the token to
// the server's origin only, not along a redirect to another one.
func TestSSETokenStaysHome(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]string{}
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen["elsewhere"] = r.Header.Get("Authorization")
		mu.Unlock()
	}))
	defer elsewhere.Close()
	home := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen["home"] = r.Header.Get("Authorization")
		mu.Unlock()
		http.Redirect(w, r, elsewhere.URL+"/sse", http.StatusFound)
	}))
	defer home.Close()

	store, _ := oauth.NewStore(t.TempDir())
	store.Save(&oauth.Grant{Server: "remote", Resource: home.URL + "/sse", Token: &oauth2.Token{AccessToken: "at-home-only", Expiry: time.Now().Add(time.Hour)}, Obtained: time.Now()})
	h := oauth.NewHandler(oauth.NewTokens(store, "remote", home.URL+"/sse", nil, nil), oauth.Settings{}, nil)
	tr := withOAuth(&mcp.SSEClientTransport{Endpoint: home.URL + "/sse"}, h).(*mcp.SSEClientTransport)
	resp, err := tr.HTTPClient.Get(home.URL + "/sse")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	mu.Lock()
	defer mu.Unlock()
	if seen["home"] != "Bearer at-home-only" || seen["elsewhere"] != "" {
		t.Errorf("Authorization at home %q, elsewhere %q", seen["home"], seen["elsewhere"])
	}
}

// roundTripFunc is an http.RoundTripper made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// The SSE transport's idea of the server's origin is headerTransport's:
// the scheme's default port written out, or the host in other letter case,
// is the same origin, and gets the token.
func TestSSETokenOrigin(t *testing.T) {
	const resource = "http://mcp.example.com/sse"
	store, _ := oauth.NewStore(t.TempDir())
	store.Save(&oauth.Grant{Server: "remote", Resource: resource, Token: &oauth2.Token{AccessToken: "at-origin", Expiry: time.Now().Add(time.Hour)}, Obtained: time.Now()})
	h := oauth.NewHandler(oauth.NewTokens(store, "remote", resource, nil, nil), oauth.Settings{}, nil)
	var got string
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		got = r.Header.Get("Authorization")
		return &http.Response{StatusCode: http.StatusOK, Body: http.NoBody, Request: r}, nil
	})
	tr := withOAuth(&mcp.SSEClientTransport{Endpoint: resource, HTTPClient: &http.Client{Transport: base}}, h).(*mcp.SSEClientTransport)
	for url, want := range map[string]string{
		"http://mcp.example.com:80/messages?id=1": "Bearer at-origin",
		"http://MCP.example.com/messages":         "Bearer at-origin",
		"http://mcp.example.com:8080/messages":    "",
		"https://mcp.example.com/messages":        "",
		"http://other.example.com/messages":       "",
	} {
		got = "unset"
		resp, err := tr.HTTPClient.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got != want {
			t.Errorf("%s: Authorization %q, want %q", url, got, want)
		}
	}
}
