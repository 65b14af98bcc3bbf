package main

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/internal/state/pgstate/pgtest"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// TestPeopleLoginsListedAndForgotten: after alice and bob log in as
// themselves, `auth status` (text and --json) lists each one's own login
// as the state holds it, with no token or secret; `auth logout remote
// --principal alice` revokes and forgets hers alone, for the running
// replica too (her next call is asked to log in, bob's goes on, the shared
// login stays); a principal or server with no login is a clear error. On
// the files, and over PostgreSQL as `auth login` is.
func TestPeopleLoginsListedAndForgotten(t *testing.T) {
	for _, backend := range []string{"files", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			dsn := ""
			if backend == "postgres" {
				dsn = pgtest.DSN(t)
			}
			w := newPeopleWorld(t, 1, dsn)
			w.logIn("alice", 0, 0)
			w.logIn("bob", 0, 0)
			want := w.printsOf("alice", "bob", "")
			noSecret := func(what, out string) {
				t.Helper()
				for _, who := range []string{"alice", "bob", ""} {
					g, _, _ := w.grants.LoadGrant(context.Background(), oauth.GrantKey{Principal: who, Server: "remote", Resource: w.resource})
					if g != nil && (strings.Contains(out, g.Token.AccessToken) || (g.Token.RefreshToken != "" && strings.Contains(out, g.Token.RefreshToken)) ||
						(g.ClientSecret != "" && strings.Contains(out, g.ClientSecret))) {
						t.Errorf("%s holds a token or secret of %q", what, who)
					}
				}
				for _, s := range w.secrets.list() {
					if len(s) > 8 && strings.Contains(out, s) {
						t.Errorf("%s holds a secret the authorization server saw", what)
					}
				}
			}

			out, err := w.run("auth", "status", "--offline", "--json")
			if err != nil {
				t.Fatalf("auth status --json: %v", err)
			}
			noSecret("auth status --json", out)
			if got := peopleOf(t, out); !slices.Equal(got, []string{"alice authorized refresh tasks", "bob authorized refresh tasks"}) {
				t.Errorf("auth status --json lists %q; want alice's and bob's own logins", got)
			}
			text, err := w.run("auth", "status", "--offline")
			if err != nil || !strings.Contains(text, "remote: each person's own login (oauth.identity: user), 2 stored") ||
				!strings.Contains(text, "alice") || !strings.Contains(text, "bob") || !strings.Contains(text, "--principal NAME") {
				t.Errorf("auth status: %v\n%s", err, text)
			}
			noSecret("auth status", text)

			revoked := w.as.Stats().Revocations
			out, err = w.run("auth", "logout", "remote", "--principal", "alice")
			if err != nil || !strings.Contains(out, "Logged alice out of remote") {
				t.Fatalf("auth logout remote --principal alice: %v\n%s", err, out)
			}
			if w.as.Stats().Revocations == revoked {
				t.Error("alice's tokens were not revoked")
			}
			out, _ = w.run("auth", "status", "--offline", "--json")
			if got := peopleOf(t, out); !slices.Equal(got, []string{"bob authorized refresh tasks"}) {
				t.Errorf("auth status --json after alice's logout lists %q; want bob's alone", got)
			}
			if got := w.call(0, "alice"); !strings.Contains(got, "alice has none that works") {
				t.Errorf("alice's call after her logout: %q; want her asked to log in", got)
			}
			if got := w.call(0, "bob"); got != want["bob"] {
				t.Errorf("bob's call after alice's logout: %q; want his own token's", got)
			}
			if g, _, err := w.grants.LoadGrant(context.Background(), oauth.GrantKey{Server: "remote", Resource: w.resource}); g == nil || err != nil {
				t.Errorf("the shared login after alice's logout: %v", err)
			}

			for _, c := range []struct {
				args []string
				want string
			}{
				{[]string{"auth", "logout", "remote", "--principal", "alice"}, "--principal alice: remote holds no login of alice's own to forget; the people logged in to it are bob"},
				{[]string{"auth", "logout", "elsewhere", "--principal", "bob"}, `no server "elsewhere"`},
			} {
				cmd := w.command(context.Background(), c.args...)
				msg, err := cmd.CombinedOutput()
				if err == nil || !strings.Contains(string(msg), c.want) {
					t.Errorf("toolsearch %s: %v\n%s\nwant an error saying %q", strings.Join(c.args, " "), err, msg, c.want)
				}
			}
		})
	}
}

// peopleOf reads the people of server remote from `auth status --json`,
// each as "PRINCIPAL STATUS [refresh] SCOPES".
func peopleOf(t *testing.T, out string) []string {
	t.Helper()
	var statuses []loginStatus
	if err := json.Unmarshal([]byte(out), &statuses); err != nil {
		t.Fatalf("auth status --json: %v\n%s", err, out)
	}
	var got []string
	for _, st := range statuses {
		if st.Server != "remote" {
			continue
		}
		if st.Identity != "user" || st.PeopleError != "" {
			t.Errorf("remote's status: identity %q, people error %q", st.Identity, st.PeopleError)
		}
		for _, p := range st.People {
			line := p.Principal + " " + p.Status
			if p.RefreshToken {
				line += " refresh"
			}
			if p.Expires == nil {
				line += " no-expiry"
			}
			got = append(got, line+" "+strings.Join(p.Scopes, " "))
		}
	}
	return got
}
