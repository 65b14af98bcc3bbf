//go:build hosts

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestHostsCodexWaitsForASlowStart: Codex gives a server it may do without
// about a second to start before a turn's first request, and leaves out the
// tools of one still starting; a toolsearch that took longer (a cold
// machine, a large catalog, a loaded CI runner) offered the model no tool
// at all. Registered as client-config prints it, behind a start that takes
// three seconds, toolsearch's tools are in the first request.
func TestHostsCodexWaitsForASlowStart(t *testing.T) {
	e := newHostEnv(t, weatherScript)
	e.setServers(exampleServers(t))
	r := e.newRun(codexCLI)
	stdioTransport.register(r)
	path := filepath.Join(r.home, ".codex", "config.toml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The same command, started by a shell that first waits three seconds.
	command := regexp.MustCompile(`(?m)^command = ("[^"]+")\nargs = \[`)
	if !command.Match(data) {
		t.Fatalf("no command and args in the snippet:\n%s", data)
	}
	slow := command.ReplaceAll(data, []byte(`command = "/bin/sh"`+"\n"+`args = ["-c", "sleep 3; exec \"$$0\" \"$$@\"", $1, `))
	if err := os.WriteFile(path, slow, 0o644); err != nil {
		t.Fatal(err)
	}
	res := r.runTurn(weatherPrompt)
	main := res.mainRequests()
	if len(main) == 0 {
		t.Fatalf("no model request offered tools:\n%s", res.describe())
	}
	if main[0].Turn.Offers("tool_search") == "" && main[0].Turn.Defers("tool_search") == "" {
		t.Errorf("a toolsearch that took 3 s to start is not in the first request: %v\n%s", main[0].Turn.Tools, res.describe())
	}
}
