// Package protocol tells the MCP protocol eras apart. Protocol 2026-07-28
// changed what a server may do (no sessions, no tools/list that changes as
// a side effect, results that say how long they may be cached), and both
// the MCP surface and the Skills extension answer each request by the era
// it follows. This is the one place that decides which that is.
package protocol

import "github.com/modelcontextprotocol/go-sdk/mcp"

// Modern is the first protocol version of the stateless era, in which
// tools/list must not change as a side effect of other requests (SEP-2567).
const Modern = "2026-07-28"

// Version is the protocol a request follows: requests of 2026-07-28 and
// later name it in _meta; others follow the version their session
// negotiated. It is "" when neither says.
func Version(ss *mcp.ServerSession, meta mcp.Meta) string {
	if v, _ := meta[mcp.MetaKeyProtocolVersion].(string); v != "" {
		return v
	}
	if ss != nil {
		if p := ss.InitializeParams(); p != nil {
			return p.ProtocolVersion
		}
	}
	return ""
}

// IsModern reports whether a request follows protocol 2026-07-28 or later.
func IsModern(ss *mcp.ServerSession, meta mcp.Meta) bool {
	return Version(ss, meta) >= Modern
}

// IsLegacy reports whether a request follows a protocol before 2026-07-28:
// one that its session negotiated, or that it names.
func IsLegacy(ss *mcp.ServerSession, meta mcp.Meta) bool {
	v := Version(ss, meta)
	return v != "" && v < Modern
}
