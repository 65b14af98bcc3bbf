package hosts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Codex keeps servers in TOML, as [mcp_servers.NAME] tables of
// $CODEX_HOME/config.toml (~/.codex/config.toml) and of a trusted
// project's .codex/config.toml (the project's win): a command, args, an env
// table and env_vars to pass through, or a url with http_headers,
// env_http_headers and bearer_token_env_var; enabled, required,
// tool_timeout_sec and enabled_tools / disabled_tools.
var codex = &Host{
	Name:  "codex",
	Title: "Codex",
	locations: func(o Options) []Location {
		home := o.Getenv("CODEX_HOME")
		if home == "" {
			home = filepath.Join(o.Home, ".codex")
		}
		return projectThenUser(o, filepath.Join(".codex", "config.toml"), filepath.Join(home, "config.toml"))
	},
	read:    readCodex,
	snippet: codexSnippet,
	key: func(name string) string {
		return fmt.Sprintf("the [mcp_servers.%s] table (and its [mcp_servers.%s.*] tables)", name, name)
	},
	caveats: func(string, []string) []string {
		return []string{"Codex asks before it calls a tool that is not annotated read-only, and codex exec, which cannot ask, refuses the call (\"requires approval, but approval policy is never\"). " +
			"The snippet approves " + codexReadProxy + ", which reaches only upstream tools annotated read-only (tool_search is read-only itself); " +
			"uncomment the " + codexWriteProxy + " table to let calls that write but destroy nothing run unasked too; " + codexAnyProxy + " (destructive or unannotated tools) is left to Codex's approval mode"}
	},
}

// toolsearch's call proxies, by what the upstream tools they reach may do.
const (
	codexReadProxy  = "call_tool_read"  // annotated readOnlyHint; itself read-only
	codexWriteProxy = "call_tool_write" // writes that destroy nothing
	codexAnyProxy   = "call_tool"       // any tool, destructive or unannotated
)

// codexServer is one [mcp_servers.NAME] table.
type codexServer struct {
	Command           string            `toml:"command"`
	Args              []string          `toml:"args"`
	Env               map[string]string `toml:"env"`
	EnvVars           []string          `toml:"env_vars"`
	Cwd               string            `toml:"cwd"`
	URL               string            `toml:"url"`
	BearerTokenEnvVar string            `toml:"bearer_token_env_var"`
	HTTPHeaders       map[string]string `toml:"http_headers"`
	EnvHTTPHeaders    map[string]string `toml:"env_http_headers"`
	Enabled           *bool             `toml:"enabled"`
	Required          bool              `toml:"required"`
	StartupTimeoutSec any               `toml:"startup_timeout_sec"`
	ToolTimeoutSec    any               `toml:"tool_timeout_sec"`
	EnabledTools      []string          `toml:"enabled_tools"`
	DisabledTools     []string          `toml:"disabled_tools"`
}

func readCodex(data []byte, loc Location, _ Options) ([]Server, []string, error) {
	var doc struct {
		Servers map[string]toml.Primitive `toml:"mcp_servers"`
	}
	md, err := toml.Decode(string(data), &doc)
	if err != nil {
		return nil, nil, fmt.Errorf("not valid TOML: %v", err)
	}
	n := &notes{file: loc.Path}
	var out []Server
	for _, name := range slices.Sorted(maps.Keys(doc.Servers)) {
		var cs codexServer
		if err := md.PrimitiveDecode(doc.Servers[name], &cs); err != nil {
			n.add(name, "not imported: %v", err)
			continue
		}
		if s, ok := codexEntry(name, cs, n); ok {
			out = append(out, s)
		}
	}
	return out, n.list, nil
}

func codexEntry(name string, cs codexServer, n *notes) (Server, bool) {
	e := jsonEntry{Command: cs.Command, Args: cs.Args, Env: cs.Env, Cwd: cs.Cwd, URL: cs.URL}
	typ := "stdio"
	if cs.Command == "" && cs.URL != "" {
		typ = "http" // Codex speaks Streamable HTTP only
		e.Headers = map[string]string{}
		maps.Copy(e.Headers, cs.HTTPHeaders)
		for h, v := range cs.EnvHTTPHeaders {
			e.Headers[h] = "${" + v + "}"
		}
		if cs.BearerTokenEnvVar != "" {
			e.Headers["Authorization"] = "Bearer ${" + cs.BearerTokenEnvVar + "}"
		}
	}
	entry, ok := entryFrom(name, e, typ, cs.URL, func(s string) string { return s }, n)
	if !ok {
		return Server{}, false
	}
	set := Settings{Disabled: cs.Enabled != nil && !*cs.Enabled, Policy: toolFilter(cs.EnabledTools, cs.DisabledTools)}
	if d, ok := seconds(cs.ToolTimeoutSec); ok {
		set.Timeout = d
	} else if cs.ToolTimeoutSec != nil {
		n.add(name, "tool_timeout_sec %v is not a number of seconds: toolsearch's default timeout applies", cs.ToolTimeoutSec)
	}
	if cs.StartupTimeoutSec != nil {
		n.add(name, "startup_timeout_sec has no equivalent: toolsearch never waits for a server to start, and a call waits for a starting server up to its timeout")
	}
	return Server{Name: name, Entry: entry, Settings: set}, true
}

// seconds reads a TOML number of seconds.
func seconds(v any) (time.Duration, bool) {
	switch v := v.(type) {
	case int64:
		return time.Duration(v) * time.Second, v > 0
	case float64:
		return time.Duration(v * float64(time.Second)), v > 0
	}
	return 0, false
}

func codexSnippet(command string, args []string) string {
	var b bytes.Buffer
	b.WriteString("[mcp_servers.toolsearch]\n")
	enc := toml.NewEncoder(&b)
	enc.Indent = ""
	// required: Codex 0.171 gives an optional server about a second to
	// start before a turn's first request and leaves out the tools of one
	// still starting; every tool comes through toolsearch, so the turn waits
	// for it (and Codex says so when it cannot start).
	_ = enc.Encode(struct {
		Command  string   `toml:"command"`
		Args     []string `toml:"args"`
		Required bool     `toml:"required"`
	}{command, args, true})
	// Per-tool approval ([mcp_servers.NAME.tools.TOOL] approval_mode, one
	// of auto, prompt, approve), as Codex 0.171 reads it: "approve" runs the
	// tool without asking, in codex exec too.
	fmt.Fprintf(&b, `
# Calls of read-only upstream tools run without asking, in codex exec too.
[mcp_servers.toolsearch.tools.%s]
approval_mode = "approve"

# Uncomment to let calls that write but destroy nothing run unasked too.
# [mcp_servers.toolsearch.tools.%s]
# approval_mode = "approve"
`, codexReadProxy, codexWriteProxy)
	return b.String()
}

// codexCodeModeApproval ends the snippet of a configuration with code mode
// on: run_code_read's scripts call only what call_tool_read calls, so it
// runs unasked where that does.
var codexCodeModeApproval = fmt.Sprintf(`
# Code mode: scripts that call only read-only tools run without asking too.
[mcp_servers.toolsearch.tools.%s]
approval_mode = "approve"
`, CodeReadTool)

// codexProjectTrust says what Codex needs before it reads a project's
// .codex/config.toml: the project trusted in the user's config.toml, which
// its first interactive run there asks for. codex exec cannot ask, and
// serves the user's servers alone in a project it does not trust (as
// Codex 0.171 does).
func codexProjectTrust(project string) string {
	return fmt.Sprintf("Codex reads %s only in a project it trusts: trust the project when codex asks on its first run there, or add [projects.%q] with trust_level = \"trusted\" to ~/.codex/config.toml; until then codex exec there serves the toolsearch registered for every project",
		filepath.Join(project, ".codex", "config.toml"), project)
}

// jsonSnippet renders a configuration object as a file would hold it.
func jsonSnippet(v any) string {
	data, _ := json.MarshalIndent(v, "", "  ")
	return string(data) + "\n"
}

// ShellJoin joins words into a POSIX shell command line, quoting those
// that need it.
func ShellJoin(words ...string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@+,%") == "" {
			quoted[i] = w
			continue
		}
		quoted[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(quoted, " ")
}
