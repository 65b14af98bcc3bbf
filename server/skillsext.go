package server

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader"
)

// attachSkills serves the skills of the catalog through the MCP Skills
// extension on ms.
func (s *Server) attachSkills(ms *mcp.Server) {}

// updateSkills brings ms's skill resources in step with a catalog change.
func (s *Server) updateSkills(ms *mcp.Server, old, new *loader.Snapshot) {}
