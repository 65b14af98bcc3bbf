package upstream

import (
	"github.com/toolsearch/toolsearch/internal/bridge"
)

// Remote reports whether the server's definitions come from a server
// elsewhere rather than a program the user installed: an HTTP or SSE
// entry, or a stdio entry that bridges to one (mcp-remote, supergateway,
// mcp-proxy, or any command whose arguments name an http(s) URL; see
// internal/bridge). A remote server's first listing waits for a person by
// default (trust.DefaultRemoteMode), and until then none of its tools is
// called through call_tool_read on its own readOnlyHint. An http or sse
// entry whose operator marked it "bridge": true (LocalBridge) reaches
// `toolsearch bridge` in front of a local program, and is not remote.
func (c ServerConfig) Remote() bool {
	switch c.Type {
	case TypeHTTP, TypeSSE:
		return !c.LocalBridge
	case TypeStdio:
		_, ok := bridge.Of(c.Command, c.Args, c.Env)
		return ok
	}
	return false
}

// noteBridge is the hint an entry that bridges to a remote server gets on
// its catalog source, so that `catalog` and the status page say why its
// first listing waits; "" for any other entry.
func noteBridge(c ServerConfig) string {
	b, ok := bridge.Of(c.Command, c.Args, c.Env)
	if !ok {
		return ""
	}
	via := "its arguments name a URL"
	if b.Program != "" {
		via = "it runs " + b.Program
	}
	if b.URL != "" {
		via += " to " + redactURL(b.URL)
	}
	msg := "a bridge to a remote server (" + via + "): it counts as remote, so its first listing waits for a person unless its settings name a quarantine mode"
	if b.Type != "" {
		msg += "; the bridge adds nothing here, and `type: " + b.Type + "` with its URL and headers would do without it"
	}
	return msg
}
