//go:build hosts

package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/cmd/toolsearch/internal/modelsim"
	"github.com/toolsearch/toolsearch/server/tokens"
)

// An upstreamEntry is one upstream server, as .mcp.json and the hosts'
// own configurations name it.
type upstreamEntry struct {
	Command string            `json:"command"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
}

// registerDirect registers servers with the host itself, in its own
// format, as a user does without toolsearch.
func (r *hostRun) registerDirect(servers map[string]upstreamEntry) {
	t := r.e.t
	t.Helper()
	names := slices.Sorted(maps.Keys(servers))
	switch r.name {
	case "claude-code":
		for _, name := range names {
			s := servers[name]
			// The name before -e, which takes every value up to --.
			line := "claude mcp add " + name
			for _, k := range slices.Sorted(maps.Keys(s.Env)) {
				line += " -e " + shellQuote(k+"="+s.Env[k])
			}
			line += " -- " + shellQuote(s.Command)
			for _, a := range s.Args {
				line += " " + shellQuote(a)
			}
			r.shell(line)
		}
	case "codex":
		var b strings.Builder
		for _, name := range names {
			s := servers[name]
			args, _ := json.Marshal(append([]string{}, s.Args...))
			fmt.Fprintf(&b, "[mcp_servers.%q]\ncommand = %q\nargs = %s\n", name, s.Command, args)
			if len(s.Env) > 0 {
				fmt.Fprintf(&b, "[mcp_servers.%q.env]\n", name)
				for _, k := range slices.Sorted(maps.Keys(s.Env)) {
					fmt.Fprintf(&b, "%s = %q\n", k, s.Env[k])
				}
			}
		}
		r.appendCodexConfig(b.String())
	case "gemini":
		data, _ := json.Marshal(map[string]any{"mcpServers": servers})
		r.mergeGeminiSettings(string(data))
	default:
		t.Fatalf("no direct registration for %s", r.name)
	}
}

// setServers writes toolsearch's .mcp.json.
func (e *hostEnv) setServers(servers map[string]upstreamEntry) {
	data, _ := json.Marshal(map[string]any{"mcpServers": servers})
	writeFile(e.t, e.configDir, ".mcp.json", string(data))
}

// exampleServers are the example servers that speak stdio: weather and
// projectdocs (on a folder with one project).
func exampleServers(t *testing.T) map[string]upstreamEntry {
	bin := t.TempDir()
	goBuild(t, filepath.Join(bin, "weather"), "../../examples/servers/weather")
	goBuild(t, filepath.Join(bin, "projectdocs"), "../../examples/servers/projectdocs")
	docs := t.TempDir()
	writeFile(t, docs, "demo/README.md", "# Demo\n\nA project with one doc.\n")
	return map[string]upstreamEntry{
		"weather":     {Command: filepath.Join(bin, "weather")},
		"projectdocs": {Command: filepath.Join(bin, "projectdocs"), Args: []string{"-root", docs}},
	}
}

// catalogServers are n real tools of the eval catalog's server__tool
// entries, served per server by this test binary as a fake upstream
// (see serveFakeUpstream), the largest servers first.
func catalogServers(t *testing.T, n int) map[string]upstreamEntry {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "eval", "dev", "catalog.json"))
	if err != nil {
		data, err = os.ReadFile("/work/shared/eval/dev/catalog.json")
	}
	if err != nil {
		t.Skipf("no eval catalog (shared/eval/dev/catalog.json beside the repository): %v", err)
	}
	var all []map[string]any
	if err := json.Unmarshal(data, &all); err != nil {
		t.Fatal(err)
	}
	byServer := map[string][]map[string]any{}
	for _, tool := range all {
		server, name, ok := strings.Cut(tool["name"].(string), "__")
		if !ok {
			continue
		}
		tool["name"] = name
		byServer[server] = append(byServer[server], tool)
	}
	servers := slices.SortedFunc(maps.Keys(byServer), func(a, b string) int {
		return cmp.Or(cmp.Compare(len(byServer[b]), len(byServer[a])), cmp.Compare(a, b))
	})
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out := map[string]upstreamEntry{}
	for _, s := range servers {
		if n == 0 {
			break
		}
		tools := byServer[s][:min(n, len(byServer[s]))]
		n -= len(tools)
		file := filepath.Join(dir, s+".json")
		data, _ := json.Marshal(tools)
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out[s] = upstreamEntry{Command: exe, Env: map[string]string{fakeUpstreamEnv: file}}
	}
	return out
}

// firstRequestFigures are the sizes of a turn's first model request.
type firstRequestFigures struct {
	requestBytes, requestTokens int
	toolsBytes, toolsTokens     int // the tools the model sees: deferred ones left out
	tools, deferred             int
	// connecting: the request tells the model that MCP servers are still
	// connecting (Claude Code, when it did not wait for them).
	connecting bool
}

func measureFirstRequest(t *testing.T, res turnResult) firstRequestFigures {
	t.Helper()
	main := res.mainRequests()
	if len(main) == 0 {
		t.Fatalf("no model request offered tools:\n%s", res.describe())
	}
	q := main[0]
	tok := tokens.MustGet("o200k_base")
	f := firstRequestFigures{requestBytes: len(q.Body), requestTokens: tok.Count(string(q.Body)),
		tools: len(q.Turn.Tools), deferred: len(q.Turn.Deferred),
		connecting: strings.Contains(string(q.Body), "still connecting")}
	seen := seenTools(q)
	f.toolsBytes = len(seen)
	f.toolsTokens = tok.Count(string(seen))
	return f
}

// seenTools is a request's tools less those deferred (Anthropic's
// defer_loading: the API keeps them out of the context until loaded).
func seenTools(q modelsim.Request) []byte {
	var tools []map[string]any
	if q.API != "anthropic" || json.Unmarshal(q.Tools, &tools) != nil {
		return q.Tools
	}
	tools = slices.DeleteFunc(tools, func(m map[string]any) bool { return m["defer_loading"] == true })
	data, _ := json.Marshal(tools)
	return data
}

// benchHosts are the hosts as measured: Claude Code twice, with its own
// deferral of MCP tools (its default) and without it.
var benchHosts = []struct {
	name string
	h    *host
	env  []string
}{
	{"claude-code", claudeCode, nil},
	{"claude-code-eager", claudeCode, []string{"ENABLE_TOOL_SEARCH=false"}},
	{"codex", codexCLI, nil},
	{"gemini", geminiCLI, nil},
}

// TestHostsFirstRequestSize measures each host's first model request: with
// no MCP server, with the servers registered directly, and with the same
// servers behind toolsearch (its last known catalog warm, as after a
// first start), at the example servers and at 300 real tools. It is a
// measurement for BENCHMARKS.md (run it with -v); it fails only where a
// host never sent a request with tools.
//
//	go test -tags hosts -count=1 -v -run HostsFirstRequestSize ./cmd/toolsearch
func TestHostsFirstRequestSize(t *testing.T) {
	if os.Getenv("TOOLSEARCH_HOSTS_MEASURE") == "" {
		t.Skip("a measurement for BENCHMARKS.md: set TOOLSEARCH_HOSTS_MEASURE=1")
	}
	scales := []struct {
		name    string
		servers func(t *testing.T) map[string]upstreamEntry
	}{
		{"examples", exampleServers},
		{"300-tools", func(t *testing.T) map[string]upstreamEntry { return catalogServers(t, 300) }},
	}
	var table []string
	for _, bh := range benchHosts {
		t.Run(bh.name, func(t *testing.T) {
			e := newHostEnv(t, answerScript)
			run := func(register func(r *hostRun)) firstRequestFigures {
				r := e.newRun(bh.h)
				r.extraEnv = bh.env
				register(r)
				// Gemini CLI -p leaves out MCP tools its policy does not
				// allow: all are allowed here, to size what the model would
				// be offered in an interactive session.
				if bh.h == geminiCLI {
					writeFile(t, filepath.Join(r.home, ".gemini", "policies"), "all.toml", "[[rule]]\ntoolName = \"*\"\nmcpName = \"*\"\ndecision = \"allow\"\npriority = 100\n")
				}
				return measureFirstRequest(t, r.runTurn(weatherPrompt))
			}
			base := run(func(*hostRun) {})
			for _, sc := range scales {
				servers := sc.servers(t)
				direct := run(func(r *hostRun) { r.registerDirect(servers) })
				e.setServers(servers)
				// Behind toolsearch, a second start is measured: the last
				// known catalog is warm then.
				behind := run(func(r *hostRun) {
					stdioTransport.register(r)
					r.runTurn(weatherPrompt)
				})
				for _, row := range []struct {
					how string
					f   firstRequestFigures
				}{{"direct", direct}, {"toolsearch", behind}} {
					line := fmt.Sprintf("| %s | %s | %s | %d | %d (%+d) | %d | %d | %d | %v |", bh.name, sc.name, row.how,
						row.f.requestBytes, row.f.requestTokens, row.f.requestTokens-base.requestTokens,
						row.f.toolsTokens, row.f.tools, row.f.deferred, row.f.connecting)
					table = append(table, line)
					t.Log(line)
				}
			}
			t.Logf("no MCP server: request %d bytes, %d tokens; tools %d tokens (%d tools, %d deferred)",
				base.requestBytes, base.requestTokens, base.toolsTokens, base.tools, base.deferred)
		})
	}
	t.Logf("| host | servers | registered | first request bytes | tokens (+ over no MCP server) | tools part tokens | tools | deferred | still connecting |\n|---|---|---|---|---|---|---|---|---|\n%s", strings.Join(table, "\n"))
}

// TestHostsFirstList measures, per host over stdio on a very first start,
// how long after initialize the host asks for tools/list, how often it
// lists in one turn, and whether its first model request had the complete
// listing: what a bounded wait before the first tools/list answer buys
// each host. toolsearch's own trace (toolsearch.yaml's trace) times the
// requests.
//
//	TOOLSEARCH_HOSTS_MEASURE=1 go test -tags hosts -count=1 -v -run HostsFirstList ./cmd/toolsearch
func TestHostsFirstList(t *testing.T) {
	if os.Getenv("TOOLSEARCH_HOSTS_MEASURE") == "" {
		t.Skip("a measurement for BENCHMARKS.md: set TOOLSEARCH_HOSTS_MEASURE=1")
	}
	for _, h := range allHosts {
		t.Run(h.name, func(t *testing.T) {
			e := newHostEnv(t, answerScript)
			trace := filepath.Join(t.TempDir(), "trace.jsonl")
			cfg := filepath.Join(e.configDir, DefaultConfigFile)
			old, err := os.ReadFile(cfg)
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, e.configDir, DefaultConfigFile, string(old)+fmt.Sprintf("\ntrace: %q\n", trace))
			r := e.newRun(h)
			stdioTransport.register(r)
			r.allowReads()
			res := r.runTurn(weatherPrompt)
			var init time.Time
			var lists []time.Duration
			for _, line := range readLines(trace) {
				var ev struct {
					Time   time.Time `json:"time"`
					Method string    `json:"method"`
				}
				if json.Unmarshal([]byte(line), &ev) != nil {
					continue
				}
				switch {
				case ev.Method == "initialize" && init.IsZero():
					init = ev.Time
				case ev.Method == "tools/list" && !init.IsZero():
					lists = append(lists, ev.Time.Sub(init).Round(time.Millisecond))
				}
			}
			complete := false
			if main := res.mainRequests(); len(main) > 0 {
				desc, _ := toolSearchDescription(main[0].Tools)
				complete = listsWeather(desc)
			}
			t.Logf("| %s | %v | %d | %v |", h.name, lists, len(lists), complete)
		})
	}
}
