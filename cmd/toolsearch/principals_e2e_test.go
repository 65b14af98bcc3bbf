package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestPeopleOverHTTP runs serve --http as a team would: the operator's
// token, a named token, and JWTs of an identity provider whose keys are in
// a file; the OAuth server is logged in to once, shared, then set to
// identity: user. Each principal is named where the status page shows
// calls; each person's call is refused with how to log in as themselves
// (their own page's address), since nobody holds a login of their own, and
// the shared login serves none of them; a JWT for another audience gets
// 401.
func TestPeopleOverHTTP(t *testing.T) {
	w := newOAuthWorld(t)
	if out, err := w.run("auth", "login", "remote"); err != nil {
		t.Fatalf("login: %v\n%s", err, out)
	}
	if out, err := w.run("approve", "remote", "--connect"); err != nil {
		t.Fatalf("approve: %v\n%s", err, out)
	}

	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	set, _ := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "k1", Algorithm: "ES256", Use: "sig"}}})
	writeFile(t, w.dir, "jwks.json", string(set))
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key}, (&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", "k1"))
	if err != nil {
		t.Fatal(err)
	}
	token := func(sub, aud string) string {
		now := time.Now()
		s, err := jwt.Signed(signer).Claims(jwt.Claims{Issuer: "https://login.example.com/", Audience: jwt.Audience{aud}, Subject: sub,
			Expiry: jwt.NewNumericDate(now.Add(10 * time.Minute)), IssuedAt: jwt.NewNumericDate(now)}).Serialize()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	writeFile(t, w.dir, "toolsearch.yaml", `logLevel: debug
servers:
  remote:
    oauth:
      scopes: [tasks]
      identity: user
http:
  tokens:
    - {env: ALICE_TOKEN, principal: alice}
  jwt:
    issuer: https://login.example.com/
    audience: toolsearch
    jwksFile: ./jwks.json
`)

	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	serve := w.command(ctx, "serve", "--config", "toolsearch.yaml", "--http", addr)
	serve.Env = append(serve.Env, "TOOLSEARCH_TOKEN=op-token", "ALICE_TOKEN=alice-token")
	serveLog := &lockedBuffer{}
	serve.Stderr = io.MultiWriter(serveLog, &testLog{t: t})
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		serve.Process.Signal(os.Interrupt)
		serve.Wait()
	}()
	base := "http://" + addr
	get := func(path, tok string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, ""
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	waitFor(t, "the server active", func() bool {
		_, body := get("/readyz", "op-token")
		return strings.Contains(body, `"remote":"active"`)
	})

	call := func(tok string) string {
		t.Helper()
		hc := &http.Client{Transport: bearerRT{token: tok, base: http.DefaultTransport}}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: hc}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "call_tool", Arguments: map[string]any{"name": "remote__echo", "arguments": map[string]any{"message": "hi"}}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	for _, tc := range []struct{ token, who string }{{"op-token", "operator"}, {"alice-token", "alice"}, {token("carol", "toolsearch"), "carol"}} {
		got := call(tc.token)
		if !strings.HasPrefix(got, "auth_required: server remote takes each person's own login, and "+tc.who+" has none that works") ||
			!strings.Contains(got, "Log in to remote as "+tc.who+": open "+base+"/login in a browser") || strings.Contains(got, `echo {`) {
			t.Errorf("%s's call under identity: user: %q", tc.who, got)
		}
	}
	// /readyz answers anybody (ready or not): the operator's pages are
	// what a token is checked for.
	if code, _ := get("/status.json", token("carol", "another-app")); code != http.StatusUnauthorized {
		t.Errorf("a JWT for another audience got %d, want 401", code)
	}
	if code, _ := get("/status.json", token("carol", "toolsearch")); code != http.StatusForbidden {
		t.Errorf("a person's JWT reached the status page: %d, want 403", code)
	}
	_, status := get("/status.json", "op-token")
	var st struct {
		Activity []struct{ Principal, Tool string }
	}
	json.Unmarshal([]byte(status), &st)
	seen := map[string]bool{}
	for _, ev := range st.Activity {
		seen[ev.Principal] = true
	}
	for _, who := range []string{"operator", "alice", "carol"} {
		if !seen[who] {
			t.Errorf("the status page names no request of %s: %+v", who, st.Activity)
		}
	}
	if !strings.Contains(serveLog.String(), "refused the identity provider's token") {
		t.Error("the refused JWT is not in the log")
	}
}
