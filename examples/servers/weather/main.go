// Command weather is a tiny example MCP server with a single tool,
// get_weather, that returns deterministic sample weather for any city.
//
// It is meant as an upstream server for toolsearch demos and tests: the
// answers never change for a given city, so it needs no network access or API
// key and its output is reproducible.
//
// By default it speaks MCP over stdin/stdout. With -http ADDR it serves the
// Streamable HTTP transport at http://ADDR/mcp instead.
package main

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	httpAddr := flag.String("http", "", "serve Streamable HTTP at `ADDR` (path /mcp) instead of stdio")
	flag.Parse()

	// Logs must never go to stdout: over stdio that is the protocol channel.
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	slog.SetDefault(logger)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	server := newServer(logger)
	var err error
	if *httpAddr != "" {
		err = serveHTTP(ctx, server, *httpAddr)
	} else {
		err = server.Run(ctx, &mcp.StdioTransport{})
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		logger.Error("server stopped", "err", err)
		os.Exit(1)
	}
}

// serveHTTP serves server over Streamable HTTP at addr until ctx is done.
func serveHTTP(ctx context.Context, server *mcp.Server, addr string) error {
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}

	go func() {
		<-ctx.Done()
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdownCtx)
	}()

	slog.Info("serving MCP over Streamable HTTP", "url", "http://"+addr+"/mcp")
	if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
