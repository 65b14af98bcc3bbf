package hosts

import (
	"fmt"
	"path/filepath"
	"runtime"
)

// A server keeps the reach it had in the host: one the host gives every
// project stays in every project through a toolsearch registered for
// every project, and one a project has stays that project's through a
// toolsearch registered for that project alone (which serves the user's
// servers too, and wins over the other registration there, as a
// project's server wins over the user's in every host).

// Registration is how to register toolsearch with a host for a reach.
type Registration struct {
	Text  string // the snippet
	Where string // where it goes, a sentence ending in a colon
	// Path is the file it goes in; "" for a command to run (Claude Code).
	Path string
	// Notes say what else the host needs before it reads the snippet.
	Notes []string
}

// Register says how to register toolsearch (command and args) with the
// host named: for every project when project is "", else for the project
// folder alone. A host without per-project servers cannot do the second.
func Register(name, project string, command string, args []string, o Options) (Registration, error) {
	h, err := Find(name)
	if err != nil {
		return Registration{}, err
	}
	if h == claudeCode {
		if project == "" {
			return Registration{Text: ClaudeMCPAdd("user", command, args) + "\n",
				Where: "Run this (Claude Code's user scope: every project):"}, nil
		}
		return Registration{Text: ClaudeMCPAdd("local", command, args) + "\n",
			Where: fmt.Sprintf("Run this in %s (Claude Code's local scope: that project only, where it wins over the toolsearch registered for every project):", project)}, nil
	}
	o.Project = project
	want := "user"
	if project != "" {
		want = "project"
	}
	for _, l := range h.Locations(o) {
		if l.Scope != want {
			continue
		}
		reach := "every project"
		if project != "" {
			reach = "that project only, where it wins over the toolsearch registered for every project"
		}
		text := h.snippet(command, args)
		if h == codex && o.CodeMode {
			text += codexCodeModeApproval
		}
		var notes []string
		if h == codex && project != "" {
			notes = append(notes, codexProjectTrust(project))
		}
		return Registration{Text: text, Path: l.Path, Notes: notes,
			Where: fmt.Sprintf("Add this to %s (%s), merging it into what the file has:", l.Path, reach)}, nil
	}
	return Registration{}, fmt.Errorf("%s has no per-project servers: register toolsearch for every project (client-config %s, without --project)", h.Title, h.Name)
}

// RemoveHint says how to take a server toolsearch now fronts out of the
// host's configuration, where it was read (s.From, s.Scope): a command
// for Claude Code, whose file is its own, else the entry in the file.
// project is the folder whose servers were imported.
func RemoveHint(name string, s Server, project string) string {
	h, err := Find(name)
	if err != nil {
		return ""
	}
	if h == claudeCode && s.Scope != "file" {
		cmd := ShellJoin("claude", "mcp", "remove", "--scope", s.Scope, s.Name)
		if s.Scope == "local" {
			return fmt.Sprintf("%s   # in %s", cmd, project)
		}
		return cmd
	}
	key := "mcpServers." + s.Name
	if h.key != nil {
		key = h.key(s.Name)
	}
	return fmt.Sprintf("delete %s from %s", key, filepath.Clean(s.From))
}

// ProjectFolder is the folder the host files dir's own servers under: for
// Claude Code, its git repository's root (see claudeProjectKeys), so that
// a subfolder's import and registration are the project's; for the
// others, dir itself.
func ProjectFolder(name, dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	if name != claudeCode.Name {
		return abs
	}
	return filepath.FromSlash(claudeProjectKeys(abs, runtime.GOOS)[0])
}
