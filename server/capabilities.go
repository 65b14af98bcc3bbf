package server

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/server/skillsext"
)

// capabilitiesMiddleware declares the resources and prompts capabilities
// (and completions, which complete their arguments) only when the catalog
// has something to serve through them, or may soon have: Claude Code and
// Codex give the model tools of their own to list and read the resources
// of every server that declares them, some 430 to 955 tokens on every
// request, and toolsearch's own stats resource is for people, not the
// model. Capabilities are told once, at initialize (or server/discover),
// and cannot follow the catalog as tools/list does: a server still
// starting without known features may bring any, so it keeps them
// declared; a server that adds its first resource later in the session is
// seen by the next one.
func (s *Server) capabilitiesMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		var caps *mcp.ServerCapabilities
		switch r := res.(type) {
		case *mcp.InitializeResult:
			caps = r.Capabilities
		case *mcp.DiscoverResult:
			caps = r.Capabilities
		}
		if caps != nil { // a copy of the server's own, made for this result
			resources, prompts := featuresWanted(s.Snapshot())
			if !resources {
				// The Skills extension requires resources: with neither
				// skills nor resources, it has nothing to serve either.
				caps.Resources = nil
				delete(caps.Extensions, skillsext.Name)
			}
			if !prompts {
				caps.Prompts = nil
			}
			if !resources && !prompts {
				caps.Completions = nil
			}
		}
		return res, err
	}
}

// featuresWanted says whether snap has resources and prompts to serve: the
// skills' (served as skill:// resources and as prompts), the upstreams',
// or possibly those of a server still starting whose catalog is unknown.
func featuresWanted(snap *catalog.Snapshot) (resources, prompts bool) {
	for _, src := range snap.Sources {
		if src.Kind == catalog.SourceServer && len(src.Entries) == 0 && (src.State == catalog.StateConnecting || src.State == catalog.StateValidating) {
			return true, true
		}
	}
	for _, e := range snap.Entries {
		if !e.Listed() {
			continue
		}
		switch e.Kind {
		case catalog.KindSkill:
			return true, true
		case catalog.KindPrompt:
			prompts = true
		case catalog.KindResource:
			resources = true
		}
	}
	return resources, prompts
}
