package bridge

import (
	"strconv"
	"strings"
)

// The bridges' command lines, as their READMEs document them. Anything
// else on the line (a flag toolsearch has no equivalent for, a variable
// the bridge reads) keeps the bridge: the entry stays stdio, still counted
// as remote.

// flagValue splits --name=value, or takes the value from the next
// argument; next says how many arguments were used.
func flagValue(args []string, i int) (name, value string, next int) {
	if name, value, ok := strings.Cut(args[i], "="); ok && strings.HasPrefix(name, "--") {
		return name, value, i
	}
	if i+1 < len(args) {
		return args[i], args[i+1], i + 1
	}
	return args[i], "", i
}

// mcpRemote reads `mcp-remote URL [CALLBACK-PORT] [--header "N: V"]…
// [--transport http-first|http-only|sse-first|sse-only] [--allow-http]
// [--debug] [--silent]` (geelen/mcp-remote). Its OAuth (and the callback
// port it listens on) toolsearch does itself.
func mcpRemote(args []string, env map[string]string) Bridge {
	b := Bridge{Headers: map[string]string{}}
	used := map[string]bool{}
	transport := ""
	for i := 0; i < len(args) && b.Kept == ""; i++ {
		a := args[i]
		switch name := strings.SplitN(a, "=", 2)[0]; {
		case name == "--header":
			var h string
			_, h, i = flagValue(args, i)
			n, v, ok := header(h, env, used)
			if !ok {
				b.Kept = "one of its --header values is not Name: Value"
			}
			b.Headers[n] = v
		case name == "--transport":
			_, transport, i = flagValue(args, i)
		case a == "--allow-http" || a == "--debug" || a == "--silent":
		case strings.HasPrefix(a, "-"):
			b.Kept = "mcp-remote's " + name + " has no equivalent in an http entry"
		case b.URL == "" && isURL(a):
			b.URL = a
		case b.URL != "" && isPort(a):
		default:
			b.Kept = "mcp-remote's argument " + ordinal(i) + " has no equivalent in an http entry"
		}
	}
	switch transport {
	case "", "http-first", "sse-first":
		b.Type = typeOf(b.URL)
		if transport == "sse-first" {
			b.Type = "sse"
		}
	case "http-only":
		b.Type = "http"
	case "sse-only":
		b.Type = "sse"
	default:
		b.Kept = "mcp-remote's --transport " + quoteName(transport) + " is unknown"
	}
	if k := unusedEnv(env, used); k != "" && b.Kept == "" {
		b.Kept = "its env sets " + k + ", which mcp-remote (or Node, which runs it) reads and an http entry has no use for"
	}
	return b
}

// supergateway reads `supergateway --sse URL | --streamableHttp URL
// [--header "N: V"]… [--oauth2Bearer TOKEN] [--outputTransport stdio]
// [--logLevel L]` (supercorp-ai/supergateway): a remote server as stdio.
func supergateway(args []string, env map[string]string) Bridge {
	b := Bridge{Headers: map[string]string{}}
	used := map[string]bool{}
	for i := 0; i < len(args) && b.Kept == ""; i++ {
		var name, v string
		name, v, i = flagValue(args, i)
		switch name {
		case "--sse", "--streamableHttp":
			b.URL, b.Type = v, "sse"
			if name == "--streamableHttp" {
				b.Type = "http"
			}
			if !isURL(v) {
				b.Kept = "its " + name + " is not an http(s) URL"
			}
		case "--header":
			n, hv, ok := header(v, env, used)
			if !ok {
				b.Kept = "one of its --header values is not Name: Value"
			}
			b.Headers[n] = hv
		case "--oauth2Bearer":
			b.Headers["Authorization"] = "Bearer " + substitute(v, env, used)
		case "--outputTransport":
			if v != "stdio" {
				b.Kept = "its --outputTransport " + quoteName(v) + " serves rather than bridges"
			}
		case "--logLevel":
		default:
			what := quoteName(name)
			if !strings.HasPrefix(name, "-") {
				what = "argument " + ordinal(i)
			}
			b.Kept = "supergateway's " + what + " has no equivalent in an http entry"
		}
	}
	if k := unusedEnv(env, used); k != "" && b.Kept == "" {
		b.Kept = "its env sets " + k + ", which supergateway reads and an http entry has no use for"
	}
	return b
}

// mcpProxy reads `mcp-proxy [--headers NAME VALUE]… [--transport
// sse|streamablehttp] URL` (sparfenyuk/mcp-proxy, client mode), whose
// API_ACCESS_TOKEN variable is a bearer token. Its server mode (a command
// to serve over HTTP) names no URL and is kept.
func mcpProxy(args []string, env map[string]string) Bridge {
	b := Bridge{Type: "sse", Headers: map[string]string{}}
	used := map[string]bool{}
	for i := 0; i < len(args) && b.Kept == ""; i++ {
		a := args[i]
		switch name := strings.SplitN(a, "=", 2)[0]; {
		case (a == "--headers" || a == "-H") && i+2 < len(args):
			b.Headers[args[i+1]] = substitute(args[i+2], env, used)
			i += 2
		case name == "--transport":
			var t string
			_, t, i = flagValue(args, i)
			switch t {
			case "sse":
				b.Type = "sse"
			case "streamablehttp":
				b.Type = "http"
			default:
				b.Kept = "mcp-proxy's --transport " + quoteName(t) + " is unknown"
			}
		case a == "--debug":
		case strings.HasPrefix(a, "-"):
			b.Kept = "mcp-proxy's " + name + " has no equivalent in an http entry"
		case b.URL == "" && isURL(a):
			b.URL = a
		default:
			b.Kept = "mcp-proxy's argument " + ordinal(i) + " has no equivalent in an http entry"
		}
	}
	if tok, ok := env["API_ACCESS_TOKEN"]; ok {
		used["API_ACCESS_TOKEN"] = true
		b.Headers["Authorization"] = "Bearer " + tok
	}
	if k := unusedEnv(env, used); k != "" && b.Kept == "" {
		b.Kept = "its env sets " + k + ", which mcp-proxy reads and an http entry has no use for"
	}
	return b
}

// isPort reports whether s is a port number (mcp-remote's callback port).
func isPort(s string) bool {
	if s == "" || len(s) > 5 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// quoteName quotes an argument for a note, cut short: an argument may be
// long, and a header's value a secret, so only what comes before a colon
// or = is shown.
func quoteName(s string) string {
	if i := strings.IndexAny(s, ":="); i >= 0 {
		s = s[:i] + "…"
	}
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "…"
	}
	return `"` + s + `"`
}

// ordinal names an argument by its place after the bridge's name, not by
// its text, which may be a secret.
func ordinal(i int) string { return "#" + strconv.Itoa(i+1) }
