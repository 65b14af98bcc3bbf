package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/supervise"
	"github.com/toolsearch/toolsearch/loader/upstream"
	"github.com/toolsearch/toolsearch/server/stdiobridge"
	"github.com/toolsearch/toolsearch/server/web"
)

// defaultBridgeAddr is where a bridge listens unless told: beside serve's
// default, so that both run on one machine.
const defaultBridgeAddr = "127.0.0.1:7778"

// bridgeStopGrace is how long the bridged server may take to exit once its
// stdin is closed (and again after SIGTERM) before it is killed, as a
// stdio upstream of serve is given.
const bridgeStopGrace = 2 * time.Second

// runBridge serves one stdio server as Streamable HTTP at /mcp, started
// once and shared by every client (see package stdiobridge), behind serve
// --http's guard.
func runBridge(ctx context.Context, args []string, _ io.Writer) error {
	fs := newFlagSet("bridge", os.Stderr)
	addr := fs.String("http", defaultBridgeAddr, "serve Streamable HTTP at `ADDR`")
	tokenFile := fs.String("token-file", "", "bearer token `FILE` (or TOOLSEARCH_TOKEN); required beyond loopback")
	mcpConfig := fs.String("mcp-config", "", "run the stdio entry NAME of this .mcp.json `FILE` instead of a command after --")
	var hosts, origins stringList
	fs.Var(&hosts, "allowed-host", "a `NAME` requests may carry in their Host header besides loopback ones (repeat for more)")
	fs.Var(&origins, "allowed-origin", "a browser `ORIGIN` that may call (repeat for more)")
	logLevel := fs.String("log-level", "", "debug, info, warn or error (default: TOOLSEARCH_LOG, else info)")
	// What follows -- is the server's command line, flags and all.
	own, command := args, []string(nil)
	if i := slices.Index(args, "--"); i >= 0 {
		own, command = args[:i], args[i+1:]
	}
	rest, err := parseFlags(fs, own)
	if err != nil {
		return err
	}
	cfg, err := bridgedServer(*mcpConfig, rest, command)
	if err != nil {
		fmt.Fprintf(os.Stderr, "toolsearch bridge: %v\n", err)
		fs.Usage()
		return errUsage
	}
	log, err := newLogger(*logLevel, "info")
	if err != nil {
		return err
	}
	token, err := httpToken(*tokenFile)
	if err != nil {
		return err
	}
	if err := web.CheckBind(*addr, token); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	defer ln.Close()

	t, sup, err := bridgeTransport(cfg)
	if err != nil {
		return err
	}
	// Whatever happens, nothing the server started outlives the bridge.
	defer sup.Kill()
	b, err := stdiobridge.Connect(ctx, t, stdiobridge.Options{Logger: log, Version: versionString()})
	if err != nil {
		return fmt.Errorf("%s: %w", cfg.Command, err)
	}
	defer b.Close()
	h := bridgeHandler(b, web.Options{Token: token, AllowedHosts: hosts, AllowedOrigins: origins})
	log.Info("bridge serving", "url", "http://"+ln.Addr().String()+"/mcp", "server", cfg.Command)
	return serveBridge(ctx, ln, h, b, log)
}

// bridgedServer is the server a bridge runs: an entry of an .mcp.json, or
// the command after --.
func bridgedServer(mcpConfig string, rest, command []string) (upstream.ServerConfig, error) {
	switch {
	case mcpConfig != "" && len(command) > 0:
		return upstream.ServerConfig{}, errors.New("give either --mcp-config FILE NAME or -- COMMAND [ARGS...], not both")
	case mcpConfig != "":
		if len(rest) != 1 {
			return upstream.ServerConfig{}, errors.New("--mcp-config FILE takes the NAME of one of its servers")
		}
		return configEntry(mcpConfig, rest[0])
	case len(rest) > 0:
		return upstream.ServerConfig{}, fmt.Errorf("unexpected %q: put the server's command after -- (toolsearch bridge -- %s)", rest[0], strings.Join(rest, " "))
	case len(command) == 0:
		return upstream.ServerConfig{}, errors.New("no server to bridge: give -- COMMAND [ARGS...] or --mcp-config FILE NAME")
	}
	return upstream.ServerConfig{Name: command[0], Type: upstream.TypeStdio, Command: command[0], Args: command[1:]}, nil
}

// configEntry reads the stdio entry name of an .mcp.json, with its
// variables expanded and its paths taken from the file's folder, as serve
// reads it.
func configEntry(file, name string) (upstream.ServerConfig, error) {
	cfgs, probs, err := upstream.LoadConfig(file)
	if err != nil {
		return upstream.ServerConfig{}, err
	}
	var names []string
	for _, c := range cfgs {
		if c.Name != name {
			names = append(names, c.Name)
			continue
		}
		if c.Type != upstream.TypeStdio {
			return upstream.ServerConfig{}, fmt.Errorf("%s: server %q is a %s server, not a program: a bridge serves a stdio server", file, name, c.Type)
		}
		return c, nil
	}
	for _, p := range probs {
		if strings.HasPrefix(p.Field, "mcpServers."+name) {
			return upstream.ServerConfig{}, fmt.Errorf("%s: server %q cannot be used: %s", file, name, p.Message)
		}
	}
	return upstream.ServerConfig{}, fmt.Errorf("%s has no server %q (it has: %s)", file, name, strings.Join(names, ", "))
}

// bridgeTransport starts nothing yet: it prepares the server's command,
// supervised as serve supervises a stdio upstream (everything it starts is
// stopped with it, even if the bridge is killed), and the transport that
// starts it.
func bridgeTransport(cfg upstream.ServerConfig) (mcp.Transport, *supervise.Supervisor, error) {
	cmd := exec.Command(cfg.Command, cfg.Args...)
	cmd.Dir = cfg.Cwd
	cmd.Env = os.Environ()
	for _, k := range slices.Sorted(maps.Keys(cfg.Env)) {
		cmd.Env = append(cmd.Env, k+"="+cfg.Env[k])
	}
	// The server's log lines are the operator's: the bridge's stderr.
	cmd.Stderr = os.Stderr
	cmd.WaitDelay = bridgeStopGrace
	sup, err := supervise.Wrap(cmd, supervise.Options{Grace: bridgeStopGrace / 2})
	if err != nil {
		return nil, nil, err
	}
	return &supervisedTransport{CommandTransport: &mcp.CommandTransport{Command: cmd, TerminateDuration: bridgeStopGrace}, sup: sup}, sup, nil
}

// supervisedTransport tells the supervisor that the go-sdk has started the
// command (on Windows it is then put in its job and let run).
type supervisedTransport struct {
	*mcp.CommandTransport
	sup *supervise.Supervisor
}

func (t *supervisedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.CommandTransport.Connect(ctx)
	if serr := t.sup.Started(); serr != nil && err == nil {
		_ = conn.Close()
		return nil, serr
	}
	return conn, err
}

// bridgeHandler serves /mcp behind the guard, and /healthz and /readyz
// without it: a load balancer's probe has no token, and they tell nothing
// but whether the server is up.
func bridgeHandler(b *stdiobridge.Bridge, o web.Options) http.Handler {
	guarded := http.NewServeMux()
	guarded.Handle("/mcp", b.MCP())
	mux := http.NewServeMux()
	mux.Handle("/", web.Guard(guarded, o))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if !b.Ready() {
			w.WriteHeader(http.StatusServiceUnavailable)
			json.NewEncoder(w).Encode(map[string]any{"ready": false, "error": "the bridged server has exited"})
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"ready": true})
	})
	return mux
}

// serveBridge serves h until ctx ends or the server exits, then shuts
// down within shutdownGrace.
func serveBridge(ctx context.Context, ln net.Listener, h http.Handler, b *stdiobridge.Bridge, log *slog.Logger) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	exited := make(chan error, 1)
	go func() { exited <- b.Wait() }()
	var err error
	select {
	case err = <-errc:
	case <-ctx.Done():
	case werr := <-exited:
		err = fmt.Errorf("the bridged server exited (%v): the bridge stops with it, so that whatever runs it starts both again", werr)
		log.Error("bridged server exited", "error", werr)
	}
	// Sessions end first, which ends their event streams, so that
	// Shutdown waits only for requests in flight.
	_ = b.Close()
	shut, cancel := context.WithTimeout(context.Background(), shutdownGrace())
	defer cancel()
	if serr := srv.Shutdown(shut); serr != nil {
		_ = srv.Close()
	}
	return err
}
