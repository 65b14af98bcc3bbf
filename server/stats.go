package server

import "github.com/modelcontextprotocol/go-sdk/mcp"

// attachStats counts the tokens of everything ms returns, per session.
func (s *Server) attachStats(ms *mcp.Server) {}
