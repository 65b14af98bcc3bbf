package oauth

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAHeldGrantOutlivesTheStoreGoingDown: a login this process made but
// could not store (the database went down as it completed) is still the
// grant it holds: reading the store while it is down is not "none", so the
// login's token is used, and nobody is asked to log in again.
func TestAHeldGrantOutlivesTheStoreGoingDown(t *testing.T) {
	s := &downStore{Grants: testStore(t)}
	k := GrantKey{Server: "remote", Resource: resource}
	tokens := NewTokensFor(s, k, nil, nil)
	s.down.Store(true)
	g := expiring("http://127.0.0.1:9/token")
	g.Token.Expiry = time.Now().Add(time.Hour)
	if err := tokens.Save(g); err == nil || !strings.Contains(err.Error(), "cannot be stored") {
		t.Errorf("Save while the database is down: %v; want it to say the login cannot be stored", err)
	}
	for range 2 {
		if tok, err := tokens.Token(); err != nil || tok.AccessToken != "access-old" {
			t.Fatalf("Token after a login the database could not store: %v, %v; want the login's token, held", tok, err)
		}
	}
	if why := tokens.NeedsLogin(); why != "" {
		t.Errorf("NeedsLogin: %q, want none", why)
	}
	if err := tokens.Read(); err != nil {
		t.Errorf("Read with a grant held: %v, want nil", err)
	}
}

// TestATokenFileThatCannotBeReadIsNotNone: with the files, a token file
// that exists but cannot be read now (its folder refused, an I/O error,
// too many files open; here a folder that is a file, which root cannot
// be refused) is not "no login" either: nothing asks for a login, the
// error says the file cannot be read, a refresh does not start from
// nothing, and the grant is used once the file can be read again. A file
// that is not a token file is none, as before: a login replaces it.
func TestATokenFileThatCannotBeReadIsNotNone(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "oauth")
	store, err := NewStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	k := GrantKey{Server: "remote", Resource: resource}
	g := expiring("http://127.0.0.1:9/token")
	g.Token.Expiry = time.Now().Add(time.Hour)
	if _, err := store.SaveGrant(context.Background(), k, g); err != nil {
		t.Fatal(err)
	}
	aside := dir + ".aside"
	if err := os.Rename(dir, aside); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, []byte("not a folder"), 0o600); err != nil {
		t.Fatal(err)
	}

	if _, _, err := store.LoadGrant(context.Background(), k); !errors.Is(err, ErrUnavailable) {
		t.Errorf("LoadGrant of a file that cannot be read: %v; want an error matching ErrUnavailable", err)
	}
	called := false
	if _, _, err := store.UpdateGrant(context.Background(), k, func(*Grant) (*Grant, error) { called = true; return nil, nil }); err == nil || called {
		t.Errorf("UpdateGrant of a file that cannot be read ran the refresh from nothing (called %v), err %v", called, err)
	}
	tokens := NewTokensFor(store, k, nil, nil)
	if why := tokens.NeedsLogin(); why != "" {
		t.Errorf("NeedsLogin while the token file cannot be read: %q, want none", why)
	}
	_, err = tokens.Token()
	if err == nil || errors.Is(err, ErrLoginRequired) || !strings.Contains(err.Error(), "cannot be read now") || strings.Contains(err.Error(), "database") {
		t.Errorf("Token while the token file cannot be read: %v; want a plain error saying the file cannot be read now", err)
	}
	if err := tokens.Read(); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Read while the token file cannot be read: %v", err)
	}

	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(aside, dir); err != nil {
		t.Fatal(err)
	}
	if tok, err := tokens.Token(); err != nil || tok.AccessToken != "access-old" {
		t.Errorf("Token once the file can be read: %v, %v", tok, err)
	}

	// Not a token file (here a folder in its place): none, as before.
	if err := os.Remove(store.path(k)); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(store.path(k), 0o700); err != nil {
		t.Fatal(err)
	}
	if why := NewTokensFor(store, k, nil, nil).NeedsLogin(); why != "no login is stored for it" {
		t.Errorf("NeedsLogin with a folder in the token file's place: %q", why)
	}
}

// listingStore is a downStore that lists the principals' grants, as the
// PostgreSQL store does.
type listingStore struct {
	*downStore
	keys []GrantKey
}

func (l *listingStore) PrincipalGrants(ctx context.Context, server, resource string) ([]StoredGrant, error) {
	if err := l.err(); err != nil {
		return nil, err
	}
	var out []StoredGrant
	for _, k := range l.keys {
		if k.Server != server || k.Resource != resource || k.Principal == "" {
			continue
		}
		g, st, err := l.LoadGrant(ctx, k)
		if err != nil {
			return nil, err
		}
		out = append(out, StoredGrant{Key: k, Grant: g, Stamp: st})
	}
	return out, nil
}

// TestReadPeopleHoldsTheirGrants: the grants people hold, read at start,
// serve their calls though the database goes down before the first one;
// a grant changed meanwhile is read again while it is up.
func TestReadPeopleHoldsTheirGrants(t *testing.T) {
	s := &listingStore{downStore: &downStore{Grants: testStore(t)}}
	for _, who := range []string{"alice", "bob"} {
		k := GrantKey{Principal: who, Server: "remote", Resource: resource}
		g := expiring("http://127.0.0.1:9/token")
		g.Token.AccessToken, g.Token.Expiry = who+"-token", time.Now().Add(time.Hour)
		if _, err := s.SaveGrant(context.Background(), k, g); err != nil {
			t.Fatal(err)
		}
		s.keys = append(s.keys, k)
	}
	people, err := ReadPeople(context.Background(), s, "remote", resource, nil, nil)
	if err != nil || len(people) != 2 {
		t.Fatalf("ReadPeople: %v, %v; want alice's and bob's", people, err)
	}
	s.down.Store(true)
	for who, tokens := range people {
		if tok, err := tokens.Token(); err != nil || tok.AccessToken != who+"-token" {
			t.Errorf("%s's Token while the database is down: %v, %v; want the grant read at start", who, tok, err)
		}
	}
	if _, err := ReadPeople(context.Background(), s, "remote", resource, nil, nil); !errors.Is(err, ErrUnavailable) {
		t.Errorf("ReadPeople while the database is down: %v", err)
	}
	if people, err := ReadPeople(context.Background(), s.downStore, "remote", resource, nil, nil); people != nil || err != nil {
		t.Errorf("ReadPeople from a store that cannot list: %v, %v; want none, no error", people, err)
	}
}

func (d *downStore) SaveGrant(ctx context.Context, k GrantKey, g *Grant) (Stamp, error) {
	if err := d.err(); err != nil {
		return nil, err
	}
	return d.Grants.SaveGrant(ctx, k, g)
}
