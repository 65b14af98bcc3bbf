package trust

import (
	"context"
	"errors"
)

// Data is every source's approvals, as a [Backend] stores them; Record is
// one source's.
type (
	Data   = data
	Record = record
)

// NewData returns an empty store's content.
func NewData() *Data { return emptyData() }

// A Backend keeps the approvals somewhere durable and shared: a file every
// process of the user reads ([FileBackend]), or a database every replica
// reads (package internal/state/pgstate). The [Store] holds what it last
// read in memory and decides from that alone, so that a decision never
// waits for the backend.
type Backend interface {
	// Read returns the stored approvals. Unless force is set, it may
	// return nil, nil when they are the ones it last returned (read or
	// written): a cheap check (a stat, a sequence number) spares the
	// decoding.
	Read(ctx context.Context, force bool) (*Data, error)
	// Update takes the backend's lock (one writer at a time, whichever
	// process), reads the approvals under it, applies merge, and stores
	// the result when merge reports a change. It returns what is stored
	// now and whether it wrote.
	Update(ctx context.Context, merge func(*Data) bool) (d *Data, wrote bool, err error)
	// Watch calls changed when the stored approvals may have changed
	// (force: whatever a cheap check says), until ctx ends.
	Watch(ctx context.Context, changed func(force bool))
	// String names where the approvals are, for logs and errors.
	String() string
}

// ErrUnavailable marks a backend that cannot be reached for now (a database
// that is down): the store keeps deciding from what it holds, and refuses
// changes, rather than holding everything as it does for a file it cannot
// read.
var ErrUnavailable = errors.New("the shared state cannot be reached")
