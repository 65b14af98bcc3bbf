package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/loader/upstream"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

func TestParsePrincipals(t *testing.T) {
	good := `
http:
  principal: ops
  tokens:
    - {env: ALICE_TOKEN, principal: alice}
    - {env: BOT_TOKEN, principal: ci-bot, profile: triage}
  jwt:
    issuer: https://idp.example.com
    audience: toolsearch
    jwksFile: ./jwks.json
    profileClaim: team
    leeway: 30s
profiles:
  triage: {servers: [github]}
servers:
  github:
    oauth: {identity: user}
  sentry:
    oauth: {identity: shared}
`
	cfg, err := parseConfig("/etc/ts/toolsearch.yaml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.HTTP.operatorPrincipal() != "ops" || cfg.HTTP.Tokens[0].Principal != "alice" || cfg.HTTP.Tokens[1].Principal != "ci-bot" {
		t.Errorf("principals: %+v", cfg.HTTP)
	}
	j := cfg.HTTP.JWT.options()
	if j.Issuer != "https://idp.example.com" || j.Audience != "toolsearch" || j.JWKSFile != filepath.FromSlash("/etc/ts/jwks.json") || j.ProfileClaim != "team" || j.Leeway != 30*time.Second {
		t.Errorf("jwt: %+v", j)
	}
	if got := cfg.Servers["github"].OAuth.settings().Identity; got != oauth.IdentityUser {
		t.Errorf("github's identity: %q", got)
	}
	if got := cfg.Servers["sentry"].OAuth.settings(); got.PerUser() {
		t.Errorf("sentry's identity: %+v", got)
	}
	if (&HTTPConfig{}).operatorPrincipal() != "operator" {
		t.Error(`the operator's principal is not "operator" by default`)
	}

	bad := `
http:
  tokens:
    - {env: A, principal: operator}
    - {env: B, principal: "al\u200bice"}
  jwt:
    issuer: https://idp.example.com
    jwksURL: http://idp.example.com/jwks
`
	_, err = parseConfig("toolsearch.yaml", []byte(bad))
	if err == nil {
		t.Fatal("bad principals accepted")
	}
	for _, want := range []string{
		`toolsearch.yaml: http.tokens[0].principal: "operator" is the operator's token's principal`,
		"toolsearch.yaml: http.tokens[1].principal: a principal's name contains the character U+200B",
		"toolsearch.yaml: http.jwt.audience: missing",
		`toolsearch.yaml: http.jwt.jwksURL: "http://idp.example.com/jwks" is not an https URL`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	_, err = parseConfig("toolsearch.yaml", []byte("servers:\n  gh:\n    oauth: {identity: per-user}\n"))
	if err == nil || !strings.Contains(err.Error(), `servers.gh.oauth.identity: "per-user" is not an identity: shared`) {
		t.Errorf("bad identity: %v", err)
	}
}

func TestPerUserWarning(t *testing.T) {
	user := upstream.Settings{OAuth: oauth.Settings{Identity: oauth.IdentityUser}}
	servers := []upstream.ServerConfig{
		{Name: "local", Type: upstream.TypeStdio, Command: "srv"},
		{Name: "keyed", Type: upstream.TypeHTTP, URL: "https://k.example/mcp", Headers: map[string]string{"authorization": "Bearer x"}},
		{Name: "remote", Type: upstream.TypeHTTP, URL: "https://r.example/mcp"},
	}
	for name, want := range map[string]string{
		"local": "local is a stdio server",
		"keyed": "sends its own Authorization header",
	} {
		if got := perUserWarning(name, user, servers); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want it to say %q", name, got, want)
		}
	}
	if got := perUserWarning("remote", upstream.Settings{}, servers); got != "" {
		t.Errorf("a shared server warned: %q", got)
	}
	// A server that logs in with OAuth takes each person's login: no
	// warning that nobody can log in.
	if got := perUserWarning("remote", user, servers); got != "" {
		t.Errorf("an OAuth server under identity: user warned: %q", got)
	}
}

func TestCheckPublicURL(t *testing.T) {
	for s, ok := range map[string]bool{
		"": true, "https://toolsearch.example.com": true, "http://127.0.0.1:7778/": true,
		"toolsearch.example.com": false, "ftp://x.example": false, "https://x.example/mcp": false,
		"https://x.example?a=b": false, "https://user:pw@x.example": false,
	} {
		if err := checkPublicURL(s); (err == nil) != ok {
			t.Errorf("checkPublicURL(%q) = %v", s, err)
		}
	}
}
