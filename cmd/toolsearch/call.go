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
	sf := addSourceFlags(fs)
	argsJSON := fs.String("args", "{}", "the tool's arguments as a JSON `object`")
	asJSON := fs.Bool("json", false, "print the structured result as JSON after the text")
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
	defer a.close(ctx)
	a.loadUpstreams(ctx, uf)
	// A first interrupt leaves the call the grace to finish.
	work, cancel := afterGrace(ctx)
	defer cancel()
	res := a.server.Call(work, server.CallArgs{Name: rest[0], Arguments: json.RawMessage(*argsJSON)})
	printResult(out, res, *asJSON)
	if res.IsError {
		return exitError(1)
	}
	return nil
}
