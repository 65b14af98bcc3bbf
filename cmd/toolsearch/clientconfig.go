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
	dir := fs.String("dir", "", "the configuration `FOLDER` to register (toolsearch.yaml, .mcp.json, skills/), as toolsearch init wrote it (default: the current folder when it holds a "+DefaultConfigFile+", else "+filepath.Dir(userConfigHint())+")")
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
	if *dir == "" {
		_, d, _, err := configFileFor("", true)
		if err != nil {
			return fmt.Errorf("%v: give --dir", err)
		}
		*dir = d
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

// whereSnippetGoes tells where to put a host's snippet: the user's file
// registers toolsearch for every project, a project's for that one. The
// configuration registered is the same from either: its paths are
// absolute.
func whereSnippetGoes(h *hosts.Host) string {
	if h.Name == "claude-code" {
		return "Run this in your project's folder (that project only; the note below registers it for every project):"
	}
	// A stand-in project folder, for the project files' names in it.
	project, _ := filepath.Abs("PROJECT")
	var user, others []string
	for _, l := range h.Locations(hosts.Options{Project: project}) {
		rel, err := filepath.Rel(project, l.Path)
		switch {
		case l.Scope == "user":
			user = append(user, l.Path+" (every project)")
		case l.Scope == "project" && err == nil && filepath.IsLocal(rel):
			others = append(others, rel+" in a project's folder (that project only)")
		default:
			others = append(others, fmt.Sprintf("%s (%s)", l.Path, l.Scope))
		}
	}
	files := append(user, others...)
	return fmt.Sprintf("Add this to %s, merging it into what the file has:", strings.Join(files, " or "))
}

// serveArgsFor is `serve` for the configuration in dir, named by absolute
// paths: hosts start servers in a folder of their own choosing (the
// user's project), whose own files serve never reads. toolsearch.yaml's
// paths are taken from its folder, and .mcp.json and skills/ beside it are
// its defaults, so --config alone names everything; a folder without one
// is named by its .mcp.json and skills/.
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
	} else {
		if skills := filepath.Join(abs, "skills"); fileExists(skills) {
			args = append(args, "--skills", skills)
		}
		if mcpConfig := filepath.Join(abs, ".mcp.json"); fileExists(mcpConfig) {
			args = append(args, "--mcp-config", mcpConfig)
		}
	}
	if len(args) == 1 {
		return nil, nil, fmt.Errorf("%s holds no toolsearch configuration (%s, .mcp.json or skills/): toolsearch init %s writes one (with --from HOST, importing a host's servers), or give --dir the folder init wrote", abs, DefaultConfigFile, hosts.ShellJoin(dir))
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
	return exe, "this toolsearch is a temporary build (go run): install it (go install ./cmd/toolsearch in a clone of toolsearch, or a release archive) and run client-config again"
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
