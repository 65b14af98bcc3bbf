package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/toolsearch/toolsearch/cmd/toolsearch/internal/hosts"
	"github.com/toolsearch/toolsearch/loader/problem"
	"github.com/toolsearch/toolsearch/loader/upstream"
)

func runInit(_ context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("init", os.Stderr)
	from := fs.String("from", "", "import the MCP servers of `HOST` ("+strings.Join(hosts.Names(), ", ")+"): the user's into DIR, the project's (see --project) into a configuration of the project's own, under DIR/"+projectsFolder)
	fromFile := fs.String("from-file", "", "with --from, read this `FILE` in the host's format instead of its usual locations")
	// The project is where the user stands, not DIR: DIR is often a folder
	// of toolsearch's own (~/.config/toolsearch), which no host has servers
	// for.
	project := fs.String("project", ".", "with --from, the project `FOLDER` whose own servers (Claude Code's local scope, .codex/config.toml, .gemini/settings.json, .vscode/mcp.json, ...) are imported, into a configuration for that project alone")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 1 || *fromFile != "" && *from == "" {
		fs.Usage()
		return errUsage
	}
	// By default, the folder serve reads when it is given no --config.
	dir := ""
	if len(rest) == 1 {
		dir = rest[0]
	} else if dir, err = userConfigDir(); err != nil {
		return fmt.Errorf("%v: give the folder to write in (toolsearch init DIR)", err)
	}
	var imported *hosts.Result
	var everyProject, projects []hosts.Server
	if *from != "" {
		imported, err = hosts.Import(*from, hosts.Options{Project: *project, File: *fromFile})
		if err != nil {
			return err
		}
		everyProject, projects = imported.Split()
		*project = hosts.ProjectFolder(*from, *project)
	}
	// Every plan is made before anything is written: a refusal leaves
	// every folder as it was.
	plans := []*initPlan{}
	plan, err := planInit(dir, *from, imported, everyProject, "")
	if err != nil {
		return err
	}
	plans = append(plans, plan)
	if len(projects) > 0 {
		own, err := planInit(projectConfigDir(absPath(dir), *project), *from, imported, projects, absPath(*project))
		if err != nil {
			return err
		}
		plans = append(plans, own)
	}
	for _, p := range plans {
		if err := p.write(out); err != nil {
			return err
		}
	}
	report(out, *from, absPath(*project), imported, plans)
	return nil
}

// initPlan is what init will write in one folder, decided before anything
// is written so that a refusal leaves the folder as it was: the user's
// configuration, or a project's.
type initPlan struct {
	dir      string
	host     string
	imported *hosts.Result
	// servers are the imported servers that go in this folder.
	servers []hosts.Server
	// project is the project folder whose configuration this is; "" for
	// the user's, whose servers reach every project.
	project string
	// userFile is the user's toolsearch.yaml a project's includes.
	userFile string
	files    []initFile
	kept     []string
	// settings are the imported servers' settings that could not go into
	// a toolsearch.yaml that already exists.
	settings string
}

type initFile struct {
	path string // relative to dir
	data []byte
	mode os.FileMode
}

// planInit plans the files of a configuration folder: the user's (project
// "") with a skills/ folder, or project's, which includes the user's.
func planInit(dir, host string, imported *hosts.Result, servers []hosts.Server, project string) (*initPlan, error) {
	p := &initPlan{dir: dir, host: host, imported: imported, servers: servers, project: project}
	if project != "" {
		p.userFile = filepath.Join(filepath.Dir(filepath.Dir(absPath(dir))), DefaultConfigFile)
	}
	exists := func(rel string) bool {
		_, err := os.Lstat(filepath.Join(dir, rel))
		return err == nil
	}
	settings := serverSettingsYAML(servers)
	if exists(DefaultConfigFile) {
		p.kept = append(p.kept, DefaultConfigFile)
		p.settings = settings
	} else {
		head := initConfigYAML
		if project != "" {
			head = projectConfigYAML(project, p.userFile)
		}
		p.files = append(p.files, initFile{DefaultConfigFile, []byte(head + settings), 0o644})
	}
	if exists(".mcp.json") {
		if len(servers) > 0 {
			names := make([]string, len(servers))
			for i, s := range servers {
				names[i] = s.Name
			}
			again := fmt.Sprintf("toolsearch init DIR --from %s, then --config DIR/%s", host, DefaultConfigFile)
			if project != "" {
				again = "move the folder aside and run init again"
			}
			return nil, fmt.Errorf("%s exists, and init never overwrites a file: the %s imported from %s (%s) would be lost. Move it aside, or init another folder (%s)",
				filepath.Join(dir, ".mcp.json"), plural(len(servers), "server"), host, strings.Join(names, ", "), again)
		}
		p.kept = append(p.kept, ".mcp.json")
	} else {
		mode := os.FileMode(0o644)
		for _, s := range servers {
			if len(s.Entry.Env) > 0 || len(s.Entry.Headers) > 0 {
				mode = 0o600 // it may carry tokens
			}
		}
		p.files = append(p.files, initFile{".mcp.json", hosts.MCPConfig(servers), mode})
	}
	switch {
	case project != "":
		// The user's skills come with the include.
	case exists("skills"):
		p.kept = append(p.kept, "skills")
	default:
		p.files = append(p.files,
			initFile{"skills/example/SKILL.md", []byte(exampleSkill), 0o644},
			initFile{"skills/example/scripts/hello.sh", []byte(exampleScript), 0o755})
	}
	return p, nil
}

// write creates the planned files, never replacing one (O_EXCL), and says
// what it did.
func (p *initPlan) write(out io.Writer) error {
	for _, f := range p.files {
		path := filepath.Join(p.dir, f.path)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, f.mode)
		if errors.Is(err, fs.ErrExist) {
			fmt.Fprintf(out, "kept   %s (it appeared meanwhile)\n", path)
			continue
		}
		if err != nil {
			return err
		}
		_, err = fh.Write(f.data)
		if cerr := fh.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "wrote  %s%s\n", path, p.describe(f.path))
	}
	for _, k := range p.kept {
		fmt.Fprintf(out, "kept   %s (it exists; init never overwrites a file)\n", filepath.Join(p.dir, k))
	}
	if p.settings != "" {
		fmt.Fprintf(out, "\nAdd the imported servers' settings to %s:\n%s", filepath.Join(p.dir, DefaultConfigFile), p.settings)
	}
	return nil
}

// describe says what a written file holds, and for whom.
func (p *initPlan) describe(rel string) string {
	switch {
	case rel == DefaultConfigFile && p.project != "":
		return fmt.Sprintf(" (the configuration of %s: its own servers, and it includes %s)", p.project, p.userFile)
	case rel != ".mcp.json" || p.imported == nil:
		return ""
	}
	h, _ := hosts.Lookup(p.host)
	names := make([]string, len(p.servers))
	for i, s := range p.servers {
		names[i] = s.Name
	}
	reach := "every project"
	if p.project != "" {
		reach = p.project + " alone"
	}
	list := ""
	if len(names) > 0 {
		list = ": " + strings.Join(names, ", ")
	}
	return fmt.Sprintf(" (%s from %s, which it gives %s%s)", plural(len(p.servers), "server"), h.Title, reach, list)
}

// report lists what the import could not carry over, what toolsearch
// thinks of the new .mcp.json files, the next steps, and which entries to
// take out of which of the host's files.
func report(out io.Writer, host, project string, imported *hosts.Result, plans []*initPlan) {
	var notes []string
	if imported != nil {
		notes = append(notes, imported.Notes...)
		h, _ := hosts.Lookup(host)
		switch {
		case len(imported.Read) == 0:
			var where []string
			for _, l := range h.Locations(hosts.Options{Project: project}) {
				where = append(where, l.Path)
			}
			notes = append(notes, fmt.Sprintf("no %s configuration found (looked in %s): .mcp.json has no servers", h.Title, strings.Join(slices.Compact(where), ", ")))
		case len(imported.Servers) == 0:
			notes = append(notes, fmt.Sprintf("no %s servers found in %s for the project %s: .mcp.json has no servers", h.Title, strings.Join(imported.Read, ", "), project))
		}
	}
	for _, p := range plans {
		if !slices.ContainsFunc(p.files, func(f initFile) bool { return f.path == ".mcp.json" }) {
			continue
		}
		_, probs, err := upstream.LoadConfig(filepath.Join(p.dir, ".mcp.json"))
		if err != nil {
			notes = append(notes, err.Error())
		}
		for _, pr := range probs {
			if pr.Severity >= problem.SeverityWarning {
				notes = append(notes, pr.String())
			}
		}
	}
	if len(notes) > 0 {
		fmt.Fprintf(out, "\nNotes:\n")
		for _, n := range notes {
			fmt.Fprintf(out, "  %s\n", n)
		}
	}
	if host == "" {
		host = "HOST"
	}
	user := plans[0]
	// The commands name the folder unless it is the one they read anyway
	// (the user's, from a folder without a toolsearch.yaml of its own).
	abs := absPath(user.dir)
	config, dirFlag := "", ""
	userDir, err := userConfigDir()
	if err != nil || abs != userDir || fileExists(DefaultConfigFile) && absPath(".") != abs {
		config = " --config " + hosts.ShellJoin(filepath.Join(abs, DefaultConfigFile))
		dirFlag = " --dir " + hosts.ShellJoin(abs)
	}
	fmt.Fprintf(out, "\nNext:\n  toolsearch catalog%s   # what toolsearch serves in every project, with each server's state\n", config)
	fmt.Fprintf(out, "  toolsearch client-config %s%s   # how to register it with %s for every project\n", host, dirFlag, hostTitle(host))
	for _, p := range plans[1:] {
		own := " --config " + hosts.ShellJoin(filepath.Join(absPath(p.dir), DefaultConfigFile))
		names := make([]string, len(p.servers))
		for i, s := range p.servers {
			names[i] = s.Name
		}
		fmt.Fprintf(out, "  toolsearch catalog%s   # what it serves in %s: those and the project's\n", own, p.project)
		fmt.Fprintf(out, "  toolsearch approve%s %s   # the project's servers wait for your approval, as remote ones do (toolsearch review%s shows them)\n", own, hosts.ShellJoin(names...), own)
		projectDir := ""
		if abs != userDir {
			projectDir = " --dir " + hosts.ShellJoin(absPath(p.dir))
		}
		fmt.Fprintf(out, "  toolsearch client-config %s --project %s%s   # how to register it for %s alone, with the project's servers\n", host, hosts.ShellJoin(p.project), projectDir, p.project)
	}
	if imported != nil && len(imported.Servers) > 0 {
		h, _ := hosts.Lookup(host)
		fmt.Fprintf(out, "\nOnce toolsearch is registered, take out of %s what it now fronts, each where it was, so that the model does not get their tools twice:\n", h.Title)
		for _, p := range plans {
			for _, s := range p.servers {
				fmt.Fprintf(out, "  %s\n", hosts.RemoveHint(host, s, project))
			}
		}
		fmt.Fprintf(out, "Leave the rest: a server init did not import (another project's) stays where it is.\n")
	}
	fmt.Fprintf(out, "\nThe snippets name %s by its absolute path, so the host may start toolsearch in any project: the paths in it are taken from its folder, skill scripts run in the host's project, and a project's own .mcp.json is never read unless named.\n", DefaultConfigFile)
}

func hostTitle(name string) string {
	if h, ok := hosts.Lookup(name); ok {
		return h.Title
	}
	return "your MCP host (" + strings.Join(hosts.Names(), ", ") + ")"
}

// serverSettingsYAML is the servers section of toolsearch.yaml for what the
// host configured beyond how to start a server (timeouts, disabled
// servers, tool filters); empty when there is nothing.
func serverSettingsYAML(servers []hosts.Server) string {
	type settings struct {
		Disabled bool              `yaml:"disabled,omitempty"`
		Timeout  string            `yaml:"timeout,omitempty"`
		Policy   map[string]string `yaml:"policy,omitempty"`
	}
	section := map[string]settings{}
	for _, s := range servers {
		if s.Settings.IsZero() {
			continue
		}
		set := settings{Disabled: s.Settings.Disabled, Policy: s.Settings.Policy}
		if s.Settings.Timeout > 0 {
			set.Timeout = s.Settings.Timeout.String()
		}
		section[s.Name] = set
	}
	if len(section) == 0 {
		return ""
	}
	data, err := yaml.Marshal(map[string]any{"servers": section})
	if err != nil {
		return ""
	}
	return "\n# Imported from the host's configuration.\n" + string(data)
}

// initConfigYAML is the toolsearch.yaml init writes: every setting, most of
// them commented out at their defaults.
const initConfigYAML = `# toolsearch configuration: every setting has a flag too, and flags win.
# Relative paths are taken from this file's folder, wherever toolsearch runs.

# Skill roots: folders of SKILL.md folders. The first root wins a name clash.
skills: [./skills]

# The upstream MCP servers, Claude-style (toolsearch init --from HOST imports
# them from another host's configuration).
mcpConfig: ./.mcp.json

# Static tool catalogs, searchable but not callable (FILE or NS=FILE).
# tools: [./dumps/github.json]

# Tokens for the up-front listing of every entry, and for one search result.
# listingBudget: 500
# resultBudget: 8000

# Skill scripts, run by run_skill_script.
# workdir: ~/src/project      # where scripts run (default: the host's project:
#                             # its MCP roots, else where the host started toolsearch)
# scripts:
#   disabled: false
#   timeout: 60s
#   env: [GOPATH]             # passed besides PATH, HOME, LANG, LC_*, TMPDIR, TZ

# serve --http: Streamable HTTP and the status page.
# http:
#   addr: 127.0.0.1:7777
#   tokenFile: ./token        # required to bind beyond loopback

# How long a call waits for an upstream server that is still starting.
# connectWait: 10s

# How long the host's first tools/list waits for servers toolsearch has never
# listed (a very first start), so that their tools are in its first request.
# firstListWait: 2s           # 0: answer at once

# logLevel: info

# Per upstream server, by its name in mcpConfig:
# servers:
#   github:
#     timeout: 30s            # per call (default 60s)
#     connectWait: 20s        # overrides the one above for this server
#     alwaysLoad: ["get_issue"]
#     policy:                 # glob -> callable | visible_only | hidden
#       "delete_*": visible_only
`

const exampleSkill = `---
name: example
description: An example skill to copy when writing your own. Use when the user asks how toolsearch skills work, wants to write a skill, or says hello to check the setup.
---
# Example skill

A skill is a folder holding this SKILL.md: the frontmatter above (its name
must be the folder's name; its description says what the skill does and when
to use it, in the user's words), then these instructions, which the model
reads when tool_search finds the skill.

To check the setup, run the script: run_skill_script with skill "example",
script "scripts/hello.sh" and the user's name as the argument. It prints a
greeting; only its output comes back.

Copy this folder, rename it and the name above, and check it with
` + "`toolsearch skills validate skills/`" + `.
`

const exampleScript = `#!/bin/sh
# Prints a greeting: run_skill_script returns what a script prints.
echo "Hello, ${1:-world}: toolsearch runs this skill's scripts."
`
