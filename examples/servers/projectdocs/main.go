// Command projectdocs is an example MCP server giving read-only access to
// the Markdown documentation of a folder of projects.
//
// Each direct subfolder of the root (-root, else $PROJECTDOCS_ROOT, else the
// current directory) is a project; its docs are the *.md files under it,
// skipping hidden folders and node_modules. Tools list projects, search docs,
// read a doc in pages, and summarize a project's README. Nothing outside the
// root can be read: absolute paths, ".." and symlinks that lead out are
// refused.
//
// By default it speaks MCP over stdin/stdout. With -http ADDR it serves the
// Streamable HTTP transport at http://ADDR/mcp instead.
package main

import (
	"cmp"
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
	root := flag.String("root", cmp.Or(os.Getenv("PROJECTDOCS_ROOT"), "."), "`DIR` whose subfolders are the projects; defaults to $PROJECTDOCS_ROOT, else the current directory")
	httpAddr := flag.String("http", "", "serve Streamable HTTP at `ADDR` (path /mcp) instead of stdio")
	flag.Parse()

	// Logs must never go to stdout: over stdio that is the protocol channel.
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	slog.SetDefault(logger)

	lib, err := openLibrary(*root)
	if err != nil {
		logger.Error("cannot open projects root", "err", err)
		os.Exit(1)
	}
	logger.Info("serving project docs", "root", lib.root)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	server := newServer(lib, logger)
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
