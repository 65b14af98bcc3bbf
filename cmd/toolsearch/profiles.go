package main

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/profile"
	"github.com/toolsearch/toolsearch/server"
	"github.com/toolsearch/toolsearch/server/web"
)

// ProfileConfig is one profile of toolsearch.yaml: each key optional,
// absent meaning all.
type ProfileConfig struct {
	Servers []string          `yaml:"servers"` // upstream servers (and static tool files)
	Tools   []string          `yaml:"tools"`   // globs on SERVER__TOOL
	Skills  []string          `yaml:"skills"`  // skill paths or globs
	Policy  map[string]string `yaml:"policy"`  // glob on SERVER__TOOL -> policy, only ever stricter
}

// TokenConfig is a bearer token of http.tokens and the profile it serves;
// a token without a profile sees everything.
type TokenConfig struct {
	Env     string `yaml:"env"`  // the variable holding the token
	File    string `yaml:"file"` // or the file
	Profile string `yaml:"profile"`
	// Principal names whom the token is for; "" gives "http.tokens[N]".
	Principal string `yaml:"principal"`
}

// profileOf builds a configured profile.
func profileOf(name string, pc *ProfileConfig) *profile.Profile {
	p := &profile.Profile{Name: name, Servers: pc.Servers, Tools: pc.Tools, Skills: pc.Skills}
	if pc.Policy != nil {
		p.Policy = map[string]catalog.Policy{}
		for g, pol := range pc.Policy {
			p.Policy[g] = catalog.Policy(pol)
		}
	}
	return p
}

func profileNames(cfg *Config) []string {
	return slices.Sorted(maps.Keys(cfg.Profiles))
}

// checkProfiles reports every problem of profiles and http.tokens at once.
func checkProfiles(path string, cfg *Config) error {
	var errs []error
	for _, name := range profileNames(cfg) {
		pc := cfg.Profiles[name]
		if pc == nil {
			errs = append(errs, fmt.Errorf("profiles.%s is empty: give servers, tools, skills or policy", name))
			continue
		}
		errs = append(errs, profileOf(name, pc).Check()...)
	}
	for i, tc := range cfg.HTTP.Tokens {
		switch {
		case (tc.Env == "") == (tc.File == ""):
			errs = append(errs, fmt.Errorf("http.tokens[%d]: give exactly one of env and file", i))
		case tc.Profile != "" && cfg.Profiles[tc.Profile] == nil:
			errs = append(errs, fmt.Errorf("http.tokens[%d].profile: no profile %q in profiles", i, tc.Profile))
		}
	}
	errs = append(errs, checkPrincipals(cfg)...)
	if len(errs) == 0 {
		return nil
	}
	var lines []string
	for _, err := range errs {
		lines = append(lines, path+": "+err.Error())
	}
	return errors.New(strings.Join(lines, "\n"))
}

// serverFor returns the server of a profile ("" for the whole catalog),
// made on first use: one per profile, each over its view of the catalog,
// all sharing the upstream connections, scripts and activity record.
func (a *app) serverFor(name string) (*server.Server, error) {
	if name == "" && a.server != nil {
		return a.server, nil
	}
	if s, ok := a.profiles[name]; ok {
		return s, nil
	}
	catalog := a.catalog
	var stop func()
	if name != "" {
		pc := a.cfg.Profiles[name]
		if pc == nil {
			return nil, fmt.Errorf("no profile %q in toolsearch.yaml", name)
		}
		catalog, stop = profile.Follow(a.catalog, profileOf(name, pc), server.ReservedNames...)
	}
	s, err := server.New(catalog, a.serverOpts)
	if err != nil {
		if stop != nil {
			stop()
		}
		return nil, err
	}
	if a.profiles == nil {
		a.profiles = map[string]*server.Server{}
	}
	a.profiles[name] = s
	if stop != nil {
		a.closers = append(a.closers, closerFunc(stop))
	}
	return s, nil
}

// closeProfiles closes the profiles' servers but the app's own.
func (a *app) closeProfiles() {
	for _, s := range a.profiles {
		if s != a.server {
			s.Close()
		}
	}
}

type closerFunc func()

func (f closerFunc) Close() error { f(); return nil }

// httpProfiles builds the server of every configured profile, for
// /mcp/p/NAME and the profiles' tokens, and reads those tokens.
func (a *app) httpProfiles() (map[string]*server.Server, []web.ProfileToken, error) {
	profiles := map[string]*server.Server{}
	for _, name := range profileNames(a.cfg) {
		s, err := a.serverFor(name)
		if err != nil {
			return nil, nil, err
		}
		profiles[name] = s
	}
	var tokens []web.ProfileToken
	for i, tc := range a.cfg.HTTP.Tokens {
		var value string
		if tc.Env != "" {
			value = strings.TrimSpace(os.Getenv(tc.Env))
			if value == "" {
				return nil, nil, fmt.Errorf("http.tokens[%d]: $%s is empty or unset", i, tc.Env)
			}
		} else {
			var err error
			if value, err = readTokenFile(expandHome(tc.File)); err != nil {
				return nil, nil, fmt.Errorf("http.tokens[%d]: %w", i, err)
			}
		}
		tokens = append(tokens, web.ProfileToken{Token: value, Profile: tc.Profile, Principal: tc.Principal})
	}
	return profiles, tokens, nil
}

// anyToken is a token for web.CheckBind: the server is protected when any
// token is configured, a profile's included.
func anyToken(token string, tokens []web.ProfileToken) string {
	if token == "" && len(tokens) > 0 {
		return tokens[0].Token
	}
	return token
}
