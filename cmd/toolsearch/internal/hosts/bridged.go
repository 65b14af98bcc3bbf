package hosts

import (
	"maps"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/internal/bridge"
)

// unbridge rewrites a stdio entry that only bridges to a remote server
// (`npx -y mcp-remote URL`, what Claude Desktop needed before it spoke
// HTTP itself) as the http or sse entry it stands for: toolsearch speaks
// both, sends the headers and does the OAuth the bridge did, and one
// process fewer runs. A bridge that adds something toolsearch cannot (a
// static OAuth client, a variable it reads) stays as it is, with a note:
// toolsearch counts it as remote either way, so its first listing waits
// for a person.
func unbridge(name string, e Entry, n *notes) Entry {
	if e.Type != "stdio" {
		return e
	}
	b, ok := bridge.Of(e.Command, e.Args, e.Env)
	if !ok {
		return e
	}
	if b.Type == "" {
		n.add(name, "kept as a stdio entry, which toolsearch counts as a remote server (its first listing waits for approval): %s", b.Kept)
		return e
	}
	out := Entry{Type: b.Type, URL: b.URL}
	what := "its URL"
	if len(b.Headers) > 0 {
		out.Headers = b.Headers
		what += " and headers (" + strings.Join(slices.Sorted(maps.Keys(b.Headers)), ", ") + ")"
	}
	n.add(name, "%s only bridged to a remote server: imported as an %s entry with %s, which toolsearch reaches itself", b.Program, b.Type, what)
	return out
}
