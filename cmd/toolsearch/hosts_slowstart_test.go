//go:build hosts

package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestHostsWaitForASlowStart: a host may give a server it can do without a
// moment to start and leave the tools of one still starting out of the
// turn (Codex gives it about a second). A toolsearch slower than that (a
// cold machine, a large catalog, a loaded CI runner) offered the model no
// tool at all. Registered as client-config prints it, behind a start that
// takes three seconds, toolsearch's tools are in each host's first request.
func TestHostsWaitForASlowStart(t *testing.T) {
	for _, h := range allHosts {
		t.Run(h.name, func(t *testing.T) {
			e := newHostEnv(t, weatherScript)
			r := e.newRun(h)
			snippet := e.clientConfig(h.name)
			slow := slowStart(snippet, e.toolsearch)
			if slow == snippet {
				t.Fatalf("no command of %s to slow down in the snippet:\n%s", e.toolsearch, snippet)
			}
			h.registerStdio(e, r, slow)
			r.allowReads()
			res := r.runTurn(weatherPrompt)
			main := res.mainRequests()
			if len(main) == 0 {
				t.Fatalf("no model request offered tools:\n%s", res.describe())
			}
			if main[0].Turn.Offers("tool_search") == "" && main[0].Turn.Defers("tool_search") == "" {
				t.Errorf("a toolsearch that took 3 s to start is not in the first request: %v\n%s", main[0].Turn.Tools, res.describe())
			}
		})
	}
}

// slowStart rewrites a registration snippet so that the host starts bin
// through a shell that first waits three seconds: in TOML and in JSON
// (Claude Code's add-json argument too) the command becomes /bin/sh, with
// the wait and bin before the arguments.
func slowStart(snippet, bin string) string {
	q := regexp.QuoteMeta(bin)
	toml := regexp.MustCompile(`command = "` + q + `"\nargs = \[`)
	snippet = toml.ReplaceAllLiteralString(snippet, `command = "/bin/sh"`+"\n"+`args = ["-c", "sleep 3; exec \"$0\" \"$@\"", "`+bin+`", `)
	json := regexp.MustCompile(`"command":\s*"` + q + `",(\s*)"args":\s*\[`)
	snippet = json.ReplaceAllString(snippet, `"command": "/bin/sh",${1}"args": ["-c", "sleep 3; exec \"$$0\" \"$$@\"", "`+strings.ReplaceAll(bin, "$", "$$")+`",`)
	return snippet
}
