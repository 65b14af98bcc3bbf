package oauth

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/toolsearch/toolsearch/examples/servers/authserver"
)

// userWorld is a resource behind the example authorization server, and two
// replicas' callbacks over one store of grants and pending logins.
type userWorld struct {
	as       *authserver.Server
	resource string
	store    *Store
	replicas [2]*httptest.Server
}

func newUserWorld(t *testing.T) *userWorld {
	w := &userWorld{as: authserver.New(authserver.Options{Scopes: []string{"tasks"}}), store: testStore(t)}
	asSrv := httptest.NewServer(w.as)
	t.Cleanup(asSrv.Close)
	w.as.SetIssuer(asSrv.URL)
	mux := http.NewServeMux()
	rs := httptest.NewServer(mux)
	t.Cleanup(rs.Close)
	w.resource = rs.URL + "/mcp"
	const prm = "/.well-known/oauth-protected-resource/mcp"
	mux.Handle(prm, auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource: w.resource, AuthorizationServers: []string{asSrv.URL}, ScopesSupported: []string{"tasks"},
	}))
	mux.Handle("/mcp", auth.RequireBearerToken(w.as.Verifier(w.resource), &auth.RequireBearerTokenOptions{ResourceMetadataURL: rs.URL + prm})(
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })))
	for i := range w.replicas {
		cb := NewCallbacks()
		cb.SetUserLogins(w.logins(), nil)
		mux := http.NewServeMux()
		mux.Handle("/oauth/callback", cb)
		w.replicas[i] = httptest.NewServer(mux)
		t.Cleanup(w.replicas[i].Close)
	}
	return w
}

// logins is one replica's UserLogins: its own values over the shared store.
func (w *userWorld) logins() *UserLogins {
	return &UserLogins{Pending: w.store.Logins(), Grants: w.store}
}

// begin starts who's login on replica 0 and returns where the
// authorization server sends the browser back.
func (w *userWorld) begin(t *testing.T, who, nonce string) string {
	t.Helper()
	u, err := w.logins().Begin(context.Background(), LoginStart{
		Principal: who, Server: "remote", Resource: w.resource,
		RedirectURL: w.replicas[0].URL + "/oauth/callback", Nonce: nonce,
	})
	if err != nil {
		t.Fatal(err)
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	back := resp.Header.Get("Location")
	if !strings.HasPrefix(back, w.replicas[0].URL+"/oauth/callback?") {
		t.Fatalf("the authorization server sent the browser to %q", back)
	}
	return back
}

// bring brings the redirect back to replica i, as a browser whose token is
// bearer and whose login cookie is nonce; it returns the page's title line.
func (w *userWorld) bring(t *testing.T, back string, i int, bearer, nonce string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, strings.Replace(back, w.replicas[0].URL, w.replicas[i].URL, 1), nil)
	req.Header.Set("Authorization", "Bearer "+bearer)
	if nonce != "" {
		req.AddCookie(&http.Cookie{Name: LoginCookie, Value: nonce})
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func (w *userWorld) grant(t *testing.T, who string) *Grant {
	t.Helper()
	g, _, err := w.store.LoadGrant(context.Background(), GrantKey{Principal: who, Server: "remote", Resource: w.resource})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestUserLoginCompletesOnAnyReplicaForWhoBeganIt: bob begins a login on
// one replica; the redirect back reaches another, brought by alice's
// browser. The grant is bob's and nobody else's, and a second redirect
// with the same state stores nothing.
func TestUserLoginCompletesOnAnyReplicaForWhoBeganIt(t *testing.T) {
	w := newUserWorld(t)
	back := w.begin(t, "bob", "")
	code, body := w.bring(t, back, 1, "alice-token", "")
	if code != http.StatusOK || !strings.Contains(body, "Logged in to remote as bob") {
		t.Fatalf("callback on the other replica: %d %s", code, body)
	}
	if g := w.grant(t, "bob"); g == nil || !g.Valid(g.Obtained, 0) {
		t.Fatalf("bob's grant = %+v", g)
	}
	for _, who := range []string{"alice", ""} {
		if g := w.grant(t, who); g != nil {
			t.Errorf("a grant was stored for %q, who did not begin the login", who)
		}
	}
	if code, body := w.bring(t, back, 0, "bob-token", ""); code != http.StatusBadRequest || !strings.Contains(body, "not expected") {
		t.Errorf("the same redirect again: %d %s", code, body)
	}
	if n := w.as.Stats().CodeExchanges; n != 1 {
		t.Errorf("%d code exchanges, want 1", n)
	}
}

// TestUserLoginBoundToItsBrowser: a login begun on the status page comes
// back only in the browser that began it; another browser (one the link
// was passed to) stores nothing, for anybody.
func TestUserLoginBoundToItsBrowser(t *testing.T) {
	w := newUserWorld(t)
	back := w.begin(t, "mallory", "mallorys-nonce")
	code, body := w.bring(t, back, 1, "", "alices-nonce")
	if code != http.StatusOK || !strings.Contains(body, "begun in another browser") {
		t.Fatalf("callback in another browser: %d %s", code, body)
	}
	if g := w.grant(t, "mallory"); g != nil {
		t.Error("a login brought back by another browser was stored")
	}
	back = w.begin(t, "alice", "alices-nonce")
	if code, body := w.bring(t, back, 1, "", "alices-nonce"); code != http.StatusOK || !strings.Contains(body, "Logged in to remote as alice") {
		t.Fatalf("callback in the browser that began it: %d %s", code, body)
	}
}

// TestUserLoginURLHoldsNoSecret: the pending login's file holds the verifier,
// so it is the user's alone, and nothing of it is in the URL the person
// opens.
func TestUserLoginURLHoldsNoSecret(t *testing.T) {
	w := newUserWorld(t)
	u, err := w.logins().Begin(context.Background(), LoginStart{Principal: "bob", Server: "remote", Resource: w.resource, RedirectURL: w.replicas[0].URL + "/oauth/callback"})
	if err != nil {
		t.Fatal(err)
	}
	state := u[strings.Index(u, "state=")+len("state="):]
	state, _, _ = strings.Cut(state, "&")
	l, err := w.store.Logins().TakeLogin(context.Background(), state)
	if err != nil || l == nil {
		t.Fatalf("take = %v, %v", l, err)
	}
	for _, secret := range []string{l.Verifier, l.ClientSecret} {
		if secret != "" && strings.Contains(u, secret) {
			t.Errorf("the authorization URL holds a secret")
		}
	}
}

// TestUserLoginStepUpAsksForTheScopesWanted: a person's call answered 403
// insufficient_scope keeps the scopes the server asked for in that
// person's grant, and their next login asks for them with those granted
// before, and her grant then holds them; nobody else's login asks for
// more.
func TestUserLoginStepUpAsksForTheScopesWanted(t *testing.T) {
	w := newUserWorld(t)
	if code, body := w.bring(t, w.begin(t, "alice", ""), 0, "", ""); code != http.StatusOK {
		t.Fatalf("alice's first login: %d %s", code, body)
	}
	k := GrantKey{Principal: "alice", Server: "remote", Resource: w.resource}
	h := NewPersonHandler(NewTokensFor(w.store, k, nil, nil), Settings{Identity: IdentityUser}, nil)
	req, _ := http.NewRequest(http.MethodPost, w.resource, nil)
	resp := &http.Response{StatusCode: http.StatusForbidden, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(""))}
	resp.Header.Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="tasks tasks:admin"`)
	var lr *LoginRequiredError
	if err := h.Authorize(context.Background(), req, resp); !errors.As(err, &lr) || !lr.StepUp() {
		t.Fatalf("Authorize(403 insufficient_scope) = %v; want a step-up for alice to make", err)
	}
	if g := w.grant(t, "alice"); g == nil || !slices.Contains(g.WantScopes, "tasks:admin") {
		t.Fatalf("alice's grant after the step-up: %+v; want tasks:admin wanted", g)
	}
	for who, want := range map[string][]string{"alice": {"tasks", "tasks:admin"}, "bob": {"tasks"}} {
		u, err := w.logins().Begin(context.Background(), LoginStart{Principal: who, Server: "remote", Resource: w.resource, RedirectURL: w.replicas[0].URL + "/oauth/callback"})
		if err != nil {
			t.Fatal(err)
		}
		pu, _ := url.Parse(u)
		got := strings.Fields(pu.Query().Get("scope"))
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s's next login asks for %q; want %q", who, got, want)
		}
	}
	if code, body := w.bring(t, w.begin(t, "alice", ""), 1, "", ""); code != http.StatusOK {
		t.Fatalf("alice's login again: %d %s", code, body)
	}
	if g := w.grant(t, "alice"); g == nil || !slices.Contains(g.Scopes, "tasks:admin") || !slices.Contains(g.Scopes, "tasks") {
		t.Errorf("alice's grant after her login again holds %v; want tasks and tasks:admin", g.Scopes)
	}
}
