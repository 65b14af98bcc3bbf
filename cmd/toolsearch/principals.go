package main

import (
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/toolsearch/toolsearch/internal/principal"
	"github.com/toolsearch/toolsearch/loader/upstream"
	"github.com/toolsearch/toolsearch/server/web"
)

// JWTConfig is http.jwt of toolsearch.yaml: the identity provider whose
// tokens name principals (see docs/http.md and docs/teams.md#people).
type JWTConfig struct {
	Issuer         string   `yaml:"issuer"`
	Audience       string   `yaml:"audience"`
	JWKSURL        string   `yaml:"jwksURL"`
	JWKSFile       string   `yaml:"jwksFile"`
	PrincipalClaim string   `yaml:"principalClaim"` // "" means sub
	ProfileClaim   string   `yaml:"profileClaim"`
	Leeway         Duration `yaml:"leeway"` // clock skew; 0 means web.DefaultJWTLeeway
}

func (j *JWTConfig) options() web.JWTOptions {
	return web.JWTOptions{
		Issuer: j.Issuer, Audience: j.Audience, JWKSURL: j.JWKSURL, JWKSFile: j.JWKSFile,
		PrincipalClaim: j.PrincipalClaim, ProfileClaim: j.ProfileClaim, Leeway: time.Duration(j.Leeway),
	}
}

// operatorPrincipal is the principal of the operator's token.
func (h *HTTPConfig) operatorPrincipal() string {
	if h.Principal != "" {
		return h.Principal
	}
	return principal.Operator
}

// checkPrincipals reports every problem of http.principal, the principals
// of http.tokens and http.jwt: a principal keys a person's logins, so no
// token may take the operator's, and a name must be one a log can show.
func checkPrincipals(cfg *Config) []error {
	var errs []error
	op := cfg.HTTP.operatorPrincipal()
	if cfg.HTTP.Principal != "" {
		if err := principal.Check(cfg.HTTP.Principal); err != nil {
			errs = append(errs, fmt.Errorf("http.principal: %v", err))
		}
	}
	for i, tc := range cfg.HTTP.Tokens {
		switch {
		case tc.Principal == "":
		case principal.Check(tc.Principal) != nil:
			errs = append(errs, fmt.Errorf("http.tokens[%d].principal: %v", i, principal.Check(tc.Principal)))
		case tc.Principal == op:
			errs = append(errs, fmt.Errorf("http.tokens[%d].principal: %q is the operator's token's principal (http.principal); give this token a name of its own", i, tc.Principal))
		}
	}
	if err := checkPublicURL(cfg.HTTP.PublicURL); err != nil {
		errs = append(errs, err)
	}
	if j := cfg.HTTP.JWT; j != nil {
		for _, p := range j.options().Check("http.jwt") {
			errs = append(errs, fmt.Errorf("%s", p))
		}
	}
	return errs
}

// jwtVerifier returns the verifier of http.jwt, nil when there is none.
func (a *app) jwtVerifier(log *slog.Logger) (*web.JWTVerifier, error) {
	if a.cfg.HTTP.JWT == nil {
		return nil, nil
	}
	return web.NewJWTVerifier(a.cfg.HTTP.JWT.options(), log)
}

// perUserWarning says what an operator should know of a server whose
// logins are per person (oauth.identity: user), or "".
func perUserWarning(name string, set upstream.Settings, servers []upstream.ServerConfig) string {
	if !set.OAuth.PerUser() {
		return ""
	}
	i := slices.IndexFunc(servers, func(sc upstream.ServerConfig) bool { return sc.Name == name })
	if i >= 0 && servers[i].Type == upstream.TypeStdio {
		return "servers." + name + ".oauth.identity: user applies to servers that log in with OAuth, and " + name + " is a stdio server: its calls are refused; remove identity"
	}
	if i >= 0 && slices.ContainsFunc(slices.Collect(maps.Keys(servers[i].Headers)), func(k string) bool { return strings.EqualFold(k, "Authorization") }) {
		return "servers." + name + ".oauth.identity: user applies to servers that log in with OAuth, and " + name + "'s entry sends its own Authorization header: its calls are refused; remove identity or the header"
	}
	// Each person logs in as themselves: on /login (serve --http) or
	// through a client that opens login pages; nothing to warn of.
	return ""
}
