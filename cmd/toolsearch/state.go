package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/toolsearch/toolsearch/internal/atomicfile"
	"github.com/toolsearch/toolsearch/internal/state/pgstate"
	"github.com/toolsearch/toolsearch/loader/trust"
	"github.com/toolsearch/toolsearch/loader/upstream"
)

// StateConfig is toolsearch.yaml's state: where the durable state lives
// (approvals, first-listing marks, last known catalogs, OAuth grants,
// pending logins, the live replicas). See docs/teams.md.
type StateConfig struct {
	// Backend is "file" (the default: files under the user's folders) or
	// "postgres" (one database every replica and CLI shares).
	Backend string `yaml:"backend"`
	// DSN is the database's connection string; ${VAR} expands, so that
	// the password stays out of the file.
	DSN string `yaml:"dsn"`
	// KeyFile holds the key that seals the OAuth grants in the database:
	// 64 hex digits, as `toolsearch state keygen FILE` writes.
	KeyFile string `yaml:"keyFile"`
	// ID names this replica to the others; default the host name
	// (HOSTNAME).
	ID string `yaml:"id"`
	// Address is where the other replicas reach this one; default the
	// address it serves on.
	Address string `yaml:"address"`
}

// State backends.
const (
	stateFile     = "file"
	statePostgres = "postgres"
)

// check expands the DSN and returns the problems of the section, each
// naming its key.
func (s *StateConfig) check() []string {
	var probs []string
	switch s.Backend {
	case "", stateFile:
		for key, v := range map[string]string{"dsn": s.DSN, "keyFile": s.KeyFile} {
			if v != "" {
				probs = append(probs, fmt.Sprintf("state.%s is set, but state.backend is file (the default): set backend: postgres to use it", key))
			}
		}
	case statePostgres:
		dsn, missing := upstream.ExpandVars(s.DSN)
		switch {
		case len(missing) > 0:
			probs = append(probs, fmt.Sprintf("state.dsn: ${%s} is not set: export it with the database's connection string", missing[0]))
		case dsn == "":
			probs = append(probs, `state.dsn is required with backend: postgres (say dsn: "${TOOLSEARCH_PG}" and export it)`)
		}
		s.DSN = dsn
	default:
		probs = append(probs, fmt.Sprintf("state.backend: %q is not a backend: want file or postgres", s.Backend))
	}
	return probs
}

// stateConnectWait bounds how long a one-shot command waits for the
// database before it gives up, changing nothing.
const stateConnectWait = 15 * time.Second

// openState opens the state toolsearch.yaml names: the approvals store and,
// with postgres, the database the upstreams keep their catalogs and grants
// in. serve waits for the database (it is not ready until the state is
// loaded); a one-shot command gives up after stateConnectWait.
func (a *app) openState() error {
	st := a.cfg.State
	if st.Backend != statePostgres {
		a.approvals = openApprovals(a.log)
		return nil
	}
	var key *pgstate.Key
	if st.KeyFile != "" {
		k, err := pgstate.ReadKeyFile(st.KeyFile)
		if err != nil {
			return fmt.Errorf("%s: %w", a.cfg.path, err)
		}
		key = k
	}
	a.stateKey = key
	db, err := a.connectState(st.DSN, key)
	if err != nil {
		a.early.close()
		a.early = nil
		return err
	}
	a.state = db
	a.closers = append(a.closers, closerFunc(db.Close))
	a.approvals = trust.OpenBackend(db.Approvals(), a.log)
	return nil
}

func (a *app) connectState(dsn string, key *pgstate.Key) (*pgstate.DB, error) {
	ctx := context.Background()
	if a.stopping != nil {
		ctx = a.stopping // a replica waiting for its database stops when asked
	}
	if !a.follow {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, stateConnectWait)
		defer cancel()
	}
	for {
		db, err := pgstate.Open(ctx, dsn, key, a.log)
		if err == nil {
			return db, nil
		}
		if !errors.Is(err, trust.ErrUnavailable) || ctx.Err() != nil {
			return nil, fmt.Errorf("the shared state (toolsearch.yaml's state, PostgreSQL) cannot be used, so nothing was read or changed: %w; check state.dsn and that the database is up", err)
		}
		a.log.Warn("waiting for the shared state (PostgreSQL) before serving", "err", err)
		a.listenWhileWaiting()
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// listenWhileWaiting has serve --http, waiting for its database, answer
// /readyz (not ready) and /healthz on its address meanwhile, so that a
// load balancer or Kubernetes sees a replica that is starting rather than
// none. Only then: a replica whose database answers at once starts as
// before, its address refusing connections until it serves, which a load
// balancer retries elsewhere (an early answer, 503, it would pass on).
func (a *app) listenWhileWaiting() {
	if !a.follow || a.cfg.HTTP.Addr == "" || a.early != nil {
		return
	}
	if a.early = listenEarly(a.cfg.HTTP.Addr, a.log); a.early != nil {
		a.closers = append(a.closers, closerFunc(func() { a.early.close() })) // unless serve took it
	}
}

// stateLoaded is closed once this replica has read what it serves from
// the shared state: the approvals and the upstreams' OAuth grants (each
// read again until the database answers). Until then /readyz answers 503:
// a replica whose database went down as it started would otherwise take
// calls and refuse them. nil with the files, which are read at once.
func (a *app) stateLoaded(ctx context.Context) <-chan struct{} {
	if a.state == nil {
		return nil
	}
	loaded := make(chan struct{})
	go func() {
		for _, c := range []<-chan struct{}{a.approvals.Loaded(), a.grantsRead()} {
			select {
			case <-c:
			case <-ctx.Done():
				return
			}
		}
		a.log.Info("the shared state is read: ready")
		close(loaded)
	}()
	return loaded
}

// grantsRead is closed once the upstreams' OAuth grants were read.
func (a *app) grantsRead() <-chan struct{} {
	if a.upstreams == nil {
		c := make(chan struct{})
		close(c)
		return c
	}
	return a.upstreams.GrantsRead()
}

// stateOptions sets where the upstreams keep their last known catalogs
// and OAuth grants: the database, with postgres.
func (a *app) stateOptions(o *upstream.Options) {
	if a.state == nil {
		return
	}
	o.Catalogs = a.state.Catalogs()
	o.TokenStore = a.state.Grants()
	o.Logins = a.state.Logins()
}

// replicaID is this replica's id: state.id, else the host name.
func (a *app) replicaID() string {
	id := a.cfg.State.ID
	if id == "" {
		id = os.Getenv("HOSTNAME")
	}
	if id == "" {
		id, _ = os.Hostname()
	}
	return id
}

// startReplica records this replica in the database's registry, under
// its id and the address it tells the others (state.address, else the one
// it serves on), with its configuration digest and upstream states as
// they are at each beat, and keeps reps up to date with the others. stop
// ends the heartbeat and waits until the replica has left the registry.
func (a *app) startReplica(served string, reps *replicaSet) (stop func()) {
	if a.state == nil {
		return func() {}
	}
	now := a.joinRegistry(served, reps)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.state.Heartbeat(ctx, now, reps.update)
	}()
	return func() {
		cancel()
		<-done
	}
}

// joinRegistry records this replica in the registry before it serves, so
// that a session it opens at once is found by a replica its client's next
// request reaches, and reads the others into reps, so that it forwards a
// session another opened though the database goes down before the first
// heartbeat reads the registry. It returns what each beat records.
func (a *app) joinRegistry(served string, reps *replicaSet) func() pgstate.Replica {
	addr := a.cfg.State.Address
	if addr == "" {
		addr = "http://" + served
	}
	started := time.Now()
	now := func() pgstate.Replica {
		return pgstate.Replica{ID: reps.self, Address: addr, ConfigDigest: a.configDigest(), Upstreams: a.upstreamStates(), Started: started}
	}
	ctx, cancel := context.WithTimeout(context.Background(), replicaLookupWait)
	defer cancel()
	if err := a.state.Beat(ctx, now()); err != nil {
		a.log.Warn("could not record this replica as live", "id", reps.self, "err", err)
		return now
	}
	reps.update(a.state.Replicas(ctx, pgstate.LiveWithin))
	return now
}

// configDigest is the sha256 of the configuration file, so that replicas
// whose configurations disagree show; "" without one.
func (a *app) configDigest() string {
	if a.cfg.path == "" {
		return ""
	}
	data, err := atomicfile.ReadFile(a.cfg.path, atomicfile.MaxConfig)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// runState runs `toolsearch state keygen FILE`.
func runState(_ context.Context, args []string, out io.Writer) error {
	if len(args) != 2 || args[0] != "keygen" {
		fmt.Fprintf(os.Stderr, "Usage: toolsearch state keygen FILE\n\nWrites a new key for state.keyFile: 32 random bytes as 64 hex digits, readable by you alone. An existing file is never replaced.\n")
		return errUsage
	}
	if err := pgstate.WriteKeyFile(args[1]); err != nil {
		return err
	}
	fmt.Fprintf(out, "wrote a new key to %s: name it as state.keyFile in toolsearch.yaml, the same file for every replica\n", args[1])
	return nil
}
