// Command tasks is an example MCP server behind OAuth: a per-user to-do
// list (add_task, list_tasks, complete_task) that answers only requests
// carrying a bearer token from its authorization server, checked with the
// go-sdk's auth.RequireBearerToken. It serves Streamable HTTP at
// http://ADDR/mcp and its protected resource metadata (RFC 9728) at
// /.well-known/oauth-protected-resource/mcp.
//
// Unless -issuer names another authorization server, it also runs the test
// authorization server of examples/servers/authserver at -authserver, so
// that a whole login runs offline:
//
//	go run ./examples/servers/tasks            # MCP at 127.0.0.1:8093, OAuth at 127.0.0.1:8094
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/toolsearch/toolsearch/examples/servers/authserver"
)

// scope is the one scope the server asks for.
const scope = "tasks"

func main() {
	addr := flag.String("http", "127.0.0.1:8093", "serve MCP at http://`ADDR`/mcp")
	issuer := flag.String("issuer", "", "`URL` of the authorization server whose tokens are accepted (it must offer introspection at /introspect); default: run the test one at -authserver")
	authAddr := flag.String("authserver", "127.0.0.1:8094", "where the test authorization server listens when -issuer is not set")
	ttl := flag.Duration("token-ttl", time.Hour, "life of the test authorization server's access tokens")
	flag.Parse()

	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, logger, *addr, *issuer, *authAddr, *ttl); err != nil {
		logger.Error("stopped", "err", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, logger *slog.Logger, addr, issuer, authAddr string, ttl time.Duration) error {
	var servers []*http.Server
	if issuer == "" {
		ln, err := net.Listen("tcp", authAddr)
		if err != nil {
			return fmt.Errorf("authorization server: %w", err)
		}
		issuer = "http://" + ln.Addr().String()
		as := authserver.New(authserver.Options{Issuer: issuer, Scopes: []string{scope}, AccessTTL: ttl})
		srv := &http.Server{Handler: as, ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = srv.Serve(ln) }()
		servers = append(servers, srv)
		logger.Info("test authorization server", "issuer", issuer)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String()
	verifier := authserver.IntrospectionVerifier(issuer+"/introspect", base+"/mcp", nil)
	srv := &http.Server{Handler: handler(newServer(logger), base, issuer, verifier), ReadHeaderTimeout: 10 * time.Second}
	servers = append(servers, srv)
	logger.Info("serving MCP behind OAuth", "url", base+"/mcp")
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		for _, s := range servers {
			_ = s.Shutdown(shutdown)
		}
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// handler serves the MCP endpoint behind the bearer-token check, and the
// metadata that tells a client where to get a token.
func handler(server *mcp.Server, base, issuer string, verify auth.TokenVerifier) http.Handler {
	const prm = "/.well-known/oauth-protected-resource/mcp"
	mux := http.NewServeMux()
	mux.Handle(prm, auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource:             base + "/mcp",
		AuthorizationServers: []string{issuer},
		ScopesSupported:      []string{scope},
		ResourceName:         "Example tasks",
	}))
	requireToken := auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL: base + prm,
		Scopes:              []string{scope},
	})
	mux.Handle("/mcp", requireToken(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)))
	return mux
}
