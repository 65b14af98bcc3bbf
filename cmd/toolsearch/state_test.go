package main

import (
	"strings"
	"testing"
)

// TestStateConfig: the state section's mistakes name their key and say
// what to do.
func TestStateConfig(t *testing.T) {
	t.Setenv("TOOLSEARCH_TEST_PG_SET", "postgres://db/x")
	for _, c := range []struct{ yaml, want string }{
		{"state:\n  backend: postgres\n  dsn: \"${TOOLSEARCH_TEST_PG_SET}\"\n", ""},
		{"state:\n  backend: file\n", ""},
		{"", ""},
		{"state:\n  backend: postgress\n", `state.backend: "postgress" is not a backend: want file or postgres`},
		{"state:\n  backend: postgres\n", "state.dsn is required with backend: postgres"},
		{"state:\n  backend: postgres\n  dsn: \"${TOOLSEARCH_TEST_PG_UNSET}\"\n", "state.dsn: ${TOOLSEARCH_TEST_PG_UNSET} is not set"},
		{"state:\n  dsn: postgres://db/x\n", "state.dsn is set, but state.backend is file"},
		{"state:\n  keyFile: k\n", "state.keyFile is set, but state.backend is file"},
		{"state:\n  bakend: postgres\n", `toolsearch.yaml:2:3: unknown key bakend (did you mean "backend"?)`},
	} {
		cfg, err := parseConfig("toolsearch.yaml", []byte(c.yaml))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.yaml, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q: got %v, want an error with %q", c.yaml, err, c.want)
		case c.want == "" && cfg.State.Backend == statePostgres && cfg.State.DSN != "postgres://db/x":
			t.Errorf("%q: dsn %q, want it expanded", c.yaml, cfg.State.DSN)
		}
	}
}
