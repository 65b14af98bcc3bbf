package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/oauth2"

	"github.com/toolsearch/toolsearch/internal/principal"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// whoServer is an MCP server behind bearer tokens that knows whose each
// token is, and records whose token every tools/call came with.
type whoServer struct {
	url string
	mu  sync.Mutex
	// callers lists the token owners of the tools/calls, in order.
	callers []string
}

func newWhoServer(t *testing.T, owners map[string]string) *whoServer {
	w := &whoServer{}
	s := mcp.NewServer(&mcp.Implementation{Name: "who", Version: "v1"}, nil)
	s.AddTool(&mcp.Tool{Name: "whoami", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			who := req.Extra.TokenInfo.UserID
			w.mu.Lock()
			w.callers = append(w.callers, who)
			w.mu.Unlock()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: who}}}, nil
		})
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if who, ok := owners[token]; ok {
			return &auth.TokenInfo{UserID: who, Expiration: time.Now().Add(time.Hour)}, nil
		}
		return nil, auth.ErrInvalidToken
	}
	h := auth.RequireBearerToken(verify, nil)(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	w.url = srv.URL + "/mcp"
	return w
}

func (w *whoServer) seen() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.callers...)
}

func grantFor(server, resource, token string) *oauth.Grant {
	return &oauth.Grant{Server: server, Resource: resource, Token: &oauth2.Token{AccessToken: token, TokenType: "Bearer", Expiry: time.Now().Add(time.Hour)}}
}

// TestIdentityUser: under oauth.identity: user, each principal's call goes
// out under that principal's own grant; a principal without one is
// refused with the sentence that says how to log in, and neither the
// shared grant nor the shared session is ever used for it.
func TestIdentityUser(t *testing.T) {
	who := newWhoServer(t, map[string]string{"shared-token": "shared", "alice-token": "alice"})
	store, err := oauth.NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// The operator's shared login is stored: the server lists with it.
	if err := store.Save(grantFor("who", who.url, "shared-token")); err != nil {
		t.Fatal(err)
	}
	// alice's own; mallory's key holds a grant made for another server.
	for owner, g := range map[string]*oauth.Grant{"alice": grantFor("who", who.url, "alice-token"), "mallory": grantFor("other", who.url, "alice-token")} {
		if _, err := store.SaveGrant(context.Background(), oauth.GrantKey{Principal: owner, Server: "who", Resource: who.url}, g); err != nil {
			t.Fatal(err)
		}
	}
	m, cat := startPerPerson(t, who.url, store)
	waitSource(t, cat, "who", "active", inState(catalog.StateActive))

	ctx := principal.With(context.Background(), "alice")
	res, err := m.Call(ctx, "who", "whoami", nil)
	if err != nil {
		t.Fatalf("alice's call: %v", err)
	}
	if got := textOf(res); got != "alice" {
		t.Fatalf("alice's call went out as %q, want alice", got)
	}

	for _, caller := range []string{"bob", "mallory", ""} {
		ctx := principal.With(context.Background(), caller)
		_, err := m.Call(ctx, "who", "whoami", nil)
		var ul *UserLoginRequiredError
		if !errors.As(err, &ul) {
			t.Fatalf("%q's call without a grant: got %v (%T), want a *UserLoginRequiredError", caller, err, err)
		}
		want := principal.From(ctx)
		if ul.Principal != want || !strings.Contains(err.Error(), "Log in to who as "+want) || !strings.Contains(err.Error(), "/login page") {
			t.Errorf("the refusal does not tell %s how to log in: %v", want, err)
		}
		var ar *AuthRequiredError
		if errors.As(err, &ar) || errors.Is(err, oauth.ErrLoginRequired) {
			t.Errorf("the refusal is an AuthRequiredError, which makes a session log in to the shared grant: %v", err)
		}
	}
	if got := who.seen(); len(got) != 1 || got[0] != "alice" {
		t.Fatalf("the server saw calls from %q, want alice's alone: the shared grant must never serve a person", got)
	}
}

// TestIdentitySharedUsesTheSharedGrant: the default is today's behaviour,
// whoever calls.
func TestIdentitySharedUsesTheSharedGrant(t *testing.T) {
	who := newWhoServer(t, map[string]string{"shared-token": "shared"})
	store, err := oauth.NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Save(grantFor("who", who.url, "shared-token")); err != nil {
		t.Fatal(err)
	}
	cat := catalog.New()
	m := New([]ServerConfig{{Name: "who", Type: TypeHTTP, URL: who.url}}, Options{
		Catalog: cat, CacheDir: t.TempDir(), Logger: testLogger(t), TokenStore: store,
	})
	m.firstBackoff = time.Millisecond
	m.Start(context.Background())
	t.Cleanup(func() { m.Close() })
	waitSource(t, cat, "who", "active", inState(catalog.StateActive))
	res, err := m.Call(principal.With(context.Background(), "bob"), "who", "whoami", nil)
	if err != nil || textOf(res) != "shared" {
		t.Fatalf("bob's call under the shared identity = %v, %v; want the shared login's", res, err)
	}
}

// TestIdentityUserWithoutOAuth: a server that takes no login (stdio) set
// to identity: user is refused with what the operator should change, and
// never called.
func TestIdentityUserWithoutOAuth(t *testing.T) {
	e := newEnv(t)
	f := e.add("local", nil)
	f.addEcho("echo", "Echo.")
	e.opts.Settings["local"] = Settings{OAuth: oauth.Settings{Identity: oauth.IdentityUser}}
	m := e.start()
	waitSource(t, e.catalog, "local", "active", inState(catalog.StateActive))
	_, err := m.Call(principal.With(context.Background(), "alice"), "local", "echo", json.RawMessage(`{"message":"hi"}`))
	if err == nil || !strings.Contains(err.Error(), "does not log in with OAuth") || !strings.Contains(err.Error(), "remove identity") {
		t.Fatalf("got %v", err)
	}
}

// TestIdentityUserStoredGrants: with no lookup given, a person's grant is
// the one stored under their own key where the shared grants are kept,
// and the shared one serves nobody.
func TestIdentityUserStoredGrants(t *testing.T) {
	who := newWhoServer(t, map[string]string{"shared-token": "shared", "alice-token": "alice"})
	store, err := oauth.NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Save(grantFor("who", who.url, "shared-token")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := store.SaveGrant(ctx, oauth.GrantKey{Principal: "alice", Server: "who", Resource: who.url}, grantFor("who", who.url, "alice-token")); err != nil {
		t.Fatal(err)
	}
	m, cat := startPerPerson(t, who.url, store)
	waitSource(t, cat, "who", "active", inState(catalog.StateActive))
	res, err := m.Call(principal.With(ctx, "alice"), "who", "whoami", nil)
	if err != nil || textOf(res) != "alice" {
		t.Fatalf("alice's call = %v, %v; want under alice's grant", res, err)
	}
	var ul *UserLoginRequiredError
	if _, err := m.Call(principal.With(ctx, "bob"), "who", "whoami", nil); !errors.As(err, &ul) {
		t.Fatalf("bob's call: %v, want a *UserLoginRequiredError", err)
	}
	if got := who.seen(); len(got) != 1 || got[0] != "alice" {
		t.Fatalf("calls seen from %q, want alice's alone", got)
	}
}

// startPerPerson starts a manager of one HTTP server, "who" at url, whose
// logins are each person's own, over store, and closes it with the test.
func startPerPerson(t *testing.T, url string, store oauth.Grants) (*Manager, *catalog.Catalog) {
	t.Helper()
	cat := catalog.New()
	m := New([]ServerConfig{{Name: "who", Type: TypeHTTP, URL: url}}, Options{
		Catalog:    cat,
		Settings:   map[string]Settings{"who": {OAuth: oauth.Settings{Identity: oauth.IdentityUser}}},
		CacheDir:   t.TempDir(),
		Logger:     testLogger(t),
		TokenStore: store,
	})
	m.firstBackoff = time.Millisecond
	m.Start(context.Background())
	t.Cleanup(func() { m.Close() })
	return m, cat
}
