// Package hosts knows the MCP hosts (clients) toolsearch sits behind:
// where each keeps its servers, how to read that configuration into
// toolsearch's own .mcp.json, and how to register toolsearch with it.
//
// Each host has a format of its own: Claude Code and Claude Desktop write
// the Claude-style mcpServers object toolsearch reads; Cursor, Windsurf and
// Gemini CLI write mcpServers with other keys (serverUrl, httpUrl) and other
// variable syntaxes (${env:NAME}, $NAME); VS Code writes servers with a type
// and prompts for ${input:...} values; Codex writes TOML [mcp_servers.NAME]
// tables.
//
//	res, err := hosts.Import("vscode", hosts.Options{Project: dir})
//	for _, s := range res.Servers { ... s.Entry (for .mcp.json), s.Settings (for toolsearch.yaml) }
//	text, err := hosts.Snippet("codex", "/usr/local/bin/toolsearch", []string{"serve"})
package hosts

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// A Host is one MCP client.
type Host struct {
	Name  string // as given to --from and client-config: "claude-code"
	Title string // "Claude Code"
	// locations lists the files the host reads its servers from, the ones
	// that win a name clash first.
	locations func(o Options) []Location
	// read parses one of its files.
	read func(data []byte, loc Location, o Options) ([]Server, []string, error)
	// snippet registers toolsearch with it.
	snippet func(command string, args []string) string
	// caveats say what keeps the host from starting or using toolsearch
	// as registered, and what to do; nil when nothing does.
	caveats func(command string, args []string) []string
	// key is where a server sits in one of its files, for the removal
	// hints: "mcpServers.NAME", "[mcp_servers.NAME]".
	key func(name string) string
}

// Caveats says what keeps the host from starting or using toolsearch
// registered with command and args, and what to do about it.
func (h *Host) Caveats(command string, args []string) []string {
	if h.caveats == nil {
		return nil
	}
	return h.caveats(command, args)
}

// A Location is a configuration file of a host.
type Location struct {
	Path  string
	Scope string // "project", "user", "local" (Claude Code's per-project entries in ~/.claude.json) or "file" (--from-file)
}

// EveryProject reports whether the host gives a server configured in
// scope to every project ("user", and a file read with --from-file),
// rather than to one ("project", "local"). A server keeps that reach when
// toolsearch fronts it: init puts the first kind in the user's
// configuration and the second in the project's (see [Result.Split]).
func EveryProject(scope string) bool { return scope != "project" && scope != "local" }

// Options say where to look.
type Options struct {
	// Project is the project folder whose project-level configuration is
	// read (.cursor/mcp.json, .vscode/mcp.json, ...); empty reads only the
	// user's.
	Project string
	// File, when set, is read in the host's format instead of its
	// documented locations.
	File string
	// Home is the user's home folder; empty means os.UserHomeDir.
	Home string
	// GOOS chooses the platform's locations; empty means runtime.GOOS.
	GOOS string
	// Getenv reads the environment (APPDATA, XDG_CONFIG_HOME, CODEX_HOME);
	// nil means os.Getenv.
	Getenv func(string) string
	// CodeMode, for Register, says the configuration registered serves
	// code mode's tools: a snippet that approves call_tool_read approves
	// CodeReadTool too.
	CodeMode bool
}

func (o Options) withDefaults() Options {
	if o.Home == "" {
		o.Home, _ = os.UserHomeDir()
	}
	if o.GOOS == "" {
		o.GOOS = runtime.GOOS
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Project != "" {
		if abs, err := filepath.Abs(o.Project); err == nil {
			o.Project = abs
		}
	}
	return o
}

// A Server is one imported upstream server.
type Server struct {
	Name  string
	Entry Entry
	// Settings are what the host configured that toolsearch keeps in
	// toolsearch.yaml rather than .mcp.json.
	Settings Settings
	// From is the file it was read from, and Scope the scope it had there
	// (a Location's).
	From  string
	Scope string
}

// Entry is a server as toolsearch's .mcp.json writes it.
type Entry struct {
	Type    string            `json:"type"` // stdio, http or sse
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
}

// Settings are a server's settings in toolsearch.yaml.
type Settings struct {
	Disabled bool
	Timeout  time.Duration     // per call; zero means toolsearch's default
	Policy   map[string]string // glob -> callable | hidden
}

// IsZero reports whether there is nothing to write.
func (s Settings) IsZero() bool { return !s.Disabled && s.Timeout == 0 && len(s.Policy) == 0 }

// toolFilter turns a host's allow and deny lists of tool names into
// toolsearch policies: with an allow list, everything else is hidden.
func toolFilter(allow, deny []string) map[string]string {
	if len(allow) == 0 && len(deny) == 0 {
		return nil
	}
	p := map[string]string{}
	if len(allow) > 0 {
		p["*"] = "hidden"
		for _, t := range allow {
			p[t] = "callable"
		}
	}
	for _, t := range deny {
		p[t] = "hidden"
	}
	return p
}

var all = []*Host{claudeCode, claudeDesktop, cursor, vscode, windsurf, codex, gemini}

// Names lists the hosts, in the order they are documented.
func Names() []string {
	names := make([]string, len(all))
	for i, h := range all {
		names[i] = h.Name
	}
	return names
}

// Lookup finds a host by name.
func Lookup(name string) (*Host, bool) {
	i := slices.IndexFunc(all, func(h *Host) bool { return h.Name == name })
	if i < 0 {
		return nil, false
	}
	return all[i], true
}

// Find is Lookup for a name a person gave: an unknown one is an error that
// lists the hosts there are.
func Find(name string) (*Host, error) {
	if h, ok := Lookup(name); ok {
		return h, nil
	}
	return nil, fmt.Errorf("unknown host %q: want one of %s", name, strings.Join(Names(), ", "))
}

// Locations lists the files the host reads its servers from, those that
// win a name clash first.
func (h *Host) Locations(o Options) []Location {
	return h.locations(o.withDefaults())
}

// userConfigDir is where desktop applications keep their settings:
// %APPDATA% on Windows, ~/Library/Application Support on macOS,
// $XDG_CONFIG_HOME or ~/.config elsewhere.
func userConfigDir(o Options) string {
	switch o.GOOS {
	case "windows":
		if d := o.Getenv("APPDATA"); d != "" {
			return d
		}
		return filepath.Join(o.Home, "AppData", "Roaming")
	case "darwin":
		return filepath.Join(o.Home, "Library", "Application Support")
	}
	if d := o.Getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(o.Home, ".config")
}

// isToolsearch reports whether an entry starts toolsearch itself, which
// must not be imported: it would front itself.
func isToolsearch(e Entry) bool {
	base := strings.TrimSuffix(filepath.Base(e.Command), ".exe")
	return e.Type == "stdio" && base == "toolsearch"
}
