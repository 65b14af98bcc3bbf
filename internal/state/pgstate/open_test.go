package pgstate_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/internal/state/pgstate"
	"github.com/toolsearch/toolsearch/loader/trust"
)

// TestOpenSaysTheDatabaseIsOutOfReach: serve waits for a database that is
// not up yet, which it knows by this error; any other, it gives up.
func TestOpenSaysTheDatabaseIsOutOfReach(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nobody listens there
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = pgstate.Open(ctx, "postgres://toolsearch@"+addr+"/toolsearch?connect_timeout=2", nil, nil)
	if !errors.Is(err, trust.ErrUnavailable) {
		t.Errorf("Open of a database nobody runs: %v, want an error that is trust.ErrUnavailable", err)
	}
}
