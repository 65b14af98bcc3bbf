package pgstate

import (
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/toolsearch/toolsearch/loader/trust"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// TestUnavailable: what the server answers while it shuts down, starts up
// or drops the connection is the database out of reach (a replica then
// keeps what it holds), not an answer about the state; an answer to a
// statement stays one.
func TestUnavailable(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"refused", errors.New("dial tcp 127.0.0.1:5432: connect: connection refused"), true},
		{"shutting down, on connect", fmt.Errorf("failed to connect: %w", &pgconn.PgError{Severity: "FATAL", Code: "57P03", Message: "the database system is shutting down"}), true},
		{"starting up", &pgconn.PgError{Severity: "FATAL", Code: "57P03", Message: "the database system is starting up"}, true},
		{"admin shutdown", &pgconn.PgError{Severity: "FATAL", Code: "57P01", Message: "terminating connection due to administrator command"}, true},
		{"connection failure", &pgconn.PgError{Code: "08006"}, true},
		{"too many connections, replicas reconnecting after a restart", fmt.Errorf("failed to connect: %w", &pgconn.PgError{Severity: "FATAL", Code: "53300", Message: "sorry, too many clients already"}), true},
		{"out of memory", &pgconn.PgError{Code: "53200"}, true},
		{"unique violation", &pgconn.PgError{Code: "23505"}, false},
		{"undefined table", &pgconn.PgError{Code: "42P01"}, false},
	} {
		err := unavailable(tc.err)
		if got := errors.Is(err, oauth.ErrUnavailable) && errors.Is(err, trust.ErrUnavailable); got != tc.want {
			t.Errorf("%s: unavailable(%v) is the database out of reach: %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
	if unavailable(nil) != nil {
		t.Error("unavailable(nil) is not nil")
	}
}
