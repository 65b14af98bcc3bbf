package server

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader/catalog"
)

// ownTools are toolsearch's tools other than tool_search, in the order
// they are added. Each is listed only while it has something to do: every
// tool of tools/list costs every request of every session its definition
// (read_skill_file and run_skill_script alone some 430 tokens), and a tool
// that can only refuse tempts the model to try it.
var ownTools = []string{CallToolRead, CallToolWrite, CallTool, ReadSkillFile, RunScript, RunCodeRead, RunCode}

// ownToolsWanted says which of ownTools have something to do in snap.
func ownToolsWanted(snap *catalog.Snapshot) map[string]bool {
	want := proxiesWanted(snap)
	for _, e := range snap.Entries {
		if e.Kind == catalog.KindSkill && e.Listed() {
			want[ReadSkillFile], want[RunScript] = true, true
			break
		}
	}
	return want
}

// syncOwnTools adds to ms's tools/list the own tools that want has
// (ownToolsWanted of the current snapshot) and removes those it has not;
// each change sends notifications/tools/list_changed.
func (s *Server) syncOwnTools(ms *mcp.Server, want map[string]bool) {
	s.mu.RLock()
	c := s.conns[ms]
	s.mu.RUnlock()
	if c == nil {
		return
	}
	// Two catalog changes may sync one connection at once: the second must
	// not undo the first's tools/list after deciding from its bookkeeping.
	c.ownMu.Lock()
	defer c.ownMu.Unlock()
	var add, remove []string
	s.mu.Lock()
	for _, name := range ownTools {
		switch {
		case want[name] && !c.tools[name]:
			add = append(add, name)
			c.tools[name] = true
		case !want[name] && c.tools[name]:
			remove = append(remove, name)
			delete(c.tools, name)
		}
	}
	s.mu.Unlock()
	if len(remove) > 0 {
		ms.RemoveTools(remove...)
	}
	for _, name := range add {
		ms.AddTool(s.ownTool(name))
	}
}

// ownTool returns the definition and the handler of one of ownTools.
func (s *Server) ownTool(name string) (*mcp.Tool, mcp.ToolHandler) {
	switch name {
	case ReadSkillFile:
		return readSkillFileTool(), s.handleReadSkillFile
	case RunScript:
		return runScriptTool(), s.handleRunScript
	case RunCodeRead, RunCode:
		return codeTool(name), s.codeHandler(name)
	}
	for _, p := range proxies {
		if p.name == name {
			return p.tool(), s.proxyHandler(p)
		}
	}
	panic("server: no own tool " + name)
}

// ownToolsListed names the tools of toolsearch's own that ms lists.
func (s *Server) ownToolsListed(ms *mcp.Server) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	names := []string{ToolSearch}
	if c := s.conns[ms]; c != nil {
		for _, name := range ownTools {
			if c.tools[name] {
				names = append(names, name)
			}
		}
	}
	return names
}
