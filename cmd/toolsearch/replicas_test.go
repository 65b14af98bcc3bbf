package main

import (
	"context"
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
	proxy, viaProxy := pgtest.NewProxy(t, dsn)
	ctx := context.Background()
	db, err := pgstate.Open(ctx, viaProxy, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
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
	proxy.Down()
	if addr, ok := reps.address("replica-b"); !ok || addr != b.Address {
		t.Errorf("address of a replica started again while the registry cannot be read: %q, %v; want %q (its requests are forwarded, not lost)", addr, ok, b.Address)
	}
	if addr, ok := reps.address("replica-c"); ok {
		t.Errorf("a replica never seen has an address: %q", addr)
	}
	proxy.Up()
	if err := direct.Leave(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	if addr, ok := reps.address("replica-b"); ok {
		t.Errorf("a replica gone from a registry that can be read has an address: %q", addr)
	}
}
