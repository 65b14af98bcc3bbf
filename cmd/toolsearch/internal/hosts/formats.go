package hosts

import (
	"encoding/json"
	"path/filepath"
	"regexp"
)

// Claude Code keeps user-scoped servers in ~/.claude.json under
// mcpServers, local-scoped ones (this project, this user) under
// projects[<project root>].mcpServers (see claudeProjectKeys), and
// project-scoped ones in the
// project's .mcp.json, which is toolsearch's own format: toolsearch reads it
// as it is. Local wins over user. Entries are Claude-style, as toolsearch's.
var claudeCode = &Host{
	Name:  "claude-code",
	Title: "Claude Code",
	locations: func(o Options) []Location {
		file := filepath.Join(o.Home, ".claude.json")
		return []Location{{file, "local"}, {file, "user"}}
	},
	read: func(data []byte, loc Location, o Options) ([]Server, []string, error) {
		if loc.Scope == "local" {
			if o.Project == "" {
				return nil, nil, nil
			}
			return readClaudeLocal(data, loc, o)
		}
		return readJSONServers(data, []string{"mcpServers"}, loc.Path, claudeEntry)
	},
	// Register gives the scope: user, or local for one project.
	snippet: func(command string, args []string) string { return ClaudeMCPAdd("", command, args) + "\n" },
}

// ClaudeMCPAdd is the `claude mcp add-json` command that registers command
// and args as the server toolsearch, in scope ("" for Claude Code's
// default, local). The JSON form, not `claude mcp add`, because only it
// sets alwaysLoad: Claude Code 2.1 starts its servers without waiting for
// them, and builds a turn's first request without the tools of one still
// starting; alwaysLoad makes it wait for toolsearch (up to its 5 s connect
// timeout), whose tools are the way to every other.
func ClaudeMCPAdd(scope, command string, args []string) string {
	words := []string{"claude", "mcp", "add-json"}
	if scope != "" {
		words = append(words, "--scope", scope)
	}
	if args == nil {
		args = []string{}
	}
	entry, _ := json.Marshal(struct {
		Type       string   `json:"type"`
		Command    string   `json:"command"`
		Args       []string `json:"args"`
		AlwaysLoad bool     `json:"alwaysLoad"`
	}{"stdio", command, args, true})
	return ShellJoin(append(words, "toolsearch", string(entry))...)
}

// Claude Desktop keeps its servers in claude_desktop_config.json, in the
// platform's application settings folder.
var claudeDesktop = &Host{
	Name:  "claude-desktop",
	Title: "Claude Desktop",
	locations: func(o Options) []Location {
		return []Location{{filepath.Join(userConfigDir(o), "Claude", "claude_desktop_config.json"), "user"}}
	},
	read: func(data []byte, loc Location, _ Options) ([]Server, []string, error) {
		return readJSONServers(data, []string{"mcpServers"}, loc.Path, claudeEntry)
	},
	snippet: func(command string, args []string) string { return mcpServersJSON(command, args) },
}

// claudeEntry reads a Claude-style entry: toolsearch's own format.
func claudeEntry(name string, e jsonEntry, n *notes) (Server, bool) {
	typ, u := e.Type, e.URL
	switch typ {
	case "":
		typ = "stdio"
		if e.Command == "" && u != "" {
			typ = "http"
		}
	case "streamable-http":
		typ = "http"
	}
	same := func(s string) string { return s }
	entry, ok := entryFrom(name, e, typ, u, same, n)
	return Server{Name: name, Entry: entry}, ok
}

// Cursor keeps servers in the project's .cursor/mcp.json and the user's
// ~/.cursor/mcp.json (the project's win), under mcpServers; a remote server
// is a url (Streamable HTTP or SSE), and values may use ${env:NAME},
// ${userHome} and ${workspaceFolder}.
var cursor = &Host{
	Name:  "cursor",
	Title: "Cursor",
	locations: func(o Options) []Location {
		return projectThenUser(o, filepath.Join(".cursor", "mcp.json"), filepath.Join(o.Home, ".cursor", "mcp.json"))
	},
	read: func(data []byte, loc Location, o Options) ([]Server, []string, error) {
		return readJSONServers(data, []string{"mcpServers"}, loc.Path, func(name string, e jsonEntry, n *notes) (Server, bool) {
			typ := e.Type
			if typ == "" || typ == "streamable-http" || typ == "streamableHttp" {
				typ = "stdio"
				if e.Command == "" && e.URL != "" {
					typ = urlType(e.URL)
				}
			}
			entry, ok := entryFrom(name, e, typ, e.URL, editorVars(name, o, n), n)
			return Server{Name: name, Entry: entry}, ok
		})
	},
	snippet: func(command string, args []string) string { return mcpServersJSON(command, args) },
}

// VS Code keeps servers in the workspace's .vscode/mcp.json and the user
// profile's mcp.json (the workspace's win), under servers, each with a type
// (stdio, http or sse); secrets are ${input:ID} values it asks for.
var vscode = &Host{
	Name:  "vscode",
	Title: "VS Code",
	locations: func(o Options) []Location {
		return projectThenUser(o, filepath.Join(".vscode", "mcp.json"), filepath.Join(userConfigDir(o), "Code", "User", "mcp.json"))
	},
	read: func(data []byte, loc Location, o Options) ([]Server, []string, error) {
		return readJSONServers(data, []string{"servers"}, loc.Path, func(name string, e jsonEntry, n *notes) (Server, bool) {
			typ := e.Type
			if typ == "" {
				typ = "stdio"
				if e.Command == "" && e.URL != "" {
					typ = "http"
				}
			}
			entry, ok := entryFrom(name, e, typ, e.URL, editorVars(name, o, n), n)
			return Server{Name: name, Entry: entry}, ok
		})
	},
	snippet: func(command string, args []string) string {
		return jsonSnippet(map[string]any{"servers": map[string]any{"toolsearch": Entry{Type: "stdio", Command: command, Args: args}}})
	},
	key: func(name string) string { return "servers." + name },
}

// Windsurf keeps servers in ~/.codeium/windsurf/mcp_config.json under
// mcpServers; a remote server is a serverUrl (or url), values may use
// ${env:NAME}, and a server can be disabled or have tools turned off.
var windsurf = &Host{
	Name:  "windsurf",
	Title: "Windsurf",
	locations: func(o Options) []Location {
		return []Location{{filepath.Join(o.Home, ".codeium", "windsurf", "mcp_config.json"), "user"}}
	},
	read: func(data []byte, loc Location, o Options) ([]Server, []string, error) {
		return readJSONServers(data, []string{"mcpServers"}, loc.Path, func(name string, e jsonEntry, n *notes) (Server, bool) {
			u := e.ServerURL
			if u == "" {
				u = e.URL
			}
			typ := "stdio"
			if e.Command == "" && u != "" {
				typ = urlType(u)
			}
			entry, ok := entryFrom(name, e, typ, u, editorVars(name, o, n), n)
			return Server{Name: name, Entry: entry, Settings: Settings{Disabled: e.Disabled, Policy: toolFilter(nil, e.DisabledTools)}}, ok
		})
	},
	snippet: func(command string, args []string) string { return mcpServersJSON(command, args) },
}

// Gemini CLI keeps servers in the project's .gemini/settings.json and the
// user's ~/.gemini/settings.json (the project's win), under mcpServers: a
// command, an httpUrl (Streamable HTTP) or a url (SSE); values may use $NAME
// or ${NAME}; a timeout in milliseconds and tool allow and deny lists.
var gemini = &Host{
	Name:  "gemini",
	Title: "Gemini CLI",
	locations: func(o Options) []Location {
		return projectThenUser(o, filepath.Join(".gemini", "settings.json"), filepath.Join(o.Home, ".gemini", "settings.json"))
	},
	read: func(data []byte, loc Location, o Options) ([]Server, []string, error) {
		return readJSONServers(data, []string{"mcpServers"}, loc.Path, func(name string, e jsonEntry, n *notes) (Server, bool) {
			typ, u := "stdio", ""
			switch {
			case e.Command != "":
			case e.HTTPURL != "":
				typ, u = "http", e.HTTPURL
			case e.URL != "":
				typ, u = "sse", e.URL
				if e.Type == "http" {
					typ = "http"
				}
			}
			vars := func(s string) string { return bareVarRE.ReplaceAllString(s, "$${$1}") }
			entry, ok := entryFrom(name, e, typ, u, vars, n)
			set := Settings{Timeout: millis(e.Timeout), Policy: toolFilter(e.IncludeTools, e.ExcludeTools)}
			return Server{Name: name, Entry: entry, Settings: set}, ok
		})
	},
	snippet: func(command string, args []string) string { return mcpServersJSON(command, args) },
	caveats: func(string, []string) []string {
		return []string{"with folder trust on (security.folderTrust.enabled in settings.json), Gemini CLI starts no MCP server, toolsearch included, in a folder it does not trust, and ignores that folder's .gemini/settings.json: trust the folder when Gemini CLI asks, or list it in ~/.gemini/trustedFolders.json; gemini mcp list shows the servers of an untrusted folder as Disabled"}
	},
}

// bareVarRE matches $NAME, which Gemini CLI expands and toolsearch writes
// ${NAME}.
var bareVarRE = regexp.MustCompile(`\$([A-Za-z_][A-Za-z0-9_]*)`)

// projectThenUser lists a project file (relative to the project) before
// the user's, when there is a project.
func projectThenUser(o Options, projectRel, user string) []Location {
	var locs []Location
	if o.Project != "" {
		locs = append(locs, Location{filepath.Join(o.Project, projectRel), "project"})
	}
	return append(locs, Location{user, "user"})
}

// mcpServersJSON is the registration of toolsearch in a Claude-style
// mcpServers object (Claude Desktop, Cursor, Windsurf, Gemini CLI).
func mcpServersJSON(command string, args []string) string {
	entry := struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}{command, args}
	return jsonSnippet(map[string]any{"mcpServers": map[string]any{"toolsearch": entry}})
}

// Snippet returns the text that registers toolsearch (command and args)
// with the host.
func Snippet(name, command string, args []string) (text string, err error) {
	h, err := Find(name)
	if err != nil {
		return "", err
	}
	return h.snippet(command, args), nil
}
