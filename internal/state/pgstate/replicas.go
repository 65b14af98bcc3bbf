package pgstate

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// A Replica is one toolsearch serving from this state.
type Replica struct {
	ID           string // the host name, unless configured
	Address      string // where the others reach it
	ConfigDigest string // of its configuration, so that disagreements show
	// Upstreams are its upstream servers' states, by name: each replica
	// runs its own connections.
	Upstreams map[string]string
	Started   time.Time
	Heartbeat time.Time
}

// Beat records the replica as alive now.
func (db *DB) Beat(ctx context.Context, r Replica) error {
	upstreams := r.Upstreams
	if upstreams == nil {
		upstreams = map[string]string{}
	}
	_, err := db.pool.Exec(ctx, `INSERT INTO toolsearch_replicas (id, address, config_digest, upstreams, started, heartbeat)
		VALUES ($1, $2, $3, $4, $5, now())
		ON CONFLICT (id) DO UPDATE SET address = excluded.address, config_digest = excluded.config_digest,
			upstreams = excluded.upstreams, started = excluded.started, heartbeat = excluded.heartbeat`,
		r.ID, r.Address, r.ConfigDigest, upstreams, r.Started)
	return unavailable(err)
}

// Leave removes the replica from the registry (a graceful stop).
func (db *DB) Leave(ctx context.Context, id string) error {
	_, err := db.pool.Exec(ctx, "DELETE FROM toolsearch_replicas WHERE id = $1", id)
	return unavailable(err)
}

// Replicas returns the replicas that beat within maxAge, by id.
func (db *DB) Replicas(ctx context.Context, maxAge time.Duration) ([]Replica, error) {
	rows, err := db.pool.Query(ctx, `SELECT id, address, config_digest, upstreams, started, heartbeat FROM toolsearch_replicas
		WHERE heartbeat > now() - make_interval(secs => $1) ORDER BY id`, maxAge.Seconds())
	if err != nil {
		return nil, unavailable(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Replica, error) {
		var r Replica
		err := row.Scan(&r.ID, &r.Address, &r.ConfigDigest, &r.Upstreams, &r.Started, &r.Heartbeat)
		return r, err
	})
	return out, unavailable(err)
}

// HeartbeatEvery is how often Heartbeat beats; a replica is live while
// its last beat is younger than three of them (LiveWithin).
const (
	HeartbeatEvery = 5 * time.Second
	LiveWithin     = 3 * HeartbeatEvery
)

// Heartbeat beats every HeartbeatEvery for the replica now returns (its
// configuration digest and upstream states change as it runs), until ctx
// ends, then leaves. beat, when set, is called after each beat with the
// live replicas, or the error reading them.
func (db *DB) Heartbeat(ctx context.Context, now func() Replica, beat func([]Replica, error)) {
	t := time.NewTicker(HeartbeatEvery)
	defer t.Stop()
	r := now()
	for {
		if err := db.Beat(ctx, r); err != nil && ctx.Err() == nil {
			db.log.Warn("could not record this replica as live", "id", r.ID, "err", err)
		}
		if beat != nil && ctx.Err() == nil {
			beat(db.Replicas(ctx, LiveWithin))
		}
		select {
		case <-ctx.Done():
			lctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			_ = db.Leave(lctx, r.ID)
			return
		case <-t.C:
			r = now()
		}
	}
}
