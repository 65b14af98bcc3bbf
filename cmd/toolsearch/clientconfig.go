package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/toolsearch/toolsearch/cmd/toolsearch/internal/hosts"
)

func runClientConfig(_ context.Context, args []string, out io.Writer) error {
	return clientConfig(args, out, os.Stderr)
}

// clientConfig writes the snippet alone to out, so that it can be piped,
// and where it goes and anything to watch to errOut.
func clientConfig(args []string, out, errOut io.Writer) error {
	fs := newFlagSet("client-config", errOut)
	dir := fs.String("dir", ".", "the folder holding toolsearch's configuration (toolsearch.yaml, .mcp.json, skills/), as toolsearch init wrote it")
	perms := fs.Bool("permissions", false, "print instead the host's settings that let toolsearch's read-only tools (tool_search, call_tool_read, read_skill_file) run without asking")
	rest, err := parseArgs(fs, args, 1)
	if err != nil {
		return err
	}
	h, err := hosts.Find(rest[0])
	if err != nil {
		return err
	}
	p, hasPerms := hosts.Permissions(h.Name)
	if *perms {
		if !hasPerms {
			return fmt.Errorf("%s: no permission settings to print: %s", h.Name, noPermissions(h))
		}
		how := "Put this in %s, a file of its own:"
		if p.Merge {
			how = "Merge this into %s (add the names to the allow list it has):"
		}
		fmt.Fprintf(errOut, how+"\n", p.Path)
		_, err := io.WriteString(out, p.Text)
		return err
	}
	serveArgs, notes, err := serveArgsFor(*dir)
	if err != nil {
		return err
	}
	exe, note := toolsearchPath()
	if note != "" {
		notes = append(notes, note)
	}
	text, err := hosts.Snippet(h.Name, exe, serveArgs)
	if err != nil {
		return err
	}
	fmt.Fprintln(errOut, whereSnippetGoes(h))
	if hasPerms {
		notes = append(notes, fmt.Sprintf("%s asks before each MCP tool, and its non-interactive mode refuses what it was not told to allow: `toolsearch client-config %s --permissions` prints the settings (%s) that let searches and read-only calls run unasked; writes and destructive calls keep asking", h.Title, h.Name, p.Path))
	}
	for _, n := range append(h.Caveats(exe, serveArgs), notes...) {
		fmt.Fprintln(errOut, "note: "+n)
	}
	_, err = io.WriteString(out, text)
	return err
}

// noPermissions says why a host has no permission snippet.
func noPermissions(h *hosts.Host) string {
	if h.Name == "codex" {
		return "the registration snippet carries them (approval_mode of call_tool_read)"
	}
	return h.Title + " has no per-tool permissions toolsearch knows of; its own settings decide"
}

// whereSnippetGoes tells where to put a host's snippet.
func whereSnippetGoes(h *hosts.Host) string {
	if h.Name == "claude-code" {
		return "Run this in your project's folder:"
	}
	var files []string
	for _, l := range h.Locations(hosts.Options{Project: "."}) {
		files = append(files, fmt.Sprintf("%s (%s)", l.Path, l.Scope))
	}
	return fmt.Sprintf("Add this to %s, merging it into what the file has:", strings.Join(files, " or "))
}

// serveArgsFor is `serve` with absolute paths to the configuration in dir:
// hosts start servers in a folder of their own choosing, where relative
// paths would find nothing. Flags win over toolsearch.yaml, so its skill
// roots, MCP config and tool files are passed as flags, resolved as
// toolsearch resolves them when started in dir.
func serveArgsFor(dir string) (args, notes []string, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil, err
	}
	args = []string{"serve"}
	cfg := &Config{}
	if file := filepath.Join(abs, DefaultConfigFile); fileExists(file) {
		if cfg, err = loadConfig(file, true); err != nil {
			return nil, nil, err
		}
		args = append(args, "--config", file)
	}
	resolve := func(p string) string {
		p = expandHome(p)
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(abs, p)
	}
	skills := cfg.Skills
	if len(skills) == 0 && fileExists(filepath.Join(abs, "skills")) {
		skills = []string{"skills"}
	}
	for _, s := range skills {
		args = append(args, "--skills", resolve(s))
	}
	for _, t := range cfg.Tools {
		if ns, file, ok := strings.Cut(t, "="); ok {
			args = append(args, "--tools", ns+"="+resolve(file))
		} else {
			args = append(args, "--tools", resolve(t))
		}
	}
	mcpConfig := cfg.MCPConfig
	if mcpConfig == "" && fileExists(filepath.Join(abs, ".mcp.json")) {
		mcpConfig = ".mcp.json"
	}
	if mcpConfig != "" {
		args = append(args, "--mcp-config", resolve(mcpConfig))
	}
	for key, p := range map[string]string{"trace": cfg.Trace, "http.tokenFile": cfg.HTTP.TokenFile} {
		if p != "" && !filepath.IsAbs(expandHome(p)) {
			notes = append(notes, fmt.Sprintf("%s in %s is the relative path %s: the host's working folder is not %s, so make it absolute", key, DefaultConfigFile, p, abs))
		}
	}
	if len(args) == 1 {
		notes = append(notes, fmt.Sprintf("%s holds no toolsearch configuration: run toolsearch init there first, or give --dir", abs))
	}
	if cfg.LogLevel == "" {
		// Hosts log what a server writes to stderr as errors, and toolsearch
		// relays its upstreams' stderr at info.
		args = append(args, "--log-level", "warn")
	}
	return args, notes, nil
}

// toolsearchPath is the absolute path of this toolsearch. A binary that
// `go run` built in a temporary folder is gone when it ends: then the one
// on PATH, if any, is named, with a note.
func toolsearchPath() (path, note string) {
	exe := selfExecutable()
	temporary := exe == "" || strings.Contains(exe, string(filepath.Separator)+"go-build")
	if !temporary {
		return exe, ""
	}
	if p, err := exec.LookPath("toolsearch"); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs, ""
		}
	}
	return exe, "this toolsearch is a temporary build (go run): install it (go install github.com/toolsearch/toolsearch/cmd/toolsearch@latest) and run client-config again"
}

// expandHome expands a leading ~/ to the user's home folder.
func expandHome(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, p[1:])
		}
	}
	return p
}
