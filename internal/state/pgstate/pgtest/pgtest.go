// Package pgtest gives tests a PostgreSQL database of their own: the one
// TOOLSEARCH_TEST_PG names, or a server the test binary starts as its
// child (initdb into a temporary folder, a unix socket in it, no TCP),
// run as the postgres user when the tests run as root, and stopped by its
// PID when the tests end. Without either, the tests that need one skip,
// saying why.
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//	func TestX(t *testing.T) { dsn := pgtest.DSN(t) … }
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvDSN names a database the tests may use (creating and dropping
// databases of their own in it) instead of starting a server.
const EnvDSN = "TOOLSEARCH_TEST_PG"

var (
	once    sync.Once
	srv     *server
	srvErr  error
	admin   string // DSN of the database to create others from
	counter atomic.Int64
)

// Main runs the tests, then stops the server they started, if any.
func Main(m *testing.M) {
	code := m.Run()
	Stop()
	os.Exit(code)
}

// DSN returns the connection string of a new, empty database, dropped when
// t ends; it skips t when no PostgreSQL is at hand.
func DSN(t testing.TB) string {
	t.Helper()
	once.Do(func() {
		if dsn := os.Getenv(EnvDSN); dsn != "" {
			admin = dsn
			return
		}
		srv, srvErr = start()
		if srv != nil {
			admin = srv.dsn("postgres")
		}
	})
	if srvErr != nil {
		t.Skipf("no PostgreSQL for this test: set %s to a database's DSN, or install PostgreSQL (Debian: apt-get install postgresql) so that the test starts its own: %v", EnvDSN, srvErr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatalf("connecting to the test PostgreSQL: %v", err)
	}
	defer conn.Close(ctx)
	name := fmt.Sprintf("toolsearch_test_%d_%d", os.Getpid(), counter.Add(1))
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("creating a test database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if conn, err := pgx.Connect(ctx, admin); err == nil {
			conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			conn.Close(ctx)
		}
	})
	return withDatabase(admin, name)
}

// withDatabase returns dsn naming another database.
func withDatabase(dsn, name string) string {
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		u.Path = "/" + name
		return u.String()
	}
	return dsn + " dbname=" + name // a later key wins
}

// server is a postgres the tests started.
type server struct {
	dir  string // data in dir/data, the socket in dir
	cmd  *exec.Cmd
	done chan struct{}
}

func (s *server) dsn(db string) string {
	return fmt.Sprintf("host=%s port=5432 user=postgres dbname=%s sslmode=disable", s.dir, db)
}

// binDir finds initdb and postgres: on PATH, else Debian's folders.
func binDir() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if _, err := exec.LookPath("postgres"); err == nil {
			return filepath.Dir(p), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "postgres")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("initdb and postgres are neither on PATH nor in /usr/lib/postgresql/*/bin")
}

func version(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

func start() (*server, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	owner, err := runAs()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "toolsearch-pg-")
	if err != nil {
		return nil, err
	}
	if err := owner.own(dir); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	run := func(name string, args ...string) *exec.Cmd {
		cmd := exec.Command(filepath.Join(bin, name), args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "LC_ALL=C")
		owner.apply(cmd)
		return cmd
	}
	data := filepath.Join(dir, "data")
	if out, err := run("initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync").CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v: %s", err, lastLines(string(out)))
	}
	cmd := run("postgres", "-D", data, "-k", dir, "-c", "listen_addresses=", "-c", "fsync=off", "-c", "max_connections=200")
	log, _ := os.Create(filepath.Join(dir, "postgres.log"))
	if log != nil {
		cmd.Stdout, cmd.Stderr = log, log
	}
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("starting postgres: %w", err)
	}
	s := &server{dir: dir, cmd: cmd, done: make(chan struct{})}
	go func() { cmd.Wait(); close(s.done) }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		conn, err := pgx.Connect(ctx, s.dsn("postgres"))
		if err == nil {
			conn.Close(ctx)
			cancel()
			return s, nil
		}
		cancel()
		select {
		case <-s.done:
			out, _ := os.ReadFile(filepath.Join(dir, "postgres.log"))
			os.RemoveAll(dir)
			return nil, fmt.Errorf("postgres exited: %s", lastLines(string(out)))
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("postgres did not accept connections: %v", err)
		}
	}
}

// stop shuts the server down fast (SIGINT), by its PID, then removes its
// folder.
func (s *server) stop() {
	interrupt(s.cmd.Process)
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
	}
	os.RemoveAll(s.dir)
}

func lastLines(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	return strings.Join(lines, "\n")
}

// Stop stops the server the tests started, if any: for a TestMain of its
// own, after m.Run.
func Stop() {
	if srv != nil {
		srv.stop()
	}
}
