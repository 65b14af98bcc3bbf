package pgstate

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// Grants returns the OAuth grants kept in the database, sealed with the
// key, as an oauth.Grants.
func (db *DB) Grants() oauth.Grants { return &grants{db: db} }

type grants struct{ db *DB }

// pgStamp is a grant row's version; 0 is no row.
type pgStamp int64

func (a pgStamp) Same(b oauth.Stamp) bool {
	o, ok := b.(pgStamp)
	return ok && a == o
}

// errOtherVersion is a grant that opens but is stored in a form this
// version does not read.
var errOtherVersion = errors.New("the login was stored by another version of toolsearch: log in again")

// errNoKey refuses a grant operation when no key file is configured.
var errNoKey = errors.New("OAuth logins kept in PostgreSQL are encrypted with state.keyFile, which is not set: write one with `toolsearch state keygen FILE` and name it in toolsearch.yaml")

// grantContext binds a sealed grant to its key.
func grantContext(k oauth.GrantKey) string {
	return "toolsearch grant\x00" + k.Principal + "\x00" + k.Server + "\x00" + k.Resource
}

func (s *grants) open(k oauth.GrantKey, sealed []byte) (*oauth.Grant, error) {
	if s.db.key == nil {
		return nil, errNoKey
	}
	plain, err := s.db.key.open(sealed, grantContext(k))
	if err != nil {
		return nil, fmt.Errorf("the login to %s: %w", k.Server, err)
	}
	return oauth.DecodeGrant(plain, k)
}

func (s *grants) seal(k oauth.GrantKey, g *oauth.Grant) ([]byte, error) {
	if s.db.key == nil {
		return nil, errNoKey
	}
	plain, err := oauth.EncodeGrant(g)
	if err != nil {
		return nil, err
	}
	return s.db.key.seal(plain, grantContext(k))
}

// querier is a pool or a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// row reads a grant's sealed value and version; none is (nil, 0).
func row(ctx context.Context, q querier, k oauth.GrantKey, lock bool) ([]byte, int64, error) {
	sql := "SELECT sealed, version FROM toolsearch_grants WHERE principal = $1 AND server = $2 AND resource = $3"
	if lock {
		sql += " FOR UPDATE"
	}
	var sealed []byte
	var version int64
	err := q.QueryRow(ctx, sql, k.Principal, k.Server, k.Resource).Scan(&sealed, &version)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, 0, nil
	}
	return sealed, version, err
}

func (s *grants) LoadGrant(ctx context.Context, k oauth.GrantKey) (*oauth.Grant, oauth.Stamp, error) {
	sealed, version, err := row(ctx, s.db.pool, k, false)
	if err != nil {
		return nil, nil, unavailable(err)
	}
	if sealed == nil {
		return nil, pgStamp(0), nil
	}
	g, err := s.open(k, sealed)
	return g, pgStamp(version), err
}

func (s *grants) GrantStamp(ctx context.Context, k oauth.GrantKey) (oauth.Stamp, error) {
	var version int64
	err := s.db.pool.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM toolsearch_grants WHERE principal = $1 AND server = $2 AND resource = $3",
		k.Principal, k.Server, k.Resource).Scan(&version)
	if err != nil {
		return nil, unavailable(err)
	}
	return pgStamp(version), nil
}

// store writes g under k with a new version.
func (s *grants) store(ctx context.Context, q querier, k oauth.GrantKey, g *oauth.Grant) (oauth.Stamp, error) {
	sealed, err := s.seal(k, g)
	if err != nil {
		return nil, err
	}
	var version int64
	err = q.QueryRow(ctx, `INSERT INTO toolsearch_grants (principal, server, resource, sealed, version)
		VALUES ($1, $2, $3, $4, nextval('toolsearch_grant_version'))
		ON CONFLICT (principal, server, resource) DO UPDATE SET sealed = excluded.sealed, version = excluded.version
		RETURNING version`, k.Principal, k.Server, k.Resource, sealed).Scan(&version)
	if err != nil {
		return nil, unavailable(err)
	}
	return pgStamp(version), nil
}

func (s *grants) SaveGrant(ctx context.Context, k oauth.GrantKey, g *oauth.Grant) (oauth.Stamp, error) {
	return s.store(ctx, s.db.pool, k, g)
}

func (s *grants) DeleteGrant(ctx context.Context, k oauth.GrantKey) error {
	_, err := s.db.pool.Exec(ctx, "DELETE FROM toolsearch_grants WHERE principal = $1 AND server = $2 AND resource = $3", k.Principal, k.Server, k.Resource)
	return unavailable(err)
}

// UpdateGrant runs fn under the grant's row lock (SELECT … FOR UPDATE): a
// replica refreshing a token holds it, and another one waits, then finds
// the refreshed grant.
func (s *grants) UpdateGrant(ctx context.Context, k oauth.GrantKey, fn func(*oauth.Grant) (*oauth.Grant, error)) (*oauth.Grant, oauth.Stamp, error) {
	var (
		out   *oauth.Grant
		stamp oauth.Stamp
		ferr  error
	)
	err := pgx.BeginFunc(ctx, s.db.pool, func(tx pgx.Tx) error {
		sealed, version, err := row(ctx, tx, k, true)
		if err != nil {
			return err
		}
		var stored *oauth.Grant
		if sealed != nil {
			if stored, err = s.open(k, sealed); err != nil {
				return err
			}
		}
		out, stamp = stored, pgStamp(version)
		next, err := fn(stored)
		ferr = err
		if next == nil {
			return nil
		}
		if stamp, err = s.store(ctx, tx, k, next); err != nil {
			return err
		}
		out = next
		return nil
	})
	if err != nil {
		return nil, nil, unavailable(err)
	}
	return out, stamp, ferr
}

// PrincipalGrants implements oauth.GrantLister: every principal's own
// grant of a server at one URL, in one statement, for a replica to hold
// from its start and for `auth status`. A row that does not open (another
// key, another version) is listed with its Err: LoadGrant says why again
// when its principal calls.
func (s *grants) PrincipalGrants(ctx context.Context, server, resource string) ([]oauth.StoredGrant, error) {
	if s.db.key == nil {
		return nil, nil // no login can be kept, so none is read
	}
	rows, err := s.db.pool.Query(ctx, "SELECT principal, sealed, version FROM toolsearch_grants WHERE server = $1 AND resource = $2 AND principal <> ''", server, resource)
	if err != nil {
		return nil, unavailable(err)
	}
	defer rows.Close()
	var out []oauth.StoredGrant
	for rows.Next() {
		var (
			k       = oauth.GrantKey{Server: server, Resource: resource}
			sealed  []byte
			version int64
		)
		if err := rows.Scan(&k.Principal, &sealed, &version); err != nil {
			return nil, unavailable(err)
		}
		g, err := s.open(k, sealed)
		if err == nil && g == nil {
			err = errOtherVersion
		}
		out = append(out, oauth.StoredGrant{Key: k, Grant: g, Stamp: pgStamp(version), Err: err})
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable(err)
	}
	return out, nil
}
