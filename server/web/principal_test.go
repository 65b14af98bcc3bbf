package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/principal"
	"github.com/toolsearch/toolsearch/server"
)

// whoUpstreams records whom each call was made for.
type whoUpstreams struct {
	mu  sync.Mutex
	who []string
}

func (f *whoUpstreams) Call(ctx context.Context, _, _ string, _ json.RawMessage) (*mcp.CallToolResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.who = append(f.who, server.PrincipalOf(ctx))
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
}

func (f *whoUpstreams) callers() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.who)
}

// TestNamedTokensMapToPrincipals: each configured token names its
// principal; one without a name is named by its place, never taken for
// the operator.
func TestNamedTokensMapToPrincipals(t *testing.T) {
	o := Options{
		Token: "op",
		Tokens: []ProfileToken{
			{Token: "a", Principal: "alice"},
			{Token: "b", Principal: "bob", Profile: "triage"},
			{Token: "anon", Profile: "triage"},
		},
	}
	for _, tc := range []struct{ token, want, profile string }{
		{"op", principal.Operator, ""},
		{"a", "alice", ""},
		{"b", "bob", "triage"},
		{"anon", "http.tokens[2]", "triage"},
	} {
		r := httptest.NewRequest("POST", "/mcp", nil)
		r.Header.Set("Authorization", "Bearer "+tc.token)
		id, ok := identify(r, o)
		if !ok || id.principal != tc.want || id.profile != tc.profile {
			t.Errorf("token %s: %+v, %v; want principal %s, profile %q", tc.token, id, ok, tc.want, tc.profile)
		}
	}
	o.OperatorPrincipal = "ops-team"
	r := httptest.NewRequest("POST", "/mcp", nil)
	r.Header.Set("Authorization", "Bearer op")
	if id, _ := identify(r, o); id.principal != "ops-team" {
		t.Errorf("the operator's token under http.principal: %q", id.principal)
	}
	if id, ok := identify(httptest.NewRequest("GET", "/", nil), Options{}); !ok || id.principal != principal.Operator {
		t.Errorf("no token configured: %+v, %v; want the operator", id, ok)
	}
}

// TestPrincipalReachesTheCall: over HTTP, the principal a token names
// reaches the server's call path (PrincipalOf) and the activity record,
// for configured tokens and the identity provider's alike, on both
// protocol eras; a session opened under one token is not another's.
func TestPrincipalReachesTheCall(t *testing.T) {
	p := newIDP(t)
	p.addKey("k", jose.ES256)
	up := &whoUpstreams{}
	act := server.NewActivity(50, nil, false)
	s, err := server.New(testCatalog(t), server.Options{ListingBudget: server.DefaultListingBudget, Upstreams: up, Activity: act})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	url, _ := startHTTP(t, s, Options{
		Token:  "op",
		Tokens: []ProfileToken{{Token: "bob-token", Principal: "bob"}},
		JWT:    p.verifier(JWTOptions{}),
	})
	jwtAlice := p.sign("k", jose.ES256, p.valid("alice"))
	var want []string
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		for _, tc := range []struct{ token, who string }{{"op", principal.Operator}, {"bob-token", "bob"}, {jwtAlice, "alice"}} {
			cs := httpClient(t, url, tc.token, version)
			if _, res := callText(t, cs, server.CallTool, map[string]any{"name": "srv__echo", "arguments": map[string]any{"message": "hi"}}); res.IsError {
				t.Fatalf("%s's call failed (%s)", tc.who, version)
			}
			want = append(want, tc.who)
		}
	}
	if got := up.callers(); !slices.Equal(got, want) {
		t.Fatalf("calls were made for %q, want %q", got, want)
	}
	// An event is recorded after its reply, off the request's path (its
	// tokens are counted by Server.later): wait for the last calls'.
	callers := func() map[string]bool {
		seen := map[string]bool{}
		for _, ev := range act.Recent() {
			if ev.Tool == server.CallTool {
				seen[ev.Principal] = true
			}
		}
		return seen
	}
	waitFor(t, "the activity record of three callers", func() bool { return len(callers()) == 3 })
	seen := callers()
	for _, who := range []string{principal.Operator, "bob", "alice"} {
		if !seen[who] {
			t.Errorf("the activity record shows no call of %s: %v", who, seen)
		}
	}

	// A session alice opened is refused to bob's token.
	cs := httpClient(t, url, jwtAlice, "2025-11-25")
	body := `{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{}}`
	req, _ := http.NewRequest("POST", url+"/mcp", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer bob-token")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", cs.ID())
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("bob's token in alice's session got %d, want 403", resp.StatusCode)
	}
}

// TestJWTPrincipalsReach: where the identity provider's tokens go: /mcp
// only, never the operator's pages; a token that names the operator, or
// a configured token's principal, or a profile nobody configured, is
// refused.
func TestJWTPrincipalsReach(t *testing.T) {
	p := newIDP(t)
	p.addKey("k", jose.ES256)
	s, err := server.New(testCatalog(t), server.Options{ListingBudget: server.DefaultListingBudget})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	h := NewHandler(s, Options{
		Token:    "op",
		Tokens:   []ProfileToken{{Token: "bob-token", Principal: "bob"}},
		JWT:      p.verifier(JWTOptions{Issuer: testIssuer, Audience: testAudience, JWKSURL: p.url, ProfileClaim: "team"}),
		Profiles: map[string]*server.Server{"triage": s},
	})
	defer h.Close()
	alice := p.sign("k", jose.ES256, p.valid("alice"))
	withTeam := func(sub, team string) string {
		c := p.valid(sub)
		c.Team = team
		return p.sign("k", jose.ES256, c)
	}
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for _, tc := range []struct {
		name, method, path, token string
		want                      int
	}{
		{"alice at /mcp", "POST", "/mcp", alice, http.StatusOK},
		{"alice's status page", "GET", "/status.json", alice, http.StatusForbidden},
		{"alice's readyz, without details", "GET", "/readyz", alice, http.StatusOK},
		{"alice's metrics", "GET", "/metrics", alice, http.StatusForbidden},
		{"alice approves", "POST", "/approve", alice, http.StatusForbidden},
		{"alice of triage at /mcp", "POST", "/mcp", withTeam("alice", "triage"), http.StatusOK},
		{"alice of an unknown team", "POST", "/mcp", withTeam("alice", "nobody"), http.StatusUnauthorized},
		{"sub operator", "POST", "/mcp", p.sign("k", jose.ES256, p.valid(principal.Operator)), http.StatusUnauthorized},
		{"sub bob, a token's principal", "POST", "/mcp", p.sign("k", jose.ES256, p.valid("bob")), http.StatusUnauthorized},
		{"garbage", "POST", "/mcp", "not-a-token", http.StatusUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body *strings.Reader
			if tc.method == "POST" {
				body = strings.NewReader(initialize)
			} else {
				body = strings.NewReader("")
			}
			r := httptest.NewRequest(tc.method, tc.path, body)
			r.RemoteAddr, r.Host = "127.0.0.1:1", "127.0.0.1:7777"
			r.Header.Set("Authorization", "Bearer "+tc.token)
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Accept", "application/json, text/event-stream")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tc.want {
				t.Errorf("%s %s: %d, want %d: %s", tc.method, tc.path, w.Code, tc.want, w.Body.String())
			}
		})
	}
}
