package main

import (
	"os"
	"strconv"
	"sync"

	"github.com/toolsearch/toolsearch/internal/procfs"
	"github.com/toolsearch/toolsearch/internal/supervise"
	"github.com/toolsearch/toolsearch/loader/problem"
	"github.com/toolsearch/toolsearch/loader/upstream"
)

// A toolsearch started by another (an entry of the outer one's .mcp.json
// that runs it, directly or through a wrapper script, `sh -c`, npx, …)
// starts no stdio server of its own: withoutSelf recognises an entry that
// starts toolsearch by its command, which an indirection hides, and one
// level of nesting that serves skills and remote servers is all anybody
// needs. It still serves, so that the outer one sees an upstream that
// works and says why its servers are missing, instead of one it restarts
// for ever. So a chain is at most two deep, whatever the indirection.

// maxAncestors bounds the walk up the process tree.
const maxAncestors = 64

// nestedReason says how this process knows that a toolsearch started it,
// or is "" when none did. It is asked once: the answer cannot change.
var nestedReason = sync.OnceValue(func() string {
	if pid, ok := os.LookupEnv(upstream.ParentEnv); ok {
		return "its environment holds " + upstream.ParentEnv + "=" + pid + ", which toolsearch sets for the servers it starts"
	}
	return supervisedAncestor()
})

// supervisedAncestor names the ancestor of this process that is the
// supervisor toolsearch starts each server under, where /proc shows the
// process tree (Linux): a wrapper that cleared the environment (env -i,
// sudo) cannot hide it. Elsewhere it finds nothing.
func supervisedAncestor() string {
	pid := os.Getppid()
	for range maxAncestors {
		if pid <= 1 {
			return ""
		}
		if name, err := procfs.Argv0(pid); err == nil && name == supervise.SupervisorName {
			return "process " + strconv.Itoa(pid) + ", above it, is the " + supervise.SupervisorName + " that toolsearch starts servers under"
		}
		st, err := procfs.ReadStat(pid)
		if err != nil {
			return ""
		}
		pid = st.PPID
	}
	return ""
}

// withoutStdioWhenNested leaves out every stdio entry of the .mcp.json at
// path when reason says that a toolsearch started this one, each with a
// problem that says why and what to do.
func withoutStdioWhenNested(path string, servers []upstream.ServerConfig, reason string) ([]upstream.ServerConfig, problem.Problems) {
	if reason == "" {
		return servers, nil
	}
	var (
		kept  []upstream.ServerConfig
		probs problem.Problems
	)
	for _, s := range servers {
		if s.Type != upstream.TypeStdio {
			kept = append(kept, s)
			continue
		}
		probs = append(probs, problem.Problem{File: path, Field: "mcpServers." + s.Name, Severity: problem.SeverityError,
			Message: "mcpServers." + s.Name + ": not started: this toolsearch was started by another toolsearch (" + reason + "), " +
				"and a toolsearch inside toolsearch starts no stdio server, so that it cannot start itself again through a script or shell; " +
				"list the server in the outer toolsearch's .mcp.json instead"})
	}
	return kept, probs
}
