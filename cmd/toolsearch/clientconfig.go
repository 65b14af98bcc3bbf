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
	project := fs.String("project", "", "register toolsearch for the project `FOLDER` alone, with that project's configuration (the one init --from HOST --project FOLDER wrote, which includes yours; default: for every project, with yours)")
	perms := fs.Bool("permissions", false, "print instead the host's settings that let toolsearch's read-only tools (tool_search, call_tool_read, read_skill_file, and run_code_read with code mode on) run without asking")
	rest, err := parseArgs(fs, args, 1)
	if err != nil {
		return err
	}
	h, err := hosts.Find(rest[0])
	if err != nil {
		return err
	}
	if *project != "" {
		*project = hosts.ProjectFolder(h.Name, *project)
	}
	if *dir == "" {
		d, err := configDirToRegister(*project)
		if err != nil && !*perms {
			return err
		}
		*dir = d // the permissions of no configuration are those of code mode off
	}
	codeMode := *dir != "" && servesCodeMode(*dir)
	p, hasPerms := hosts.Permissions(h.Name, codeMode)
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
	reach, reachNotes := registrationReach(*dir, *project)
	notes = append(notes, reachNotes...)
	exe, note := toolsearchPath()
	if note != "" {
		notes = append(notes, note)
	}
	reg, err := hosts.Register(h.Name, reach, exe, serveArgs, hosts.Options{CodeMode: codeMode})
	if err != nil {
		return err
	}
	text := reg.Text
	notes = append(notes, reg.Notes...)
	fmt.Fprintln(errOut, reg.Where)
	if hasPerms {
		notes = append(notes, fmt.Sprintf("%s asks before each MCP tool, and its non-interactive mode refuses what it was not told to allow: `toolsearch client-config %s --permissions` prints the settings (%s) that let searches and read-only calls run unasked; writes and destructive calls keep asking", h.Title, h.Name, p.Path))
	}
	for _, n := range append(h.Caveats(exe, serveArgs), notes...) {
		fmt.Fprintln(errOut, "note: "+n)
	}
	_, err = io.WriteString(out, text)
	return err
}

// servesCodeMode reports whether the configuration in dir turns code mode
// on (codeMode in its toolsearch.yaml), so that the read-only tool it adds
// is allowed with the others. One that cannot be read serves nothing:
// serveArgsFor reports why.
func servesCodeMode(dir string) bool {
	cfg, err := loadConfig(filepath.Join(dir, DefaultConfigFile), false)
	return err == nil && cfg.CodeMode.Enabled
}

// noPermissions says why a host has no permission snippet.
func noPermissions(h *hosts.Host) string {
	if h.Name == "codex" {
		return "the registration snippet carries them (approval_mode of call_tool_read, and of run_code_read with code mode on)"
	}
	return h.Title + " has no per-tool permissions toolsearch knows of; its own settings decide"
}

// configDirToRegister is the configuration client-config registers when
// no --dir names one: the project's (under the user's folder) for
// --project, else the current folder's when it holds a toolsearch.yaml,
// else the user's.
func configDirToRegister(project string) (string, error) {
	if project == "" {
		_, d, _, err := configFileFor("", true)
		if err != nil {
			return "", fmt.Errorf("%v: give --dir", err)
		}
		return d, nil
	}
	user, err := userConfigDir()
	if err != nil {
		return "", fmt.Errorf("%v: give --dir", err)
	}
	d := projectConfigDir(user, project)
	if !fileExists(filepath.Join(d, DefaultConfigFile)) {
		return "", fmt.Errorf("no configuration of the project %s (looked in %s): toolsearch init --from HOST --project %s writes one when the host gives that project servers of its own; without any, the registration for every project (client-config HOST, without --project) serves it",
			absPath(project), d, hosts.ShellJoin(project))
	}
	return d, nil
}

// registrationReach is the project folder a registration of the
// configuration in dir is for, "" for every project: the project named,
// else the current folder for a project's configuration (one that
// includes another), else every project. A project's registration takes
// the place of the one for every project there (as a project's server
// wins over the user's in every host), so a configuration that does not
// include the user's gets a note.
func registrationReach(dir, project string) (string, []string) {
	cfg, err := loadConfig(filepath.Join(dir, DefaultConfigFile), false)
	if err != nil {
		return absPath(project), nil // serveArgsFor reported it
	}
	var notes []string
	if project == "" && cfg.Include != "" {
		project = "."
		notes = append(notes, fmt.Sprintf("%s includes %s: it is a project's configuration, registered for the current folder alone (--project FOLDER for another)", filepath.Join(dir, DefaultConfigFile), cfg.Include))
	}
	if project == "" {
		return "", notes
	}
	if user, err := userConfigDir(); err == nil && cfg.Include == "" && absPath(dir) != user && fileExists(filepath.Join(user, DefaultConfigFile)) {
		notes = append(notes, fmt.Sprintf("in %s this registration takes the place of the one for every project, and %s does not include your configuration, whose servers are then not there: add `include: %s` to it", absPath(project), filepath.Join(dir, DefaultConfigFile), filepath.Join(user, DefaultConfigFile)))
	}
	return absPath(project), notes
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
