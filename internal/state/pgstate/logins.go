package pgstate

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// A PendingLogin is a login begun (its OAuth state, which the callback
// brings back) and not yet completed; Secret is what completing it needs
// (the PKCE verifier, the client's registration), sealed at rest.
type PendingLogin struct {
	State     string
	Principal string
	Server    string
	Secret    []byte
	Expires   time.Time
}

func loginContext(state string) string { return "toolsearch login\x00" + state }

// PutLogin records a pending login, so that its callback may reach any
// replica.
func (db *DB) PutLogin(ctx context.Context, l PendingLogin) error {
	if db.key == nil {
		return errNoKey
	}
	sealed, err := db.key.seal(l.Secret, loginContext(l.State))
	if err != nil {
		return err
	}
	_, err = db.pool.Exec(ctx, `INSERT INTO toolsearch_logins (state, principal, server, sealed, expires) VALUES ($1, $2, $3, $4, $5)`,
		l.State, l.Principal, l.Server, sealed, l.Expires)
	return unavailable(err)
}

// TakeLogin returns the pending login of state and forgets it, once: a
// second callback with the same state finds none. An expired login is
// none. Expired logins are removed on the way.
func (db *DB) TakeLogin(ctx context.Context, state string) (*PendingLogin, error) {
	if db.key == nil {
		return nil, errNoKey
	}
	if _, err := db.pool.Exec(ctx, "DELETE FROM toolsearch_logins WHERE expires < now()"); err != nil {
		return nil, unavailable(err)
	}
	l := PendingLogin{State: state}
	var sealed []byte
	err := db.pool.QueryRow(ctx, `DELETE FROM toolsearch_logins WHERE state = $1 AND expires >= now()
		RETURNING principal, server, sealed, expires`, state).Scan(&l.Principal, &l.Server, &sealed, &l.Expires)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, unavailable(err)
	}
	if l.Secret, err = db.key.open(sealed, loginContext(state)); err != nil {
		return nil, err
	}
	return &l, nil
}

// Logins returns the pending logins kept in the database, sealed with the
// key, as an oauth.Logins: a person's login begun on one replica is
// completed by the callback on any.
func (db *DB) Logins() oauth.Logins { return pendingLogins{db} }

type pendingLogins struct{ db *DB }

func (p pendingLogins) PutLogin(ctx context.Context, l *oauth.PendingLogin) error {
	secret, err := oauth.EncodeLogin(l)
	if err != nil {
		return err
	}
	return p.db.PutLogin(ctx, PendingLogin{State: l.State, Principal: l.Principal, Server: l.Server, Secret: secret, Expires: l.Expires})
}

func (p pendingLogins) TakeLogin(ctx context.Context, state string) (*oauth.PendingLogin, error) {
	row, err := p.db.TakeLogin(ctx, state)
	if err != nil || row == nil {
		return nil, err
	}
	l, err := oauth.DecodeLogin(row.Secret)
	if err != nil {
		return nil, fmt.Errorf("the pending login of %s: %w", row.Server, err)
	}
	// The sealed part answers for the columns: a row whose columns were
	// changed under it is no login.
	if l.State != state || l.Principal != row.Principal || l.Server != row.Server {
		return nil, nil
	}
	return l, nil
}
