// Package bridge recognises a stdio entry that is a remote MCP server in
// disguise: a bridge program (mcp-remote, supergateway, mcp-proxy) that
// speaks stdio to its host and HTTP to a server elsewhere, or any command
// whose arguments name an http(s) URL. What such an entry serves is what
// answers at that URL today, not a program the user installed, so the
// loader holds it as it holds an HTTP server, and `init` rewrites it as an
// http or sse entry where the bridge adds nothing toolsearch does not do
// itself (headers, OAuth).
//
// Only the command line is read; nothing is started or fetched.
package bridge

import (
	"maps"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
)

// A Bridge is what a stdio entry says of the remote server behind it.
type Bridge struct {
	// Program is the bridge recognised by name (mcp-remote, supergateway,
	// mcp-proxy), or "" when only a URL among the arguments shows it.
	Program string
	// URL is the remote server's, or "" when a known bridge names none
	// that could be found.
	URL string
	// Type is "http" or "sse" when the entry can be written as an entry
	// of that type with URL and Headers; "" when it cannot (Kept says why).
	Type    string
	Headers map[string]string
	// Kept says why the bridge cannot be replaced: an argument or
	// variable it acts on that an http entry has no equivalent for.
	Kept string
}

// Of reads a stdio entry's command line (and environment, which the
// bridges read header values from). ok is false when it is no bridge.
func Of(command string, args []string, env map[string]string) (b Bridge, ok bool) {
	name, rest := program(command, args)
	switch name {
	case "mcp-remote":
		b = mcpRemote(rest, env)
	case "supergateway":
		b = supergateway(rest, env)
	case "mcp-proxy":
		b = mcpProxy(rest, env)
	default:
		u := URLIn(args)
		if u == "" && !urlRE.MatchString(command) {
			return Bridge{}, false
		}
		if u == "" {
			u = urlRE.FindString(command)
		}
		return Bridge{URL: u, Kept: "toolsearch does not know the program, which names a URL among its arguments"}, true
	}
	b.Program = name
	if b.URL == "" && b.Kept == "" {
		b.Kept = "no server URL was found among its arguments"
	}
	if b.Kept != "" {
		b.Type, b.Headers = "", nil
	}
	return b, true
}

// urlRE finds an http(s) URL anywhere in an argument: alone, after a
// flag's = sign, or inside a shell command given to sh -c.
var urlRE = regexp.MustCompile(`(?i)\bhttps?://[^\s"'<>` + "`" + `]+`)

// URLIn returns the first http(s) URL with a host that args name, or "".
func URLIn(args []string) string {
	for _, a := range args {
		for _, m := range urlRE.FindAllString(a, -1) {
			if isURL(m) {
				return m
			}
		}
	}
	return ""
}

// isURL reports whether s is an http or https URL with a host.
func isURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (strings.EqualFold(u.Scheme, "http") || strings.EqualFold(u.Scheme, "https")) && u.Host != ""
}

// typeOf guesses the transport of a URL as the hosts do: the old HTTP+SSE
// transport conventionally lives at /sse, Streamable HTTP anywhere else.
func typeOf(raw string) string {
	if u, err := url.Parse(raw); err == nil && strings.HasSuffix(strings.TrimSuffix(u.Path, "/"), "/sse") {
		return "sse"
	}
	return "http"
}

// runners start a package by name: npx mcp-remote URL, uvx mcp-proxy URL.
// The value is the subcommand they need first, if any.
var runners = map[string]string{
	"npx": "", "bunx": "", "pnpx": "", "uvx": "",
	"pnpm": "dlx", "yarn": "dlx", "npm": "exec", "bun": "x", "pipx": "run",
}

// runnerFlagsWithValue are the runners' flags that take the next argument.
var runnerFlagsWithValue = map[string]bool{"-p": true, "--package": true, "--from": true, "--with": true, "--python": true, "--registry": true}

// program returns the program an entry runs, by its package or file name
// (without version, scope or extension), and its arguments: through
// `cmd /c` and a package runner where there is one.
func program(command string, args []string) (string, []string) {
	base := strings.ToLower(path.Base(strings.ReplaceAll(command, `\`, "/")))
	for _, ext := range []string{".exe", ".cmd", ".bat"} {
		base = strings.TrimSuffix(base, ext)
	}
	if base == "cmd" && len(args) > 1 && strings.EqualFold(args[0], "/c") {
		return program(args[1], args[2:])
	}
	sub, isRunner := runners[base]
	if !isRunner {
		return packageName(base), args
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
		case runnerFlagsWithValue[a]:
			i++
		case strings.HasPrefix(a, "-"):
		case sub != "" && a == sub:
			sub = ""
		case sub != "":
			return "", nil // another subcommand: not running a package
		default:
			rest := args[i+1:]
			if len(rest) > 0 && rest[0] == "--" {
				rest = rest[1:]
			}
			return packageName(a), rest
		}
	}
	return "", nil
}

// packageName is a package's bare name: @scope/name@1.2 and name==1.2
// are name.
func packageName(pkg string) string {
	pkg = strings.ToLower(pkg)
	if i := strings.LastIndexByte(pkg, '/'); i >= 0 {
		if at := strings.LastIndexByte(pkg[:i], '@'); at <= 0 { // a scope, not a version
			pkg = pkg[i+1:]
		}
	}
	if i := strings.IndexAny(pkg[min(1, len(pkg)):], "@=<>~"); i >= 0 {
		pkg = pkg[:i+1]
	}
	return pkg
}

// header parses "Name: Value" (or "Name:Value", as mcp-remote advises on
// Windows), with ${VAR} in the value taken from env as the bridges do;
// used records the variables taken.
func header(h string, env map[string]string, used map[string]bool) (string, string, bool) {
	name, value, ok := strings.Cut(h, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.ContainsAny(name, " \t") {
		return "", "", false
	}
	return name, substitute(strings.TrimLeft(value, " \t"), env, used), true
}

// varRE matches ${VAR}.
var varRE = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// substitute replaces ${VAR} by env's VAR where env has it; others stay,
// for toolsearch to expand from its own environment.
func substitute(s string, env map[string]string, used map[string]bool) string {
	return varRE.ReplaceAllStringFunc(s, func(m string) string {
		name := m[2 : len(m)-1]
		if v, ok := env[name]; ok {
			used[name] = true
			return v
		}
		return m
	})
}

// unusedEnv names a variable of env the conversion did not consume, which
// the bridge (or its runtime: NODE_EXTRA_CA_CERTS, HTTPS_PROXY) may act
// on, or "".
func unusedEnv(env map[string]string, used map[string]bool) string {
	for _, k := range slices.Sorted(maps.Keys(env)) {
		if !used[k] {
			return k
		}
	}
	return ""
}
