package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/toolsearch/toolsearch/internal/state/pgstate"
	"github.com/toolsearch/toolsearch/internal/state/pgstate/pgtest"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// tokenPrint names a token without showing it.
func tokenPrint(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:6])
}

// bearerServer is an MCP server behind the world's authorization server
// whose tool "bearer" answers with the print of the token it was called
// with: what an upstream call carried, seen from the upstream.
func bearerServer(t *testing.T, w *oauthWorld) string {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	server := mcp.NewServer(&mcp.Implementation{Name: "bearer", Version: "v1"}, nil)
	server.AddTool(&mcp.Tool{Name: "bearer", Description: "Say which token the call came with.", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: tokenPrint(strings.TrimPrefix(req.Extra.Header.Get("Authorization"), "Bearer "))}}}, nil
		})
	const prm = "/.well-known/oauth-protected-resource/mcp"
	mux.Handle(prm, auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource: srv.URL + "/mcp", AuthorizationServers: []string{w.as.Issuer()}, ScopesSupported: []string{"tasks"},
	}))
	mux.Handle("/mcp", auth.RequireBearerToken(w.as.Verifier(srv.URL+"/mcp"), &auth.RequireBearerTokenOptions{ResourceMetadataURL: srv.URL + prm, Scopes: []string{"tasks"}})(
		mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)))
	return srv.URL + "/mcp"
}

// peopleWorld is serve --http with identity: user for alice, bob and
// carol, in one or more replicas: on the files, or each replica with its
// own HOME over one PostgreSQL state.
type peopleWorld struct {
	*oauthWorld
	resource string
	bases    []string // one per replica
	logs     []*lockedBuffer
	grants   oauth.Grants
	tokens   map[string]string
}

func newPeopleWorld(t *testing.T, replicas int, dsn string) *peopleWorld {
	w := &peopleWorld{oauthWorld: newOAuthWorld(t), tokens: map[string]string{"alice": "alice-token", "bob": "bob-token", "carol": "carol-token"}}
	w.resource = bearerServer(t, w.oauthWorld)
	writeFile(t, w.dir, ".mcp.json", fmt.Sprintf(`{"mcpServers": {"remote": {"type": "http", "url": %q}}}`, w.resource))
	state := ""
	if dsn != "" {
		t.Setenv("TOOLSEARCH_TEST_STATE_DSN", dsn)
		if out, err := w.run("state", "keygen", filepath.Join(w.dir, "state.key")); err != nil {
			t.Fatalf("keygen: %v\n%s", err, out)
		}
		state = "state:\n  backend: postgres\n  dsn: \"${TOOLSEARCH_TEST_STATE_DSN}\"\n  keyFile: ./state.key\n"
		key, err := pgstate.ReadKeyFile(filepath.Join(w.dir, "state.key"))
		if err != nil {
			t.Fatal(err)
		}
		db, err := pgstate.Open(context.Background(), dsn, key, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(db.Close)
		w.grants = db.Grants()
	} else {
		store, err := oauth.NewStore(filepath.Join(w.dir, "config", "toolsearch", "oauth"))
		if err != nil {
			t.Fatal(err)
		}
		w.grants = store
	}
	writeFile(t, w.dir, "toolsearch.yaml", state+"logLevel: debug\nservers:\n  remote:\n    oauth: {scopes: [tasks]}\n")
	if out, err := w.run("auth", "login", "remote"); err != nil {
		t.Fatalf("the shared login, for the listing: %v\n%s", err, out)
	}
	if out, err := w.run("approve", "remote", "--connect"); err != nil {
		t.Fatalf("approve: %v\n%s", err, out)
	}
	writeFile(t, w.dir, "toolsearch.yaml", state+`logLevel: debug
servers:
  remote:
    oauth:
      scopes: [tasks]
      identity: user
http:
  tokens:
    - {env: ALICE_TOKEN, principal: alice, profile: everyone}
    - {env: BOB_TOKEN, principal: bob}
    - {env: CAROL_TOKEN, principal: carol}
profiles:
  everyone: {}
`)
	for i := range replicas {
		addr := freeAddr(t)
		ctx, cancel := context.WithCancel(context.Background())
		serve := w.command(ctx, "serve", "--config", "toolsearch.yaml", "--http", addr)
		serve.Env = append(serve.Env, "TOOLSEARCH_TOKEN=op-token", "ALICE_TOKEN=alice-token", "BOB_TOKEN=bob-token", "CAROL_TOKEN=carol-token")
		if dsn != "" && i > 0 { // a HOME of its own: nothing shared through files
			home := t.TempDir()
			serve.Env = append(serve.Env, "XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_CACHE_HOME="+filepath.Join(home, "cache"))
		}
		log := &lockedBuffer{}
		serve.Stderr = io.MultiWriter(log, &testLog{t: t})
		if err := serve.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			serve.Process.Signal(os.Interrupt)
			serve.Wait()
			cancel()
		})
		w.bases, w.logs = append(w.bases, "http://"+addr), append(w.logs, log)
	}
	for i := range w.bases {
		waitFor(t, "the server active", func() bool {
			_, body := w.request(http.DefaultClient, i, "GET", "/readyz", "op-token", "")
			return strings.Contains(body, `"remote":"active"`)
		})
	}
	return w
}

func (w *peopleWorld) request(c *http.Client, replica int, method, path, tok, body string) (int, string) {
	req, _ := http.NewRequest(method, w.bases[replica]+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// logIn takes who through their own login in a browser of their own: begun
// from their page on replica begin, the authorization server's redirect
// brought back to replica back.
func (w *peopleWorld) logIn(who string, begin, back int) {
	t := w.t
	t.Helper()
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, CheckRedirect: func(req *http.Request, _ []*http.Request) error {
		if req.URL.Path == "/oauth/callback" { // the load balancer picks another replica
			req.URL.Host = strings.TrimPrefix(w.bases[back], "http://")
			req.Host = req.URL.Host
		}
		return nil
	}}
	code, body := w.request(browser, begin, "POST", "/oauth/login", w.tokens[who], `{"server":"remote","person":true}`)
	var begun struct{ URL, Error string }
	json.Unmarshal([]byte(body), &begun)
	if code != http.StatusOK || begun.URL == "" {
		t.Fatalf("%s's login did not begin: %d %s", who, code, body)
	}
	resp, err := browser.Get(begun.URL)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(page), "Logged in to remote as "+who) {
		t.Fatalf("%s's login came back with: %s", who, page)
	}
	for i := range w.bases {
		if _, body := w.request(http.DefaultClient, i, "GET", "/login.json", w.tokens[who], ""); !strings.Contains(body, `"principal":"`+who+`"`) || strings.Contains(body, "needed") {
			t.Errorf("%s's page on replica %d after the login: %s", who, i, body)
		}
	}
}

// printsOf are the prints of the tokens stored for each login, the shared
// one under "".
func (w *peopleWorld) printsOf(who ...string) map[string]string {
	t := w.t
	t.Helper()
	out := map[string]string{}
	for _, p := range who {
		g, _, err := w.grants.LoadGrant(context.Background(), oauth.GrantKey{Principal: p, Server: "remote", Resource: w.resource})
		if err != nil || g == nil {
			t.Fatalf("the grant of %q: %v, %v", p, g, err)
		}
		out[p] = tokenPrint(g.Token.AccessToken)
		for i, log := range w.logs {
			if strings.Contains(log.String(), g.Token.AccessToken) || strings.Contains(log.String(), g.Token.RefreshToken) {
				t.Errorf("replica %d's log holds a token of %q", i, p)
			}
		}
	}
	return out
}

// call makes who's call of remote__bearer through replica i and returns its
// text.
func (w *peopleWorld) call(i int, who string) string {
	t := w.t
	t.Helper()
	hc := &http.Client{Transport: bearerRT{token: w.tokens[who], base: http.DefaultTransport}}
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: w.bases[i] + "/mcp", HTTPClient: hc}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Error(err)
		return ""
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "call_tool", Arguments: map[string]any{"name": "remote__bearer", "arguments": map[string]any{}}})
	if err != nil {
		t.Error(err)
		return ""
	}
	return res.Content[0].(*mcp.TextContent).Text
}

// callAll has alice and bob call at once through every replica, and checks
// each call reached the upstream with its caller's own token.
func (w *peopleWorld) callAll(want map[string]string) {
	var wg sync.WaitGroup
	for i := range w.bases {
		for range 3 {
			for _, who := range []string{"alice", "bob"} {
				wg.Go(func() {
					if got := w.call(i, who); got != want[who] {
						w.t.Errorf("%s's call through replica %d reached the upstream with another token than %s's own: %q", who, i, who, got)
					}
				})
			}
		}
	}
	wg.Wait()
}

// TestPeopleLogInThemselvesAndCall runs serve --http with identity: user
// as a team would: alice and bob each log in through their own page (the
// login bound to them and to their browser, the redirect completing it on
// the server), then call at once; the upstream sees each call with its
// caller's own token, never another's nor the shared one. carol, who has
// not logged in, is told where to.
func TestPeopleLogInThemselvesAndCall(t *testing.T) {
	w := newPeopleWorld(t, 1, "")
	w.logIn("alice", 0, 0)
	w.logIn("bob", 0, 0)
	want := w.printsOf("alice", "bob", "")
	if want["alice"] == want["bob"] || want["alice"] == want[""] || want["bob"] == want[""] {
		t.Fatal("two logins hold the same token")
	}
	w.callAll(want)
	got := w.call(0, "carol")
	if !strings.HasPrefix(got, "auth_required: server remote takes each person's own login, and carol has none that works") ||
		!strings.Contains(got, "open "+w.bases[0]+"/login in a browser") {
		t.Errorf("carol, without a login: %q", got)
	}
}

// TestPeopleLogInAcrossReplicas: over PostgreSQL, each replica with a HOME
// of its own, a login begun on one replica is completed by the redirect
// reaching the other, and both replicas then call with each person's own
// token.
func TestPeopleLogInAcrossReplicas(t *testing.T) {
	w := newPeopleWorld(t, 2, pgtest.DSN(t))
	w.logIn("alice", 0, 1)
	w.logIn("bob", 1, 0)
	want := w.printsOf("alice", "bob", "")
	if want["alice"] == want["bob"] || want["alice"] == want[""] {
		t.Fatal("two logins hold the same token")
	}
	w.callAll(want)
	if got := w.call(1, "carol"); !strings.Contains(got, "carol has none that works") {
		t.Errorf("carol, without a login: %q", got)
	}
}
