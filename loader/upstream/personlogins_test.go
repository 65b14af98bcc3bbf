package upstream

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/internal/principal"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// TestPersonLoginsListedAndForgotten: a server's people's logins are
// listed by principal; one person's logout forgets theirs alone, and the
// running manager, which called as them, asks them to log in at their
// next call while everyone else's go on. A person with no login, no
// person, a shared server and an unknown one are errors that say so.
func TestPersonLoginsListedAndForgotten(t *testing.T) {
	who := newWhoServer(t, map[string]string{"shared-token": "shared", "alice-token": "alice", "bob-token": "bob"})
	store, err := oauth.NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Save(grantFor("who", who.url, "shared-token")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, p := range []string{"bob", "alice"} {
		if _, err := store.SaveGrant(ctx, oauth.GrantKey{Principal: p, Server: "who", Resource: who.url}, grantFor("who", who.url, p+"-token")); err != nil {
			t.Fatal(err)
		}
	}
	m, cat := startPerPerson(t, who.url, store)
	waitSource(t, cat, "who", "active", inState(catalog.StateActive))
	if res, err := m.Call(principal.With(ctx, "alice"), "who", "whoami", nil); err != nil || textOf(res) != "alice" {
		t.Fatalf("alice's call: %v, %v", res, err)
	}

	names := func() []string {
		t.Helper()
		logins, err := m.PersonLogins(ctx, "who")
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, pl := range logins {
			if pl.Info == nil || pl.Info.NeedsLogin != "" || pl.Err != nil {
				t.Errorf("%s's login listed as %+v", pl.Principal, pl)
			}
			out = append(out, pl.Principal)
		}
		return out
	}
	if got := strings.Join(names(), ","); got != "alice,bob" {
		t.Fatalf("PersonLogins = %s; want alice,bob", got)
	}
	if revokedAt, err := m.LogoutPerson(ctx, "who", "alice"); err != nil || revokedAt != "" {
		t.Fatalf("LogoutPerson(alice) = %q, %v; want forgotten, nothing to revoke at", revokedAt, err)
	}
	if got := strings.Join(names(), ","); got != "bob" {
		t.Errorf("PersonLogins after alice's logout = %s; want bob", got)
	}
	var ul *UserLoginRequiredError
	if _, err := m.Call(principal.With(ctx, "alice"), "who", "whoami", nil); !errors.As(err, &ul) {
		t.Errorf("alice's call after her logout: %v; want her asked to log in", err)
	}
	if res, err := m.Call(principal.With(ctx, "bob"), "who", "whoami", nil); err != nil || textOf(res) != "bob" {
		t.Errorf("bob's call after alice's logout: %v, %v", res, err)
	}
	if g, err := store.Load("who", who.url); g == nil || err != nil {
		t.Errorf("the shared login went with alice's: %v", err)
	}
	if _, err := m.LogoutPerson(ctx, "who", "alice"); !errors.Is(err, ErrNoPersonLogin) {
		t.Errorf("alice's logout again: %v; want ErrNoPersonLogin", err)
	}
	if _, err := m.LogoutPerson(ctx, "who", ""); err == nil {
		t.Error("a logout of nobody was taken")
	}
	if _, err := m.LogoutPerson(ctx, "nowhere", "bob"); !errors.Is(err, ErrUnknownServer) {
		t.Errorf("an unknown server: %v", err)
	}

	shared := New([]ServerConfig{{Name: "who", Type: TypeHTTP, URL: who.url}}, Options{
		Catalog: catalog.New(), CacheDir: t.TempDir(), Logger: testLogger(t), TokenStore: store,
	})
	shared.firstBackoff = time.Millisecond
	t.Cleanup(func() { shared.Close() })
	if _, err := shared.LogoutPerson(ctx, "who", "bob"); err == nil || !strings.Contains(err.Error(), "leave out --principal") {
		t.Errorf("a person's logout of a shared server: %v; want told to leave out --principal", err)
	}
	if _, err := shared.PersonLogins(ctx, "who"); err == nil {
		t.Error("a shared server's people were listed")
	}
}
