package pgstate

import (
	"bytes"
	"context"
	"errors"
	"io"

	"github.com/jackc/pgx/v5"
)

// Catalogs returns the last known catalogs kept in the database; it
// implements upstream.Catalogs.
func (db *DB) Catalogs() *Catalogs { return &Catalogs{db: db} }

// Catalogs keep the servers' last known catalogs, a row each.
type Catalogs struct{ db *DB }

// OpenCatalog returns the catalog stored under name; nil, nil when none is.
func (c *Catalogs) OpenCatalog(ctx context.Context, name string) (io.ReadCloser, error) {
	var body []byte
	err := c.db.pool.QueryRow(ctx, "SELECT body FROM toolsearch_catalogs WHERE name = $1", name).Scan(&body)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, unavailable(err)
	}
	return io.NopCloser(bytes.NewReader(body)), nil
}

// SaveCatalog replaces the catalog under name with what write writes, in
// one statement: a reader sees the old catalog or the new one.
func (c *Catalogs) SaveCatalog(ctx context.Context, name string, write func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return err
	}
	_, err := c.db.pool.Exec(ctx, `INSERT INTO toolsearch_catalogs (name, body, saved) VALUES ($1, $2, now())
		ON CONFLICT (name) DO UPDATE SET body = excluded.body, saved = excluded.saved`, name, buf.Bytes())
	return unavailable(err)
}
