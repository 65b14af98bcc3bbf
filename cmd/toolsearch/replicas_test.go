package main

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/internal/state/pgstate"
	"github.com/toolsearch/toolsearch/internal/state/pgstate/pgtest"
)

// TestReplicaSetWhileTheRegistryIsDown: a replica that left the registry
// (SIGTERM) and started again under its id opens sessions at once; while
// the database cannot be read, another replica whose last read of the
// registry predates the restart still forwards their requests to the
// address it last had, rather than answer that the session is lost. A
// replica it never saw is still unknown.
func TestReplicaSetWhileTheRegistryIsDown(t *testing.T) {
	dsn := pgtest.DSN(t)
	link, db := openThroughLink(t, dsn)
	ctx := context.Background()
	direct, err := pgstate.Open(ctx, dsn, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(direct.Close)

	b := pgstate.Replica{ID: "replica-b", Address: "http://127.0.0.1:8081", Started: time.Now()}
	if err := direct.Beat(ctx, b); err != nil {
		t.Fatal(err)
	}
	reps := newReplicaSet(db, "replica-a")
	reps.update(db.Replicas(ctx, pgstate.LiveWithin))
	if addr, ok := reps.address("replica-b"); !ok || addr != b.Address {
		t.Fatalf("address of a live replica: %q, %v", addr, ok)
	}
	// b stops and leaves; a's next beat reads the registry without it.
	if err := direct.Leave(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	reps.update(db.Replicas(ctx, pgstate.LiveWithin))
	// b starts again, and the database goes down before a reads again.
	if err := direct.Beat(ctx, b); err != nil {
		t.Fatal(err)
	}
	link.Down()
	if addr, ok := reps.address("replica-b"); !ok || addr != b.Address {
		t.Errorf("address of a replica started again while the registry cannot be read: %q, %v; want %q (its requests are forwarded, not lost)", addr, ok, b.Address)
	}
	if addr, ok := reps.address("replica-c"); ok {
		t.Errorf("a replica never seen has an address: %q", addr)
	}
	link.Up()
	if err := direct.Leave(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	if addr, ok := reps.address("replica-b"); ok {
		t.Errorf("a replica gone from a registry that can be read has an address: %q", addr)
	}
}

// TestReplicaKnowsTheOthersBeforeItServes: a replica reads the registry
// as it joins it, before it serves, so that it forwards a session another
// replica opened though the database goes down before its first
// heartbeat's read (a replica restarted just as PostgreSQL restarted).
func TestReplicaKnowsTheOthersBeforeItServes(t *testing.T) {
	link, db := openThroughLink(t, pgtest.DSN(t))
	ctx := context.Background()
	other := pgstate.Replica{ID: "replica-b", Address: "http://127.0.0.1:8082", Started: time.Now()}
	if err := db.Beat(ctx, other); err != nil {
		t.Fatal(err)
	}
	a := &app{cfg: &Config{}, log: slog.New(slog.DiscardHandler), state: db}
	reps := newReplicaSet(db, "replica-a")
	a.joinRegistry("127.0.0.1:8081", reps)
	link.Down()
	if addr, ok := reps.address(other.ID); !ok || addr != other.Address {
		t.Errorf("the address of a replica live when this one joined, the database down since: %q, %v; want %q", addr, ok, other.Address)
	}
	if addr, ok := reps.address("replica-a"); !ok || addr != "http://127.0.0.1:8081" {
		t.Errorf("its own address: %q, %v", addr, ok)
	}
}

// openThroughLink opens the state at dsn through a link the test can take
// down, as a database restart or a network fault would.
func openThroughLink(t *testing.T, dsn string) (*pgtest.Link, *pgstate.DB) {
	t.Helper()
	link, viaLink := pgtest.NewLink(t, dsn)
	db, err := pgstate.Open(context.Background(), viaLink, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return link, db
}
