// Package pgstate keeps toolsearch's shared state in PostgreSQL, so that
// several replicas behind a load balancer (and the CLIs beside them) read
// and write one state: approvals and first-listing marks
// ([DB.Approvals], a trust.Backend), the last known catalogs
// ([DB.Catalogs], an upstream.Catalogs), OAuth grants encrypted at rest
// ([DB.Grants], an oauth.Grants), logins begun and not completed, and the
// registry of live replicas.
//
//	db, err := pgstate.Open(ctx, dsn, key, logger) // migrates, under an advisory lock
//	approvals := trust.OpenBackend(db.Approvals(), logger)
//	go approvals.Watch(ctx) // LISTEN/NOTIFY, and a poll of the sequence number
//
// # Decided once
//
// Every change of the approvals is applied in one transaction under an
// advisory lock, to the rows as stored, and bumps a sequence number in the
// same transaction; its NOTIFY wakes the other replicas, which read again
// when the number they hold is old, and poll it every second should a
// notification be lost. A first listing is a source's row inserted once
// (INSERT … ON CONFLICT DO NOTHING): a replica that raced and lost reads
// the winner's. A token is refreshed under the grant's row lock (SELECT …
// FOR UPDATE): a second refresher waits, then finds the first's tokens.
//
// # The database down
//
// Errors that are not the server's answer to a statement (a refused
// connection, a timeout) are reported as unavailable (they match
// trust.ErrUnavailable and oauth.ErrUnavailable): a replica keeps serving
// what it holds, and refuses what would change the shared state.
package pgstate
