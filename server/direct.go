package server

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/server/internal/protocol"
)

// legacySession reports whether the request comes from a session that
// negotiated protocol 2025-11-25 or older.
func legacySession(req *mcp.CallToolRequest) bool {
	return protocol.IsLegacy(req.Session, req.Params.GetMeta())
}

// syncDirectTools lists the always-loaded catalog tools directly in ms's
// tools/list, each with its full schema and proxied like call_tool, and
// drops the ones that went away. Promoted tools stay for the session, and
// follow their definitions: one whose change waits for approval is not
// listed until a person approves it, and is then listed as approved (read-
// only become destructive, say), since hosts decide by its annotations
// whether to ask before a call.
func (s *Server) syncDirectTools(ms *mcp.Server, snap *catalog.Snapshot) {
	want := map[string]*catalog.Entry{}
	for _, e := range snap.Entries {
		if e.AlwaysLoad && e.Listed() && e.Kind == catalog.KindTool && !e.Held() && listableName(e) {
			want[e.Name] = e
		}
	}
	s.mu.Lock()
	c := s.conns[ms]
	if c == nil {
		s.mu.Unlock()
		return
	}
	// A promoted tool's current definition, as promote would list it.
	current := maps.Clone(want)
	held := map[string]bool{}
	for name := range c.promoted {
		if e, ok := snap.Lookup(name); ok && e.Name == name {
			if promotable(e) {
				current[name] = e
			}
			held[name] = e.Held() // listed again once approved
		}
	}
	var add []*catalog.Entry
	for _, name := range slices.Sorted(maps.Keys(current)) {
		if e := current[name]; c.direct[name] != e.Digest {
			add = append(add, e)
		}
	}
	var remove []string
	for name := range c.direct {
		if _, ok := want[name]; !ok && (!c.promoted[name] || held[name]) {
			remove = append(remove, name)
			delete(c.direct, name)
			delete(c.tools, name)
		}
	}
	s.mu.Unlock()
	if len(remove) > 0 {
		ms.RemoveTools(remove...)
	}
	for _, e := range add {
		s.addDirectTool(ms, e)
	}
}

// promotable reports whether a tool may be listed directly for its session
// once tool_search returned it: a callable tool, not held, whose name model
// APIs accept.
func promotable(e *catalog.Entry) bool {
	return e.Kind == catalog.KindTool && e.Listed() && e.Policy != catalog.PolicyVisibleOnly && !e.Held() && listableName(e)
}

// listableName reports whether a tool's name may be listed to a host as a
// tool of its own: the catalog keeps names model APIs refuse (over 64
// characters, with dots), which only the call proxy reaches.
func listableName(e *catalog.Entry) bool {
	return catalog.CheckToolName(e.Name) == nil
}

// promote adds the callable tools of a search result to ms's tools/list.
func (s *Server) promote(ms *mcp.Server, res *SearchResult) {
	for _, it := range res.Results {
		e := it.entry
		if !promotable(e) || (it.Callable != nil && !*it.Callable) {
			continue
		}
		s.mu.Lock()
		c := s.conns[ms]
		known := c == nil || c.direct[e.Name] == e.Digest
		if c != nil {
			if c.promoted == nil {
				c.promoted = map[string]bool{}
			}
			c.promoted[e.Name] = true
		}
		s.mu.Unlock()
		if !known {
			s.addDirectTool(ms, e)
		}
	}
}

// addDirectTool registers a catalog tool under its exposed name. Calls go
// through the same checks as call_tool.
func (s *Server) addDirectTool(ms *mcp.Server, e *catalog.Entry) {
	def := *e.Exposed()
	def.Meta = maps.Clone(def.Meta)
	if def.Meta == nil {
		def.Meta = mcp.Meta{}
	}
	def.Meta["anthropic/alwaysLoad"] = true
	name := e.Name
	handler := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		snap := s.Snapshot()
		cur, ok := snap.Lookup(name)
		if !ok || cur.Kind != catalog.KindTool || !cur.Listed() {
			return errorResult(fmt.Sprintf("%s is no longer in the catalog; search again with tool_search", name)), nil
		}
		return s.relayCall(ctx, req, func(ctx context.Context) *mcp.CallToolResult {
			return s.forward(ctx, snap, cur, req.Params.Arguments)
		})
	}
	// AddTool panics on a schema that is not an object; an upstream's bad
	// schema must not take the server down.
	defer func() {
		if r := recover(); r != nil {
			s.log.Warn("cannot list tool directly", "tool", name, "err", r)
		}
	}()
	ms.AddTool(&def, handler)
	s.mu.Lock()
	if c := s.conns[ms]; c != nil {
		c.direct[name] = e.Digest
		c.tools[name] = true
	}
	s.mu.Unlock()
}
