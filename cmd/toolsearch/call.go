package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/upstream"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
	"github.com/toolsearch/toolsearch/server"
)

func runCall(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("call", os.Stderr)
	sf := addSourceFlags(fs, flagMCPConfig, "warn")
	argsJSON := fs.String("args", "{}", "the tool's arguments as a JSON `object`")
	asJSON := fs.Bool("json", false, "print the whole result as JSON (content, structuredContent, isError) instead of its text")
	elicit := fs.String("elicit", defaultElicitMode(), "how to answer a server that asks a question during the call: `mode` ask (at the terminal; the default when stdin is one), defaults (accept the values the server proposes) or decline (the default otherwise)")
	uf := addUpstreamFlags(fs, false)
	rest, err := parseArgs(fs, args, 1)
	if err != nil {
		return err
	}
	if !json.Valid([]byte(*argsJSON)) {
		return fmt.Errorf("--args is not valid JSON: %s", *argsJSON)
	}
	if !slices.Contains(elicitModes, *elicit) {
		return fmt.Errorf("--elicit: unknown mode %q: want %s", *elicit, strings.Join(elicitModes, ", "))
	}
	a, err := openApp(sf)
	if err != nil {
		return err
	}
	defer a.close(ctx)
	if servers := a.serversFor(rest[0]); servers == nil || len(servers) > 0 {
		a.settleUpstreams(ctx, uf.wait, servers...)
	}
	// A first interrupt leaves the call the grace to finish.
	work, cancel := afterGrace(ctx)
	defer cancel()
	// A person runs this: a server that asks for more scopes for this
	// call (a step-up) gets them through the browser, as a login does. A
	// server that needs a login at all says which command to run.
	work = oauth.WithPrompter(work, &oauth.Prompter{Show: oauth.Browser(os.Stderr, false), StepUpOnly: true})
	// What the server asks during the call (a question, the roots) is
	// answered here, at the terminal, as --elicit says.
	work = upstream.WithCaller(work, &terminalCaller{mode: *elicit, in: bufio.NewReader(os.Stdin), out: os.Stderr})
	res := a.server.Call(work, server.CallArgs{Name: rest[0], Arguments: json.RawMessage(*argsJSON)})
	if err := printResult(out, res, *asJSON); err != nil {
		return err
	}
	if res.IsError {
		return exitError(1)
	}
	return nil
}

// serversFor names the upstream servers a call to the tool name needs, so
// that the call does not wait for the others: none for a skill or a static
// tool, the servers whose namespace the name carries, or the servers whose
// last known catalogs give it the meaning it has (catalog.Snapshot.Resolve).
// nil means any of them (an unqualified name not known yet): all are
// started.
func (a *app) serversFor(name string) []string {
	if a.upstreams == nil {
		return []string{}
	}
	isServer := func(s string) bool {
		return slices.ContainsFunc(a.servers, func(sc upstream.ServerConfig) bool { return sc.Name == s })
	}
	if e, ok := a.server.Snapshot().Lookup(name); ok && !isServer(e.Source) {
		return []string{}
	}
	if ns := catalog.Namespaces(name, isServer); len(ns) > 0 {
		return ns
	}
	a.loadPersistedUpstreams()
	r := a.server.Snapshot().Resolve(name)
	var found []string
	for _, e := range append(append([]*catalog.Entry{r.Entry}, r.CaseVariants...), r.SameOwnName...) {
		if e != nil && isServer(e.Source) && !slices.Contains(found, e.Source) {
			found = append(found, e.Source)
		}
	}
	switch {
	case found != nil:
		return found // several: call_tool asks which
	case catalog.IsQualified(name):
		return []string{} // qualified, and no server's: the call is refused
	}
	return nil // unqualified and not known yet: any server may have it
}
