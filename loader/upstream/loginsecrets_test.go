package upstream

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/examples/servers/authserver"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// TestLoginErrorsHoldNoSecret: a token endpoint that echoes the request it
// got made `auth login` print the registered client secret, the code and
// the PKCE verifier (and the status page returned them as JSON). Whatever
// form the echo takes (a body without an error code, which
// golang.org/x/oauth2 prints whole; an error_description; the Basic header
// raw or decoded), the login's error holds none of the flow's secrets.
// And the failed login showed one page, not two: the SDK tries
// server/discover, then initialize, and each asked for a login.
func TestLoginErrorsHoldNoSecret(t *testing.T) {
	for _, tc := range []struct {
		name     string
		clientID string // pre-registered; "" registers dynamically
		echo     func(w http.ResponseWriter, echoed string)
	}{
		{"body without error code, registered client", "", func(w http.ResponseWriter, echoed string) {
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, echoed)
		}},
		{"error description, registered client", "", func(w http.ResponseWriter, echoed string) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"error":"invalid_grant","error_description":%q}`, echoed)
		}},
		{"body without error code, configured client", "tsclient", func(w http.ResponseWriter, echoed string) {
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprint(w, echoed)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newOAuthEnv(t, false)
			const configuredSecret = "configured-client-s3cret"
			if tc.clientID != "" {
				e.as = newASWithClient(t, e, tc.clientID, configuredSecret)
				e.opts.Settings = map[string]Settings{"remote": {OAuth: oauth.Settings{ClientID: tc.clientID, ClientSecret: configuredSecret}}}
			}
			var secrets []string
			e.asHook.Store(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/token" {
					e.as.ServeHTTP(w, r)
					return
				}
				r.ParseForm()
				echoed := r.PostForm.Encode() + " authorization=" + r.Header.Get("Authorization")
				if user, pass, ok := r.BasicAuth(); ok {
					echoed += " basic=" + user + ":" + pass
					p, _ := url.QueryUnescape(pass)
					secrets = append(secrets, pass, p)
				}
				for _, k := range []string{"code", "code_verifier", "client_secret"} {
					secrets = append(secrets, r.PostForm.Get(k))
				}
				tc.echo(w, echoed)
			}))
			m := New(e.config(TypeHTTP), e.opts)
			t.Cleanup(func() { m.Close() })
			err := m.Login(context.Background(), "remote", e.prompter())
			if err == nil {
				t.Fatal("the login succeeded through a token endpoint that refuses")
			}
			msg := err.Error()
			for _, s := range secrets {
				if len(s) >= 4 && strings.Contains(msg, s) {
					t.Errorf("the error holds the secret %q: %s", s, msg)
				}
			}
			for _, s := range []string{configuredSecret, base64.StdEncoding.EncodeToString([]byte(tc.clientID + ":" + configuredSecret))} {
				if tc.clientID != "" && strings.Contains(msg, s) {
					t.Errorf("the error holds the configured secret: %s", msg)
				}
			}
			if len(secrets) == 0 {
				t.Error("the token endpoint was never asked")
			}
			if n := e.shows.Load(); n != 1 {
				t.Errorf("one login showed %d pages, want 1", n)
			}
		})
	}
}

// newASWithClient returns an authorization server like e's, at its
// address, that knows a pre-registered confidential client.
func newASWithClient(t *testing.T, e *oauthEnv, id, secret string) *authserver.Server {
	as := authserver.New(authserver.Options{Scopes: []string{"tasks", "admin"}, Clients: map[string]string{id: secret}})
	as.SetIssuer(e.as.Issuer())
	return as
}
