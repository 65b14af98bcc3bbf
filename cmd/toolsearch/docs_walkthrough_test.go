//go:build unix

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The walk-throughs of the README and docs/ are run as written: every
// fenced sh block, in order, one world (a home folder) per page, from the
// repository root as the pages say, with the toolsearch this test builds
// on PATH.
//
// A line is left out only by one of these rules, each a thing a test
// machine has not got:
//   - it starts a real host or a program CI does not put on PATH (claude,
//     codex, gemini, npx, docker): the hosts tests drive those;
//   - it names a URL of a host other than loopback: it needs the network;
//   - it runs go test: the tests are what is running it;
//   - it runs git, which would work on the repository under test (a
//     clone, a tag, a push are the reader's);
//   - it holds a placeholder (…) the reader fills in;
//   - it reads the benchmark's data beside the repository (../shared)
//     where there is none.
//
// A block is left out only by a visible marker, the line before it in the
// page: <!-- not run: why -->.
//
// Every other line must succeed. A line that starts a server that serves
// until stopped (toolsearch serve, an example server) is run until it
// answers: an HTTP server until it listens at the address the line or its
// comment names, a stdio one until it answers an MCP initialize; then it
// is stopped. A line ending in & is started as the page says, and the
// next waits until it listens at the address its comment names. Some
// lines must also print what the page says (walkthroughOutputs).

// walkthroughOutputs are what some lines print, as the page says: the
// page's line (with its comment), and a pattern of the output.
var walkthroughOutputs = []struct {
	page, line string
	want       *regexp.Regexp
}{
	{"README.md", "measure --mcp-config examples/mcp.json", regexp.MustCompile(`(?m)^\s*weather\s+server\s`)},
	{"README.md", "measure --mcp-config examples/mcp.json", regexp.MustCompile(`(?m)^\s*projectdocs\s+server\s`)},
	{"README.md", "toolsearch catalog", regexp.MustCompile(`weather\s+server\s+active`)},
	{"docs/hosts.md", "toolsearch catalog", regexp.MustCompile(`get_weather`)},
	{"docs/hosts.md", "toolsearch client-config claude-code", regexp.MustCompile(`claude mcp add`)},
	{"docs/oauth.md", "# tasks  needs login", regexp.MustCompile(`tasks\s+needs login`)},
	{"docs/oauth.md", "toolsearch review tasks", regexp.MustCompile(`Approve: toolsearch approve tasks__add_task@`)},
	{"docs/oauth.md", "toolsearch call tasks__add_task", regexp.MustCompile(`Added task 1: water the plants`)},
	{"docs/oauth.md", "# tasks  authorized", regexp.MustCompile(`tasks\s+authorized`)},
	{"docs/oauth.md", "toolsearch auth logout", regexp.MustCompile(`revoked at http://127.0.0.1:8094/revoke and forgotten`)},
	{"docs/savings.md", "examples/mcp.json", regexp.MustCompile(`\| weather \| server \|`)},
}

// shBlock is a fenced sh block of a page.
type shBlock struct {
	page   string // relative to the repository root
	start  int    // the line of its opening fence
	lines  []shLine
	notRun string // the reason its marker gives
}

type shLine struct {
	n    int
	text string
}

var (
	fenceOpen   = regexp.MustCompile("^\\s*```(\\S*)\\s*$")
	notRunMark  = regexp.MustCompile(`^\s*<!--\s*not run:\s*(.+?)\s*-->\s*$`)
	foreignHost = regexp.MustCompile(`\b[a-z][a-z0-9+.-]*://([^/\s:'"]+)`)
	listenAddr  = regexp.MustCompile(`\b(?:127\.0\.0\.1|localhost|0\.0\.0\.0):(\d+)`)
	hostProgram = map[string]bool{"claude": true, "codex": true, "gemini": true, "npx": true, "docker": true}
)

// shBlocks reads the fenced sh blocks of a page.
func shBlocks(t *testing.T, root, page string) []shBlock {
	data, err := os.ReadFile(filepath.Join(root, page))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []shBlock
	var cur *shBlock
	inOther := false // in a block of another language
	prev := ""
	for i, l := range strings.Split(string(data), "\n") {
		switch {
		case cur != nil && strings.TrimSpace(l) == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, shLine{i + 1, strings.TrimSpace(l)})
		case inOther:
			inOther = strings.TrimSpace(l) != "```"
		default:
			if m := fenceOpen.FindStringSubmatch(l); m != nil && m[1] == "sh" {
				cur = &shBlock{page: page, start: i + 1}
				if mk := notRunMark.FindStringSubmatch(prev); mk != nil {
					cur.notRun = mk[1]
				}
			} else if m != nil {
				inOther = true
			}
		}
		if strings.TrimSpace(l) != "" {
			prev = l
		}
	}
	return blocks
}

// skipRule says which rule leaves a line out, or "".
func skipRule(line string) string {
	cmd := stripComment(line)
	fields := strings.Fields(cmd)
	for len(fields) > 0 && strings.Contains(fields[0], "=") && !strings.HasPrefix(fields[0], "-") {
		fields = fields[1:] // VAR=value before the program
	}
	switch {
	case len(fields) == 0:
		return "no command"
	case hostProgram[fields[0]]:
		return "needs " + fields[0] + ", which a test machine has not on its PATH"
	case strings.Contains(cmd, "…"):
		return "a placeholder for the reader to fill in"
	case len(fields) > 1 && fields[0] == "go" && fields[1] == "test":
		return "runs the tests, which are running it"
	case strings.Contains(cmd, "../shared/") && !sharedBeside():
		return "reads the benchmark's data beside the repository (../shared), which this checkout has not"
	case fields[0] == "git":
		return "git works on the repository under test: clones, tags and pushes are the reader's"
	}
	for _, m := range foreignHost.FindAllStringSubmatch(cmd, -1) {
		if h := m[1]; h != "127.0.0.1" && h != "localhost" && h != "[::1]" {
			return "needs the network (" + h + ")"
		}
	}
	return ""
}

// sharedBeside says whether the benchmark's data is beside the repository,
// as in the project's own checkouts and CI.
func sharedBeside() bool {
	_, err := os.Stat(filepath.Join("..", "..", "..", "shared", "eval"))
	return err == nil
}

// stripComment drops a trailing shell comment: a # after a blank, outside quotes.
func stripComment(line string) string {
	quote := byte(0)
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return strings.TrimSpace(line[:i])
		}
	}
	return strings.TrimSpace(line)
}

// serverLine says whether a line starts a server that serves until
// stopped, and the port it listens at (0 for stdio).
func serverLine(line string) (isServer bool, port string) {
	cmd := stripComment(line)
	isServer = strings.Contains(cmd, "toolsearch serve") || strings.Contains(cmd, "go run ./examples/servers/")
	if m := listenAddr.FindStringSubmatch(line); m != nil {
		return isServer, m[1]
	}
	if strings.Contains(cmd, "serve --http") {
		return isServer, "7777"
	}
	return isServer, ""
}

// walkthroughScript makes the bash script that runs a page's blocks; out
// is the folder where each line's output goes, as a file named by its
// line number.
func walkthroughScript(t *testing.T, blocks []shBlock, out string) string {
	var b strings.Builder
	b.WriteString(`set -e
set -m
bg=()
track() { bg+=($1); echo $1 >> "$WALKTHROUGH_PIDS"; }
trap 'for p in "${bg[@]}"; do kill -- -$p 2>/dev/null || kill $p 2>/dev/null || true; done' EXIT
wait_port() { for i in $(seq 1200); do (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null && return 0; kill -0 $2 2>/dev/null || return 1; sleep 0.1; done; return 1; }
wait_free() { for i in $(seq 300); do port_free $1 && return 0; sleep 0.1; done; }
port_free() { ! (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null; }
answered() { for i in $(seq 1200); do grep -q '"protocolVersion"' "$1" && return 0; kill -0 $2 2>/dev/null || return 1; sleep 0.1; done; return 1; }
init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"walkthrough","version":"1"}}}'
fail() { echo "walkthrough: $1"; cat "$2"; exit 1; }
`)
	for _, bl := range blocks {
		if bl.notRun != "" {
			t.Logf("%s:%d: not run: %s", bl.page, bl.start, bl.notRun)
			continue
		}
		for _, l := range bl.lines {
			if strings.TrimSpace(stripComment(l.text)) == "" {
				continue
			}
			where := fmt.Sprintf("%s:%d", bl.page, l.n)
			if why := skipRule(l.text); why != "" {
				t.Logf("%s: skipped (%s): %s", where, why, l.text)
				continue
			}
			text := strings.ReplaceAll(l.text, "go run ./cmd/toolsearch", "toolsearch") // the binary under test
			file := filepath.Join(out, fmt.Sprint(l.n))
			fmt.Fprintf(&b, "echo %s\n", shellQuote("+ "+where+": "+l.text))
			isServer, port := serverLine(text)
			background := strings.HasSuffix(stripComment(text), "&")
			if port != "" && (isServer || background) { // not some other program that happens to listen there
				fmt.Fprintf(&b, "port_free %s || fail %s /dev/null\n", port, shellQuote(where+": port "+port+" is taken by another program: stop it first"))
			}
			switch {
			case background:
				fmt.Fprintf(&b, "%s\ntrack $!\n", text)
				if port != "" {
					fmt.Fprintf(&b, "wait_port %s $! || fail %s /dev/null\n", port, shellQuote(where+": nothing listens at port "+port))
				}
			case isServer && port != "":
				fmt.Fprintf(&b, "{ %s\n} > %s 2>&1 &\np=$!; track $p\n", text, file)
				fmt.Fprintf(&b, "wait_port %s $p || fail %s %s\nkill -- -$p; wait $p 2>/dev/null || true; wait_free %s\n", port, shellQuote(where+": the server does not listen at port "+port), file, port)
			case isServer:
				fmt.Fprintf(&b, "{ printf '%%s\\n' \"$init\"; sleep 600; } | { %s\n} > %s 2>&1 &\np=$!; track $p\n", text, file)
				fmt.Fprintf(&b, "answered %s $p || fail %s %s\nkill -- -$p; wait $p 2>/dev/null || true\n", file, shellQuote(where+": the server did not answer an MCP initialize"), file)
			default:
				fmt.Fprintf(&b, "{ %s\n} > %s 2>&1 || fail %s %s\ncat %s\n", text, file, shellQuote(where+": exited with an error"), file, file)
			}
		}
	}
	return b.String()
}

// walkthroughHome makes the home folder a page's walk-through starts
// from: a Claude Code configuration with the weather example as a
// user-scope server and as one of the repository's own (for init --from
// claude-code), a folder of projects in
// ~/src, and a bin folder with toolsearch (this test binary acting as
// it) and an npx that fails at once, as on a machine without Node.
func walkthroughHome(t *testing.T, weather string) (home string, env []string) {
	home = t.TempDir()
	bin := filepath.Join(home, "bin")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, bin, "toolsearch", fmt.Sprintf("#!/bin/sh\n%s=1 exec %s \"$@\"\n", runAsToolsearch, shellQuote(exe)))
	writeFile(t, bin, "npx", "#!/bin/sh\necho 'npx: not on this machine (the walk-through test)' >&2\nexit 127\n")
	for _, f := range []string{"toolsearch", "npx"} {
		if err := os.Chmod(filepath.Join(bin, f), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The pages run from the repository's root, the project whose own
	// servers (Claude Code's local scope) init imports apart: the weather
	// example again, as "localweather".
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, home, ".claude.json", fmt.Sprintf(`{"mcpServers": {"weather": {"type": "stdio", "command": %[1]q, "args": []}},
	 "projects": {%[2]q: {"mcpServers": {"localweather": {"type": "stdio", "command": %[1]q, "args": []}}}}}`, weather, root))
	writeFile(t, home, "src/garden/README.md", "# Garden\n\nWhen to water the plants.\n")
	goEnv, err := exec.Command("go", "env", "GOPATH", "GOMODCACHE", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	// Go's caches stay the user's: a new home would download every module again.
	gv := strings.Fields(string(goEnv))
	env = append(os.Environ(), "GOPATH="+gv[0], "GOMODCACHE="+gv[1], "GOCACHE="+gv[2],
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
		"XDG_STATE_HOME="+filepath.Join(home, ".local", "state"),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"BROWSER="+exe, browserEnv+"=1", // approving a login is fetching its page (see runBrowser)
	)
	return home, env
}

func TestDocsWalkthroughs(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	weather := filepath.Join(t.TempDir(), "weather")
	build := exec.Command("go", "build", "-o", weather, "./examples/servers/weather")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the weather example: %v\n%s", err, out)
	}
	for _, path := range walkthroughPages(t, root) {
		page, _ := filepath.Rel(root, path)
		page = filepath.ToSlash(page)
		blocks := shBlocks(t, root, page)
		if len(blocks) == 0 {
			continue
		}
		t.Run(page, func(t *testing.T) {
			_, env := walkthroughHome(t, weather)
			out := t.TempDir()
			script := walkthroughScript(t, blocks, out)
			ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "bash", "-c", script)
			cmd.Dir, cmd.Env = root, env
			log, err := os.Create(filepath.Join(out, "log"))
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stdout, cmd.Stderr = log, log // a file: a server left running holds no pipe open
			pids := filepath.Join(out, "pids")
			cmd.Env = append(cmd.Env, "WALKTHROUGH_PIDS="+pids)
			runErr := cmd.Run()
			stopWalkthroughServers(pids) // the script's trap does, unless it was killed
			log.Close()
			text, _ := os.ReadFile(filepath.Join(out, "log"))
			if runErr != nil {
				t.Fatalf("%v\n%s", runErr, text)
			}
			t.Logf("%s", text)
			checkWalkthroughOutputs(t, page, blocks, out)
		})
	}
}

// stopWalkthroughServers stops the process groups (servers) a script
// started, as its exit trap does: a script killed at its deadline runs no
// trap.
func stopWalkthroughServers(pids string) {
	data, _ := os.ReadFile(pids)
	for _, f := range strings.Fields(string(data)) {
		if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
			syscall.Kill(-pid, syscall.SIGKILL)
		}
	}
}

// checkWalkthroughOutputs holds the lines of walkthroughOutputs to what the
// page says they print.
func checkWalkthroughOutputs(t *testing.T, page string, blocks []shBlock, out string) {
	for _, w := range walkthroughOutputs {
		if w.page != page {
			continue
		}
		found := false
		for _, bl := range blocks {
			for _, l := range bl.lines {
				if !strings.Contains(l.text, w.line) || bl.notRun != "" || skipRule(l.text) != "" {
					continue
				}
				found = true
				got, err := os.ReadFile(filepath.Join(out, fmt.Sprint(l.n)))
				if err != nil {
					t.Errorf("%s:%d: no output: %v", page, l.n, err)
					continue
				}
				if !w.want.Match(got) {
					t.Errorf("%s:%d: %s\nprints\n%s\nwant it to match %s", page, l.n, l.text, got, w.want)
				}
			}
		}
		if !found {
			t.Errorf("%s: no line runs %q, which the test expects output of", page, w.line)
		}
	}
}
