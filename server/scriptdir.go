package server

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/server/internal/protocol"
)

// rootsWait bounds how long a script waits for the client to list its
// roots before it runs where toolsearch was started instead.
const rootsWait = 2 * time.Second

// scriptDir is where a script run for this request works: the client's
// first root that is a folder on this machine, when Options.ScriptsInRoots
// asks for it and the client has roots; "" (the runner's own folder)
// otherwise. A host that starts toolsearch once for several projects, or
// over HTTP, names the project it works on in its roots; the folder the
// host started toolsearch in is only the best guess without them.
func (s *Server) scriptDir(ctx context.Context, req *mcp.CallToolRequest) string {
	if !s.opts.ScriptsInRoots || req == nil || req.Session == nil {
		return ""
	}
	ss := req.Session
	p := ss.InitializeParams()
	if p == nil || p.Capabilities == nil || p.Capabilities.RootsV2 == nil {
		return ""
	}
	// From 2026-07-28 on, roots are deprecated (SEP-2577) and a server
	// asks the client only within a request's own exchange: such a client
	// names no project, and the script runs where toolsearch was started.
	if protocol.IsModern(ss, req.Params.Meta) {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, rootsWait)
	defer cancel()
	res, err := ss.ListRoots(ctx, nil)
	if err != nil {
		s.log.Debug("the client's roots are unknown: the script runs where toolsearch was started", "err", err)
		return ""
	}
	for _, r := range res.Roots {
		if dir, ok := rootFolder(r.URI, runtime.GOOS); ok && isFolder(dir) {
			return dir
		}
	}
	return ""
}

// rootFolder is the local folder a root's file:// URI names, as goos
// spells it.
func rootFolder(uri, goos string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Host != "" && u.Host != "localhost" || u.Path == "" {
		return "", false
	}
	p := u.Path
	if goos == "windows" {
		// file:///C:/work is the folder C:\work.
		p = strings.ReplaceAll(strings.TrimPrefix(p, "/"), "/", `\`)
		if len(p) < 3 || p[1] != ':' || p[2] != '\\' {
			return "", false
		}
		return p, true
	}
	if !strings.HasPrefix(p, "/") {
		return "", false
	}
	return filepath.Clean(p), true
}

func isFolder(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}
