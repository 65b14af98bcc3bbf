package pgstate

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

//go:embed migrations/*.sql
var migrations embed.FS

// migrationLock is the advisory lock every replica takes to migrate, so
// that two starting at once apply each migration once.
const migrationLock = 0x746f6f6c736d6967 // "toolsmig"

// migration is one embedded file, applied once, in the order of its number.
type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations returns the embedded migrations, by number.
func loadMigrations() ([]migration, error) {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, name := range names {
		base := strings.TrimPrefix(name, "migrations/")
		num, _, _ := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if err != nil {
			return nil, fmt.Errorf("migration %s: its name must start with its number", base)
		}
		sql, err := migrations.ReadFile(name)
		if err != nil {
			return nil, err
		}
		out = append(out, migration{v, base, string(sql)})
	}
	slices.SortFunc(out, func(a, b migration) int { return a.version - b.version })
	return out, nil
}

// migrate applies the migrations the database lacks, all in one
// transaction under pg_advisory_xact_lock: replicas starting together
// wait for the first, then find nothing to do. A database migrated by a
// newer toolsearch is refused, rather than written in a shape it does not
// know.
func (db *DB) migrate(ctx context.Context) error {
	all, err := loadMigrations()
	if err != nil {
		return err
	}
	// Not pgx.BeginFunc: its error for a database out of reach would not
	// say so, and serve, which waits for the database, would give up.
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return unavailable(err)
	}
	defer tx.Rollback(ctx)
	if err := db.migrateIn(ctx, tx, all); err != nil {
		return err
	}
	return unavailable(tx.Commit(ctx))
}

// migrateIn applies, in tx, the migrations of all the database lacks.
func (db *DB) migrateIn(ctx context.Context, tx pgx.Tx, all []migration) error {
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(migrationLock)); err != nil {
		return unavailable(err)
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS toolsearch_migrations (
		version int PRIMARY KEY, name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())`); err != nil {
		return unavailable(err)
	}
	var have int
	if err := tx.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM toolsearch_migrations").Scan(&have); err != nil {
		return unavailable(err)
	}
	if last := all[len(all)-1].version; have > last {
		return fmt.Errorf("the database's schema is version %d, newer than this toolsearch knows (%d): upgrade toolsearch", have, last)
	}
	for _, m := range all {
		if m.version <= have {
			continue
		}
		if _, err := tx.Exec(ctx, m.sql); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, unavailable(err))
		}
		if _, err := tx.Exec(ctx, "INSERT INTO toolsearch_migrations (version, name) VALUES ($1, $2)", m.version, m.name); err != nil {
			return unavailable(err)
		}
	}
	return nil
}
