package pgstate

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/toolsearch/toolsearch/loader/trust"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// A DB is toolsearch's state in one PostgreSQL database.
type DB struct {
	pool *pgxpool.Pool
	key  *Key // seals the grants and pending logins; nil refuses them
	log  *slog.Logger
}

// Open connects to the database dsn names, checks that it answers, and
// brings its schema up to date (migrate). key seals the OAuth grants; nil
// makes every grant operation fail with an error that says to configure
// one.
func Open(ctx context.Context, dsn string, key *Key, logger *slog.Logger) (*DB, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// pgx's message may quote the DSN, password included.
		return nil, errors.New("state.dsn is not a PostgreSQL connection string (postgres://user@host/db, or key=value pairs)")
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connecting to PostgreSQL: %w", unavailable(err))
	}
	db := &DB{pool: pool, key: key, log: logger}
	if err := db.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return db, nil
}

// Close closes the connections.
func (db *DB) Close() { db.pool.Close() }

// String names the state for logs, without the DSN's secrets.
func (db *DB) String() string {
	c := db.pool.Config().ConnConfig
	return fmt.Sprintf("PostgreSQL %s/%s", c.Host, c.Database)
}

// Ping reports whether the database answers now.
func (db *DB) Ping(ctx context.Context) error { return unavailable(db.pool.Ping(ctx)) }

// unavailableError is an error reaching the database, rather than its
// answer to a statement.
type unavailableError struct{ err error }

func (e *unavailableError) Error() string {
	return "the shared state (PostgreSQL) cannot be reached: " + e.err.Error()
}
func (e *unavailableError) Unwrap() error { return e.err }

// Is makes the error match the sentinels of the packages whose interfaces
// this one implements.
func (e *unavailableError) Is(target error) bool {
	return target == trust.ErrUnavailable || target == oauth.ErrUnavailable
}

// unavailable marks err as the database being out of reach unless it is
// the server's answer to a statement (a *pgconn.PgError). A server that is
// shutting down, starting up or recovering answers too, with an error of
// its own (SQLSTATE 57P01-57P05, or class 08 for the connection): that is
// the database out of reach as well, not an answer about the state (read
// as one, a grant that could not be read was taken for no grant).
func unavailable(err error) error {
	var pg *pgconn.PgError
	var ue *unavailableError
	if err == nil || errors.As(err, &ue) {
		return err
	}
	if errors.As(err, &pg) && !serverGoingAway(pg.Code) {
		return err
	}
	return &unavailableError{err}
}

// serverGoingAway reports whether a SQLSTATE says the server cannot serve
// now (operator intervention: admin, crash or idle shutdown, cannot connect
// now, database dropped), the connection failed, or the server lacks what
// it needs to serve for now (class 53: too many connections, as replicas
// reconnecting at once after a restart meet, out of memory or disk).
func serverGoingAway(code string) bool {
	return strings.HasPrefix(code, "57P") || strings.HasPrefix(code, "08") || strings.HasPrefix(code, "53")
}
