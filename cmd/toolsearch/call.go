package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/toolsearch/toolsearch/server"
)

func runCall(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("call", os.Stderr)
	sf := addSourceFlags(fs, flagMCPConfig, "warn")
	argsJSON := fs.String("args", "{}", "the tool's arguments as a JSON `object`")
	asJSON := fs.Bool("json", false, "print the whole result as JSON (content, structuredContent, isError) instead of its text")
	uf := addUpstreamFlags(fs, false)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		fs.Usage()
		return errUsage
	}
	if !json.Valid([]byte(*argsJSON)) {
		return fmt.Errorf("--args is not valid JSON: %s", *argsJSON)
	}
	a, err := openApp(sf)
	if err != nil {
		return err
	}
	defer a.close()
	a.loadUpstreams(ctx, uf)
	res := a.server.Call(ctx, server.CallArgs{Name: rest[0], Arguments: json.RawMessage(*argsJSON)})
	if err := printResult(out, res, *asJSON); err != nil {
		return err
	}
	if res.IsError {
		return exitError(1)
	}
	return nil
}
