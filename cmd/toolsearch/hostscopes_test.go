//go:build hosts

package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolsearch/toolsearch/cmd/toolsearch/internal/modelsim"
)

// The servers of TestHostsScopes: the weather example under two names, one
// the host gives every project, one it gives a single project.
const (
	everyProjectServer = "weather"
	projectServer      = "localweather"
)

// targetScript is weatherScript calling the tool *target names, set
// before each turn (a host's first user text is not always the prompt).
func targetScript(target *atomic.Value) modelsim.Script {
	return func(t modelsim.Turn) modelsim.Reply { return callingScript(t, target.Load().(string)) }
}

// TestHostsScopes follows the README in a host with scopes and two
// projects: a server the host gives every project and one it gives project
// A alone, imported with init --from, toolsearch registered and the
// fronted servers taken out as init says. Through toolsearch, the first is
// reachable in both projects, the second in A only. Following the README
// once removed the user's servers from every project but the one init ran
// in.
func TestHostsScopes(t *testing.T) {
	for _, h := range []*host{claudeCode} {
		t.Run(h.name, func(t *testing.T) {
			var target atomic.Value
			target.Store(weatherCall)
			e := newHostEnv(t, targetScript(&target))
			a := e.newRun(h)
			b := a.inAnotherFolder()
			weather := filepath.Join(filepath.Dir(e.toolsearch), "weather")
			// The host's own servers, added as its users add them.
			a.shell("claude mcp add --scope user " + everyProjectServer + " -- " + weather)
			a.shell("claude mcp add --scope local " + projectServer + " -- " + weather)

			out := a.toolsearchIn(a.project, "init", "--from", h.name)
			t.Logf("init --from %s:\n%s", h.name, out)
			a.followInit(out, map[string]*hostRun{a.project: a, b.project: b})
			a.allowReads()
			b.args = a.args

			for _, tc := range []struct {
				run    *hostRun
				server string
				want   bool
			}{
				{a, everyProjectServer, true},
				{a, projectServer, true},
				{b, everyProjectServer, true},
				{b, projectServer, false},
			} {
				where := "A"
				if tc.run == b {
					where = "B"
				}
				target.Store(tc.server + "__get_weather")
				res := tc.run.runTurn(weatherPrompt)
				proxied, ok := proxyResult(res)
				reached := ok && strings.Contains(proxied, "humidity")
				if reached != tc.want {
					t.Errorf("in project %s, %s reached through toolsearch: %v, want %v: %s\n%s", where, tc.server, reached, tc.want, oneLine(proxied, 300), res.describe())
				}
				if main := res.mainRequests(); len(main) > 0 && !tc.want {
					if desc, _ := toolSearchDescription(main[0].Tools); strings.Contains(desc, tc.server) {
						t.Errorf("project %s's listing names %s, a server of another project:\n%s", where, tc.server, desc)
					}
				}
			}
		})
	}
}

// toolsearchIn runs the toolsearch built for the test in dir, with the
// host's HOME and environment, and returns its stdout.
func (r *hostRun) toolsearchIn(dir string, args ...string) string {
	t := r.e.t
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	cmd := r.command(ctx)
	cmd.Path, cmd.Args, cmd.Dir = r.e.toolsearch, append([]string{"toolsearch"}, args...), dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("toolsearch %s: %v\n%s\n%s", strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}

// followInit does what init's output says, in order: each toolsearch
// command of its Next steps (the snippets client-config prints registered
// where it says, in the project it names), then each removal from the
// host. runs are the host in each project folder.
func (r *hostRun) followInit(out string, runs map[string]*hostRun) {
	t := r.e.t
	t.Helper()
	section := ""
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "Next:"):
			section = "next"
			continue
		case strings.HasPrefix(line, "Once toolsearch is registered"):
			section = "remove"
			continue
		case line == "":
			continue
		case !strings.HasPrefix(line, "  "):
			section = ""
			continue
		}
		cmdLine, comment, _ := strings.Cut(strings.TrimSpace(line), "   # ")
		in := r
		if dir, ok := strings.CutPrefix(comment, "in "); ok && runs[dir] != nil {
			in = runs[dir]
		}
		switch section {
		case "next":
			words := shellWords(t, cmdLine)
			if words[0] != "toolsearch" {
				t.Fatalf("init's next step is not a toolsearch command: %s", line)
			}
			stdout := r.toolsearchIn(r.project, words[1:]...)
			if words[1] != "client-config" {
				continue
			}
			target := r
			for i, w := range words {
				if w == "--project" && i+1 < len(words) {
					if target = runs[words[i+1]]; target == nil {
						t.Fatalf("client-config names a project the test has not: %s", line)
					}
				}
			}
			target.registerStdio(r.e, target, stdout)
		case "remove":
			if strings.HasPrefix(cmdLine, "claude ") {
				in.shell(cmdLine)
				continue
			}
			t.Fatalf("no way to follow %q", line)
		}
	}
}
