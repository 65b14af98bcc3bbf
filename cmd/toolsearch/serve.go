package main

import (
	"context"
	"io"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func runServe(ctx context.Context, args []string, _ io.Writer) error {
	fs := newFlagSet("serve", os.Stderr)
	sf := addSourceFlags(fs)
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	a, err := openApp(sf)
	if err != nil {
		return err
	}
	defer a.close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	a.watchSkills(ctx)

	snap := a.server.Snapshot()
	a.log.Info("serving over stdio", "entries", len(snap.Entries), "sources", len(snap.Sources), "tokenizer", a.server.Tokens().Name())
	ms := a.server.NewMCPServer()
	defer a.server.Release(ms)
	err = ms.Run(ctx, &mcp.StdioTransport{})
	if ctx.Err() != nil {
		return nil // interrupted: a normal way to stop
	}
	return err
}
