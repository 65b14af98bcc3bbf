package main

import (
	"strings"
	"testing"
)

func TestParseProfiles(t *testing.T) {
	good := `
profiles:
  triage:
    servers: [github, sentry]
    tools: ["github__get_*", "sentry__*"]
    skills: [csv-audit, "team/*"]
    policy: {"github__delete_*": hidden}
  none:
    skills: []
http:
  tokens:
    - {env: TRIAGE_TOKEN, profile: triage}
    - {file: ./all.token}
servers:
  github:
    quarantine: new
`
	cfg, err := parseConfig("toolsearch.yaml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	tr := cfg.Profiles["triage"]
	if len(tr.Servers) != 2 || tr.Policy["github__delete_*"] != "hidden" || cfg.HTTP.Tokens[0].Profile != "triage" || cfg.Servers["github"].Quarantine != "new" {
		t.Errorf("config %+v", cfg)
	}
	if s := cfg.Profiles["none"].Skills; s == nil || len(s) != 0 {
		t.Errorf("skills: [] must admit no skill, got %#v", s)
	}
	if cfg.Profiles["none"].Servers != nil {
		t.Error("an absent key must admit everything")
	}

	// Every problem is reported at once.
	bad := `
profiles:
  a:
    tools: ["["]
    policy: {"*": sometimes}
  b:
http:
  tokens:
    - {env: X, file: y}
    - {env: Z, profile: nope}
servers:
  gh:
    quarantine: always
`
	_, err = parseConfig("toolsearch.yaml", []byte(bad))
	if err == nil {
		t.Fatal("bad profiles accepted")
	}
	for _, want := range []string{
		`toolsearch.yaml: profiles.a.tools: bad glob "["`,
		`toolsearch.yaml: profiles.a.policy.*: unknown policy "sometimes"`,
		"toolsearch.yaml: profiles.b is empty",
		"toolsearch.yaml: http.tokens[0]: give exactly one of env and file",
		`toolsearch.yaml: http.tokens[1].profile: no profile "nope"`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if _, err := parseConfig("toolsearch.yaml", []byte("servers:\n  gh:\n    quarantine: always\n")); err == nil || !strings.Contains(err.Error(), `servers.gh.quarantine: unknown quarantine mode "always"`) {
		t.Errorf("bad mode: %v", err)
	}
}
