package pgtest

import (
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// A Proxy stands between a test and its database on loopback TCP, so that
// the test can take the database away (Down: every connection cut, new
// ones closed at once) and bring it back (Up), as a restart or a network
// fault would.
type Link struct {
	ln     net.Listener
	target func() (net.Conn, error)

	mu    sync.Mutex
	down  bool
	conns map[net.Conn]bool
}

// NewLink starts a link to the database dsn names; it returns the DSN
// that reaches the database through it. It stops when t ends.
func NewLink(t testing.TB, dsn string) (*Link, string) {
	t.Helper()
	cfg, err := pgconn.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	network, addr := "tcp", net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port)))
	if filepath.IsAbs(cfg.Host) {
		network, addr = "unix", filepath.Join(cfg.Host, fmt.Sprintf(".s.PGSQL.%d", cfg.Port))
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Link{ln: ln, conns: map[net.Conn]bool{}, target: func() (net.Conn, error) { return net.Dial(network, addr) }}
	go p.serve()
	t.Cleanup(func() { ln.Close(); p.Down() })
	port := ln.Addr().(*net.TCPAddr).Port
	out := fmt.Sprintf("host=127.0.0.1 port=%d user=%s dbname=%s sslmode=disable connect_timeout=2", port, cfg.User, cfg.Database)
	if cfg.Password != "" {
		out += " password=" + cfg.Password
	}
	return p, out
}

func (p *Link) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.down {
			p.mu.Unlock()
			c.Close()
			continue
		}
		p.conns[c] = true
		p.mu.Unlock()
		go p.pipe(c)
	}
}

func (p *Link) pipe(c net.Conn) {
	up, err := p.target()
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	p.conns[up] = true
	p.mu.Unlock()
	go func() { io.Copy(up, c); up.Close() }()
	io.Copy(c, up)
	c.Close()
}

// Down cuts every connection and closes new ones at once.
func (p *Link) Down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

// Up lets connections through again.
func (p *Link) Up() {
	p.mu.Lock()
	p.down = false
	p.mu.Unlock()
}
