package pgstate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/toolsearch/toolsearch/loader/trust"
)

// approvalsLock is the advisory lock under which every change of the
// approvals is applied.
const approvalsLock = 0x746f6f6c73617070 // "toolsapp"

// notifyChannel is where a change of the shared state is announced.
const notifyChannel = "toolsearch_state"

// pollEvery is how often Watch reads the sequence number should a
// notification be lost (a connection that dropped and came back).
const pollEvery = time.Second

// Approvals returns the approvals kept in the database, as a trust.Backend.
func (db *DB) Approvals() trust.Backend { return &approvals{db: db} }

type approvals struct {
	db *DB

	mu   sync.Mutex
	read bool
	seq  int64 // of what was last read or written
}

func (a *approvals) String() string { return a.db.String() }

func (a *approvals) last() (int64, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.seq, a.read
}

func (a *approvals) remember(seq int64) {
	a.mu.Lock()
	a.seq, a.read = seq, true
	a.mu.Unlock()
}

// Read returns the approvals, or nil when the sequence number is the one
// last read (whatever force says: the number is the truth).
func (a *approvals) Read(ctx context.Context, force bool) (*trust.Data, error) {
	var d *trust.Data
	err := pgx.BeginTxFunc(ctx, a.db.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		seq, err := sequence(ctx, tx)
		if err != nil {
			return err
		}
		if last, ok := a.last(); ok && last == seq {
			return nil
		}
		if d, err = readApprovals(ctx, tx); err != nil {
			return err
		}
		a.remember(seq)
		return nil
	})
	return d, unavailable(err)
}

func sequence(ctx context.Context, tx pgx.Tx) (int64, error) {
	var seq int64
	err := tx.QueryRow(ctx, "SELECT seq FROM toolsearch_sequence WHERE name = 'approvals'").Scan(&seq)
	return seq, err
}

// readApprovals reads every source's row.
func readApprovals(ctx context.Context, tx pgx.Tx) (*trust.Data, error) {
	rows, err := tx.Query(ctx, "SELECT key, name, entries FROM toolsearch_approvals")
	if err != nil {
		return nil, err
	}
	d := trust.NewData()
	var key, name string
	var entries []byte
	_, err = pgx.ForEachRow(rows, []any{&key, &name, &entries}, func() error {
		r := &trust.Record{Name: name}
		if err := json.Unmarshal(entries, &r.Entries); err != nil {
			return fmt.Errorf("the approvals of %s in the database: %w", name, err)
		}
		if r.Entries == nil {
			r.Entries = map[string][]trust.Approval{}
		}
		d.Sources[key] = r
		return nil
	})
	return d, err
}

// Update applies merge to the rows as stored, in one transaction under
// the advisory lock, writes the sources it changed, bumps the sequence
// number and notifies the other replicas (at commit).
func (a *approvals) Update(ctx context.Context, merge func(*trust.Data) bool) (*trust.Data, bool, error) {
	var (
		out   *trust.Data
		wrote bool
		next  int64 // the sequence number the write made
	)
	err := pgx.BeginFunc(ctx, a.db.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(approvalsLock)); err != nil {
			return err
		}
		seq, err := sequence(ctx, tx)
		if err != nil {
			return err
		}
		d, err := readApprovals(ctx, tx)
		if err != nil {
			return err
		}
		before, err := encodeSources(d)
		if err != nil {
			return err
		}
		if !merge(d) {
			if last, ok := a.last(); !ok || last != seq {
				out = d
				a.remember(seq)
			}
			return nil
		}
		after, err := encodeSources(d)
		if err != nil {
			return err
		}
		if err := writeChanges(ctx, tx, before, after); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, "UPDATE toolsearch_sequence SET seq = seq + 1 WHERE name = 'approvals' RETURNING seq").Scan(&next); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "SELECT pg_notify($1, $2)", notifyChannel, fmt.Sprintf("approvals %d", next)); err != nil {
			return err
		}
		out, wrote = d, true
		// Remembered only once committed, below.
		return nil
	})
	if err != nil {
		return nil, false, unavailable(err)
	}
	if wrote {
		a.remember(next)
	}
	return out, wrote, nil
}

// source is one source's row as it would be written.
type source struct {
	name    string
	entries []byte
}

func encodeSources(d *trust.Data) (map[string]source, error) {
	out := make(map[string]source, len(d.Sources))
	for k, r := range d.Sources {
		b, err := json.Marshal(r.Entries)
		if err != nil {
			return nil, err
		}
		out[k] = source{r.Name, b}
	}
	return out, nil
}

// errRaced would say that a source's first listing was recorded by another
// writer between the read and the write, which the advisory lock rules out.
var errRaced = errors.New("a source's first listing was recorded concurrently")

// writeChanges writes the rows that differ between before and after. A new
// source is inserted once: ON CONFLICT DO NOTHING, and the winner's row
// stays.
func writeChanges(ctx context.Context, tx pgx.Tx, before, after map[string]source) error {
	for k, s := range after {
		old, had := before[k]
		switch {
		case !had:
			tag, err := tx.Exec(ctx, "INSERT INTO toolsearch_approvals (key, name, entries) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING", k, s.name, s.entries)
			if err != nil {
				return err
			}
			if tag.RowsAffected() != 1 {
				return errRaced
			}
		case old.name != s.name || string(old.entries) != string(s.entries):
			if _, err := tx.Exec(ctx, "UPDATE toolsearch_approvals SET name = $2, entries = $3 WHERE key = $1", k, s.name, s.entries); err != nil {
				return err
			}
		}
	}
	for k := range before {
		if _, kept := after[k]; !kept {
			if _, err := tx.Exec(ctx, "DELETE FROM toolsearch_approvals WHERE key = $1", k); err != nil {
				return err
			}
		}
	}
	return nil
}

// Watch listens for changes on a connection of its own, and reads the
// sequence number every pollEvery besides: a notification wakes the store
// at once, the number says whether anything changed, the poll covers a
// notification lost while the connection was down.
func (a *approvals) Watch(ctx context.Context, changed func(force bool)) {
	for ctx.Err() == nil {
		err := a.listen(ctx, changed)
		if ctx.Err() != nil {
			return
		}
		a.db.log.Warn("not listening for changes of the shared state; polling it", "err", unavailable(err))
		changed(false)
		select {
		case <-ctx.Done():
		case <-time.After(pollEvery):
		}
	}
}

func (a *approvals) listen(ctx context.Context, changed func(force bool)) error {
	conn, err := a.db.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	// The connection is closed rather than returned: it holds a LISTEN.
	defer conn.Release()
	defer conn.Conn().Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+notifyChannel); err != nil {
		return err
	}
	changed(false) // a change made before the LISTEN
	for {
		wctx, cancel := context.WithTimeout(ctx, pollEvery)
		_, err := conn.Conn().WaitForNotification(wctx)
		cancel()
		if ctx.Err() != nil {
			return nil
		}
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		changed(false)
	}
}
