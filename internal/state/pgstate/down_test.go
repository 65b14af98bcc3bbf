package pgstate_test

import (
	"context"
	"errors"
	"github.com/toolsearch/toolsearch/internal/state/pgstate"
	"strings"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/internal/state/pgstate/pgtest"
	"github.com/toolsearch/toolsearch/loader/trust"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// TestDatabaseDown: a replica that loses the database keeps deciding from
// the approvals it holds (nothing is held for being unreadable), keeps
// using the OAuth token it holds, refuses changes with a sentence that
// says why, and takes in what changed meanwhile once the database is back.
func TestDatabaseDown(t *testing.T) {
	dsn, key := pgtest.DSN(t), testKey(t)
	link, viaLink := pgtest.NewLink(t, dsn)
	replica, other := open(t, viaLink, key), open(t, dsn, key)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	store := trust.OpenBackend(replica.Approvals(), nil)
	<-store.Loaded()
	if err := store.Approve(ctx, "srv", "srv", []trust.Item{{Entry: "tool", Digest: "d1", By: trust.ByFirstListing}}); err != nil {
		t.Fatal(err)
	}
	changed := make(chan struct{}, 1)
	defer store.Subscribe(func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})()
	go store.Watch(ctx)

	k := oauth.GrantKey{Server: "srv", Resource: "https://mcp.example.com/mcp"}
	if _, err := other.Grants().SaveGrant(ctx, k, statetestGrant(k)); err != nil {
		t.Fatal(err)
	}
	tokens := oauth.NewTokensFor(replica.Grants(), k, nil, nil)
	if tok, err := tokens.Token(); err != nil || tok.AccessToken != "access-secret" {
		t.Fatalf("Token before: %v, %v", tok, err)
	}

	link.Down()
	if v := store.Decide(trust.ModeChanged, "srv", "tool", "d1", false); v.Held {
		t.Errorf("an approved definition while the database is down: %+v", v)
	}
	if v := store.Decide(trust.ModeChanged, "srv", "tool", "d2", false); v.Reason != trust.ReasonChanged {
		t.Errorf("a changed definition while the database is down: %+v, want held as changed", v)
	}
	err := store.Approve(ctx, "srv", "srv", []trust.Item{{Entry: "tool", Digest: "d2", By: "cli"}})
	if !errors.Is(err, trust.ErrUnavailable) || !strings.Contains(err.Error(), "cannot be reached") {
		t.Errorf("approving while the database is down: %v, want an error saying it cannot be reached", err)
	}
	if tok, err := tokens.Token(); err != nil || tok.AccessToken != "access-secret" {
		t.Errorf("the token held, while the database is down: %v, %v", tok, err)
	}
	if err := tokens.Save(statetestGrant(k)); err == nil || !strings.Contains(err.Error(), "cannot be stored while the shared state") {
		t.Errorf("storing a login while the database is down: %v", err)
	}
	if store.Err() != nil {
		t.Errorf("Err while the database is down: %v; want nil (nothing held for being unreadable)", store.Err())
	}

	// Another replica approves meanwhile; once back, this one takes it in.
	elsewhere := trust.OpenBackend(other.Approvals(), nil)
	<-elsewhere.Loaded()
	if err := elsewhere.Approve(ctx, "srv", "srv", []trust.Item{{Entry: "tool", Digest: "d2", By: "http"}}); err != nil {
		t.Fatal(err)
	}
	link.Up()
	took := waitApproved(t, store, changed, "d2")
	t.Logf("after the database came back, the approval made meanwhile arrived in %v", took)
}

func waitApproved(t *testing.T, s *trust.Store, changed <-chan struct{}, digest string) time.Duration {
	t.Helper()
	start := time.Now()
	bound := time.After(20 * time.Second)
	for !s.Approved("srv", "tool", digest) {
		select {
		case <-changed:
		case <-time.After(50 * time.Millisecond):
		case <-bound:
			t.Fatalf("%s not approved within 20 s of the database coming back", digest)
		}
	}
	return time.Since(start)
}

// TestLostNotification: a change whose NOTIFY never came (a connection
// that dropped) still reaches a watching replica, by the poll of the
// sequence number.
func TestLostNotification(t *testing.T) {
	dsn := pgtest.DSN(t)
	replica, other := open(t, dsn, nil), open(t, dsn, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store := trust.OpenBackend(replica.Approvals(), nil)
	<-store.Loaded()
	changed := make(chan struct{}, 1)
	defer store.Subscribe(func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})()
	go store.Watch(ctx)
	pgstate.ChangeWithoutNotifyForTest(t, other, "srv", `{"tool":[{"digest":"d7","at":"2026-01-01T00:00:00Z","by":"cli"}]}`)
	took := waitApproved(t, store, changed, "d7")
	t.Logf("a change without a notification arrived in %v (the poll runs every %v)", took, time.Second)
}
