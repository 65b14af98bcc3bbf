package pgstate_test

import (
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/toolsearch/toolsearch/internal/state/pgstate"
	"github.com/toolsearch/toolsearch/internal/state/pgstate/pgtest"
	"github.com/toolsearch/toolsearch/internal/state/statetest"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func testKey(t *testing.T) *pgstate.Key {
	raw := make([]byte, pgstate.KeySize)
	rand.Read(raw)
	k, err := pgstate.NewKey(raw)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func open(t *testing.T, dsn string, key *pgstate.Key) *pgstate.DB {
	t.Helper()
	db, err := pgstate.Open(context.Background(), dsn, key, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db
}

// TestPostgres runs the suite against PostgreSQL: each process its own
// connection pool to one database, as replicas are.
func TestPostgres(t *testing.T) {
	statetest.Run(t, func(t *testing.T) statetest.State {
		dsn, key := pgtest.DSN(t), testKey(t)
		return func(t *testing.T) statetest.Process {
			db := open(t, dsn, key)
			return statetest.Process{Approvals: db.Approvals(), Grants: db.Grants(), Catalogs: db.Catalogs(), Logins: db.Logins()}
		}
	})
}

// TestMigrateOnce: replicas starting together migrate once, under the
// advisory lock, and a later start finds nothing to do.
func TestMigrateOnce(t *testing.T) {
	dsn := pgtest.DSN(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			db, err := pgstate.Open(context.Background(), dsn, nil, nil)
			if err == nil {
				db.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("start %d: %v", i, err)
		}
	}
	open(t, dsn, nil)
}

// TestGrantSealed: a grant is not stored in the clear, and does not open
// with another key (a replica given the wrong key file says so).
func TestGrantSealed(t *testing.T) {
	dsn := pgtest.DSN(t)
	ctx := context.Background()
	k := oauth.GrantKey{Server: "srv", Resource: "https://mcp.example.com/mcp"}
	db := open(t, dsn, testKey(t))
	if _, err := db.Grants().SaveGrant(ctx, k, statetestGrant(k)); err != nil {
		t.Fatal(err)
	}
	raw := pgstate.RawGrantsForTest(t, db)
	if strings.Contains(raw, "access-secret") || strings.Contains(raw, "refresh-secret") {
		t.Fatal("a token is stored in the clear")
	}
	other := open(t, dsn, testKey(t))
	if _, _, err := other.Grants().LoadGrant(ctx, k); err == nil || !strings.Contains(err.Error(), "state.keyFile") {
		t.Errorf("another key: %v, want an error naming state.keyFile", err)
	}
	none := open(t, dsn, nil)
	if _, err := none.Grants().SaveGrant(ctx, k, statetestGrant(k)); err == nil || !strings.Contains(err.Error(), "toolsearch state keygen") {
		t.Errorf("no key: %v, want an error saying how to write one", err)
	}
}

// TestPrincipalGrantsListedThoughSealedElsewhere: a person's grant sealed
// with another key is listed, with why it does not open, so that `auth
// status` shows it stored and `auth logout --principal` can forget it.
func TestPrincipalGrantsListedThoughSealedElsewhere(t *testing.T) {
	dsn := pgtest.DSN(t)
	ctx := context.Background()
	k := oauth.GrantKey{Principal: "alice", Server: "srv", Resource: "https://mcp.example.com/mcp"}
	if _, err := open(t, dsn, testKey(t)).Grants().SaveGrant(ctx, k, statetestGrant(k)); err != nil {
		t.Fatal(err)
	}
	got, err := open(t, dsn, testKey(t)).Grants().(oauth.GrantLister).PrincipalGrants(ctx, "srv", k.Resource)
	if err != nil || len(got) != 1 || got[0].Key != k || got[0].Grant != nil || got[0].Err == nil || !strings.Contains(got[0].Err.Error(), "state.keyFile") {
		t.Fatalf("PrincipalGrants with another key = %+v, %v; want alice's listed, not opening, naming state.keyFile", got, err)
	}
}

func TestKeyFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.key")
	if err := pgstate.WriteKeyFile(file); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(file)
	if info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", info.Mode().Perm())
	}
	data, _ := os.ReadFile(file)
	if len(strings.TrimSpace(string(data))) != 64 {
		t.Errorf("key file %q: want 64 hex digits", data)
	}
	if _, err := pgstate.ReadKeyFile(file); err != nil {
		t.Fatal(err)
	}
	if err := pgstate.WriteKeyFile(file); err == nil {
		t.Error("an existing key was replaced")
	}
	bad := filepath.Join(t.TempDir(), "bad.key")
	os.WriteFile(bad, []byte("abcd\n"), 0o600)
	if _, err := pgstate.ReadKeyFile(bad); err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "64 hex digits") {
		t.Errorf("a short key: %v", err)
	}
}

// TestPendingLoginTakenOnce: a login's callback completes it once,
// whichever replica it reaches.
func TestPendingLoginTakenOnce(t *testing.T) {
	dsn, key := pgtest.DSN(t), testKey(t)
	a, b := open(t, dsn, key), open(t, dsn, key)
	ctx := context.Background()
	if err := a.PutLogin(ctx, pgstate.PendingLogin{State: "st", Principal: "alice", Server: "srv", Secret: []byte("verifier"), Expires: nowPlusMinute()}); err != nil {
		t.Fatal(err)
	}
	l, err := b.TakeLogin(ctx, "st")
	if err != nil || l == nil || string(l.Secret) != "verifier" || l.Principal != "alice" {
		t.Fatalf("TakeLogin: %+v, %v", l, err)
	}
	if l, err := a.TakeLogin(ctx, "st"); l != nil || err != nil {
		t.Errorf("taken twice: %+v, %v", l, err)
	}
}

func TestReplicas(t *testing.T) {
	dsn := pgtest.DSN(t)
	a := open(t, dsn, nil)
	ctx := context.Background()
	for _, id := range []string{"b", "a"} {
		if err := a.Beat(ctx, pgstate.Replica{ID: id, Address: "http://" + id + ":8080", ConfigDigest: "d", Upstreams: map[string]string{"weather": "active", "tasks": "needs-auth"}, Started: nowPlusMinute()}); err != nil {
			t.Fatal(err)
		}
	}
	live, err := a.Replicas(ctx, pgstate.HeartbeatEvery*3)
	if err != nil || len(live) != 2 || live[0].ID != "a" {
		t.Fatalf("Replicas: %+v, %v", live, err)
	}
	// Each replica's upstream states are published with it.
	if got := live[1].Upstreams; got["weather"] != "active" || got["tasks"] != "needs-auth" || len(got) != 2 {
		t.Errorf("b's upstreams read back as %v", got)
	}
	a.Leave(ctx, "a")
	if live, _ := a.Replicas(ctx, pgstate.HeartbeatEvery*3); len(live) != 1 {
		t.Errorf("after Leave: %+v", live)
	}
}
