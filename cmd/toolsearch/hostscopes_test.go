//go:build hosts

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
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

// TestHostsScopes follows the README in each host with scopes (Claude
// Code's user and local scopes, Codex's and Gemini CLI's user and project
// files) and two projects: a server the host gives every project and one
// it gives project A alone, imported with init --from, toolsearch
// registered where client-config says and the fronted servers taken out as
// init says (a command, or an entry deleted from a file). Through
// toolsearch, the first is reachable in both projects, the second in A
// only. Following the README once removed the user's servers from every
// project but the one init ran in.
func TestHostsScopes(t *testing.T) {
	for _, h := range allHosts {
		t.Run(h.name, func(t *testing.T) {
			var target atomic.Value
			target.Store(weatherCall)
			e := newHostEnv(t, targetScript(&target))
			a := e.newRun(h)
			b := a.inAnotherFolder()
			weather := filepath.Join(filepath.Dir(e.toolsearch), "weather")
			// The host's own servers, added as its users add them.
			a.addOwnServer(true, everyProjectServer, weather)
			a.addOwnServer(false, projectServer, weather)

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

// addOwnServer adds a server to the host as its users do: for every
// project (the user's scope), or for r's project alone.
func (r *hostRun) addOwnServer(everyProject bool, name, command string) {
	t := r.e.t
	t.Helper()
	switch r.name {
	case claudeCode.name:
		scope := "local"
		if everyProject {
			scope = "user"
		}
		r.shell("claude mcp add --scope " + scope + " " + name + " -- " + command)
	case codexCLI.name:
		table := fmt.Sprintf("[mcp_servers.%s]\ncommand = %q\n", name, command)
		if everyProject {
			r.appendCodexConfig(table)
			return
		}
		appendToFile(t, filepath.Join(r.project, ".codex", "config.toml"), table)
		// Codex reads a project's .codex/config.toml only once the user has
		// trusted the project (the first run there asks); a user with
		// servers in it has.
		r.appendCodexConfig(codexTrust(r.project))
	case geminiCLI.name:
		file := filepath.Join(r.project, ".gemini", "settings.json")
		if everyProject {
			file = filepath.Join(r.home, ".gemini", "settings.json")
		}
		mergeServersJSON(t, file, fmt.Sprintf(`{"mcpServers": {%q: {"command": %q}}}`, name, command))
	default:
		t.Fatalf("no way to add a server to %s", r.name)
	}
}

// codexTrust is the table of ~/.codex/config.toml that trusts a project.
func codexTrust(project string) string {
	return fmt.Sprintf("[projects.%q]\ntrust_level = \"trusted\"\n", project)
}

// appendToFile adds text at the end of a file, making it and its folders
// where they are not.
func appendToFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString("\n" + text); err != nil {
		t.Fatal(err)
	}
}

// mergeServersJSON merges a snippet into a JSON settings file, as a person
// following "merging it into what the file has" would: its mcpServers
// beside those the file has, its other keys set.
func mergeServersJSON(t *testing.T, path, snippet string) {
	t.Helper()
	settings := map[string]any{}
	if data, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(data, &settings); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	var add map[string]any
	if err := json.Unmarshal([]byte(snippet), &add); err != nil {
		t.Fatalf("the snippet is not JSON: %v\n%s", err, snippet)
	}
	for k, v := range add {
		servers, ok := settings[k].(map[string]any)
		if k != "mcpServers" || !ok {
			settings[k] = v
			continue
		}
		for name, entry := range v.(map[string]any) {
			servers[name] = entry
		}
	}
	writeJSONFile(t, path, settings)
}

// toolsearchIn runs the toolsearch built for the test in dir, with the
// host's HOME and environment, and returns its stdout.
func (r *hostRun) toolsearchIn(dir string, args ...string) string {
	out, _ := r.toolsearchOut(dir, args...)
	return out
}

// toolsearchOut is toolsearchIn with its stderr, where client-config says
// where its snippet goes.
func (r *hostRun) toolsearchOut(dir string, args ...string) (stdout, stderr string) {
	t := r.e.t
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	cmd := r.command(ctx)
	cmd.Path, cmd.Args, cmd.Dir = r.e.toolsearch, append([]string{"toolsearch"}, args...), dir
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("toolsearch %s: %v\n%s\n%s", strings.Join(args, " "), err, out, errb.String())
	}
	return string(out), errb.String()
}

// snippetFile is the file client-config's stderr says its snippet goes in
// ("Add this to FILE (…)"), "" for a command to run.
var snippetFile = regexp.MustCompile(`(?m)^Add this to (\S+) \(`)

// removal is one of init's removals from a file: "delete mcpServers.NAME
// from FILE", "delete the [mcp_servers.NAME] table (…) from FILE".
var removal = regexp.MustCompile(`^delete (?:mcpServers\.(\S+)|the \[mcp_servers\.([^\]]+)\] table.*) from (\S+)$`)

// deleteJSONServer deletes mcpServers.name from a JSON settings file.
func deleteJSONServer(t *testing.T, path, name string) {
	t.Helper()
	var settings map[string]any
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &settings); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	servers, _ := settings["mcpServers"].(map[string]any)
	if _, ok := servers[name]; !ok {
		t.Fatalf("init says to delete mcpServers.%s from %s, which has none", name, path)
	}
	delete(servers, name)
	writeJSONFile(t, path, settings)
}

// deleteTOMLTable deletes the [mcp_servers.name] table and its
// [mcp_servers.name.*] tables from a TOML file.
func deleteTOMLTable(t *testing.T, path, name string) {
	t.Helper()
	lines := readLines(path)
	var kept []string
	in, found := false, false
	for _, line := range lines {
		if h := strings.TrimSpace(line); strings.HasPrefix(h, "[") {
			in = h == "[mcp_servers."+name+"]" || strings.HasPrefix(h, "[mcp_servers."+name+".")
			found = found || in
		}
		if !in {
			kept = append(kept, line)
		}
	}
	if !found {
		t.Fatalf("init says to delete [mcp_servers.%s] from %s, which has none", name, path)
	}
	if err := os.WriteFile(path, []byte(strings.Join(kept, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// followInit does what init's output says, in order: each toolsearch
// command of its Next steps (the snippets client-config prints registered
// where it says: merged into the file it names, or for Claude Code run in
// the project it names), then each removal from the host (Claude Code's
// command, or the entry deleted from the file named). runs are the host
// in each project folder.
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
			stdout, stderr := r.toolsearchOut(r.project, words[1:]...)
			if words[1] != "client-config" {
				continue
			}
			if m := snippetFile.FindStringSubmatch(stderr); m != nil {
				if strings.HasSuffix(m[1], ".json") {
					mergeServersJSON(t, m[1], stdout)
				} else {
					appendToFile(t, m[1], stdout)
				}
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
			m := removal.FindStringSubmatch(cmdLine)
			switch {
			case m == nil:
				t.Fatalf("no way to follow %q", line)
			case m[1] != "":
				deleteJSONServer(t, m[3], m[1])
			default:
				deleteTOMLTable(t, m[3], m[2])
			}
		}
	}
}
