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
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

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

// TestPeopleLogInThemselvesAndCall runs serve --http with identity: user
// as a team would: alice and bob each log in through their own page (the
// login bound to them and to their browser, the redirect completing it on
// the server), then call at once; the upstream sees each call with its
// caller's own token, never another's nor the shared one. carol, who has
// not logged in, is told where to.
func TestPeopleLogInThemselvesAndCall(t *testing.T) {
	w := newOAuthWorld(t)
	resource := bearerServer(t, w)
	writeFile(t, w.dir, ".mcp.json", fmt.Sprintf(`{"mcpServers": {"remote": {"type": "http", "url": %q}}}`, resource))
	if out, err := w.run("auth", "login", "remote"); err != nil {
		t.Fatalf("the shared login, for the listing: %v\n%s", err, out)
	}
	if out, err := w.run("approve", "remote", "--connect"); err != nil {
		t.Fatalf("approve: %v\n%s", err, out)
	}
	writeFile(t, w.dir, "toolsearch.yaml", `logLevel: debug
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
	addr := freeAddr(t)
	base := "http://" + addr
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	serve := w.command(ctx, "serve", "--config", "toolsearch.yaml", "--http", addr)
	tokens := map[string]string{"alice": "alice-token", "bob": "bob-token", "carol": "carol-token"}
	serve.Env = append(serve.Env, "TOOLSEARCH_TOKEN=op-token", "ALICE_TOKEN=alice-token", "BOB_TOKEN=bob-token", "CAROL_TOKEN=carol-token")
	serveLog := &lockedBuffer{}
	serve.Stderr = io.MultiWriter(serveLog, &testLog{t: t})
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		serve.Process.Signal(os.Interrupt)
		serve.Wait()
	}()
	request := func(c *http.Client, method, path, tok, body string) (int, string) {
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
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
	waitFor(t, "the server active", func() bool {
		_, body := request(http.DefaultClient, "GET", "/readyz", "op-token", "")
		return strings.Contains(body, `"remote":"active"`)
	})

	// Each person, in a browser of their own, logs in from their page.
	for _, who := range []string{"alice", "bob"} {
		jar, _ := cookiejar.New(nil)
		browser := &http.Client{Jar: jar}
		code, body := request(browser, "POST", "/oauth/login", tokens[who], `{"server":"remote","person":true}`)
		var begun struct{ URL, Error string }
		json.Unmarshal([]byte(body), &begun)
		if code != http.StatusOK || begun.URL == "" {
			t.Fatalf("%s's login did not begin: %d %s", who, code, body)
		}
		resp, err := browser.Get(begun.URL) // the authorization server sends the browser back
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(page), "Logged in to remote as "+who) {
			t.Fatalf("%s's login came back with: %s", who, page)
		}
		if _, body := request(http.DefaultClient, "GET", "/login.json", tokens[who], ""); !strings.Contains(body, `"principal":"`+who+`"`) || strings.Contains(body, "needed") {
			t.Errorf("%s's page after the login: %s", who, body)
		}
	}

	store, err := oauth.NewStore(filepath.Join(w.dir, "config", "toolsearch", "oauth"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, who := range []string{"alice", "bob", ""} {
		g, _, err := store.LoadGrant(ctx, oauth.GrantKey{Principal: who, Server: "remote", Resource: resource})
		if err != nil || g == nil {
			t.Fatalf("the grant of %q: %v, %v", who, g, err)
		}
		want[who] = tokenPrint(g.Token.AccessToken)
		if strings.Contains(serveLog.String(), g.Token.AccessToken) || strings.Contains(serveLog.String(), g.Token.RefreshToken) {
			t.Errorf("serve's log holds a token of %q", who)
		}
	}
	if want["alice"] == want["bob"] || want["alice"] == want[""] || want["bob"] == want[""] {
		t.Fatal("two logins hold the same token")
	}

	call := func(who string) string {
		t.Helper()
		hc := &http.Client{Transport: bearerRT{token: tokens[who], base: http.DefaultTransport}}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: hc}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
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
	done := make(chan struct{})
	for range 3 {
		for _, who := range []string{"alice", "bob"} {
			go func() {
				defer func() { done <- struct{}{} }()
				if got := call(who); got != want[who] {
					t.Errorf("%s's call reached the upstream with another token than %s's own: %q", who, who, got)
				}
			}()
		}
	}
	for range 6 {
		<-done
	}
	got := call("carol")
	if !strings.HasPrefix(got, "auth_required: server remote takes each person's own login, and carol has none that works") ||
		!strings.Contains(got, "open "+base+"/login in a browser") {
		t.Errorf("carol, without a login: %q", got)
	}
}
