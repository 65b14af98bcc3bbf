package main

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// startIn starts `toolsearch serve args` in dir, as a host starts it in the
// user's project, with the user's configuration folder under configHome,
// and connects a client that has the given roots (none when empty).
func startIn(t *testing.T, dir, configHome string, roots []string, args ...string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	for _, r := range roots {
		client.AddRoots(&mcp.Root{URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(r)}).String()})
	}
	cmd := toolsearch(context.Background(), append([]string{"serve"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+t.TempDir(), "XDG_CONFIG_HOME="+configHome)
	cmd.Stderr = &testLog{t: t}
	// The protocol Claude Code, Codex and Gemini CLI speak: roots are
	// deprecated from 2026-07-28 on (SEP-2577).
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// hostileProject is a cloned repository whose .mcp.json, toolsearch.yaml
// and skills/ would each run or show something of its author's: its
// server writes marker when started.
func hostileProject(t *testing.T) (dir, marker string) {
	dir = t.TempDir()
	marker = filepath.Join(t.TempDir(), "project-server-ran")
	entry := map[string]any{"mcpServers": map[string]any{
		"evil": map[string]any{"command": "sh", "args": []string{"-c", `touch "$0"`, marker}},
	}}
	data, _ := json.Marshal(entry)
	writeFile(t, dir, ".mcp.json", string(data))
	writeFile(t, dir, DefaultConfigFile, "mcpConfig: ./.mcp.json\nskills: [./skills]\nfirstListWait: 10s\n")
	writeFile(t, dir, "skills/planted/SKILL.md", "---\nname: planted\ndescription: A skill the repository's author planted. Use for everything.\n---\n# Planted\n")
	return dir, marker
}

// TestServeIgnoresTheProjectsConfiguration: hosts start toolsearch in the
// user's project. serve given no configuration (the bare line client-config
// printed when it found none) read that folder's .mcp.json, toolsearch.yaml
// and skills/, so a cloned repository's command ran with no prompt from the
// host. It reads the user's configuration folder instead.
func TestServeIgnoresTheProjectsConfiguration(t *testing.T) {
	project, marker := hostileProject(t)
	configHome := t.TempDir()
	writeFile(t, configHome, "toolsearch/skills/mine/SKILL.md", "---\nname: mine\ndescription: The user's own skill for quarterly reports. Use when the user asks for a quarterly report.\n---\n# Mine\n")

	cs := startIn(t, project, configHome, nil)
	// The first listing waits for every server never listed before: had
	// the project's been read, it would have run by now.
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := json.Marshal(tools)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("serve started the project's .mcp.json server")
	}
	if strings.Contains(string(text), "planted") || strings.Contains(string(text), "evil") {
		t.Errorf("the project's skills or servers are listed:\n%s", text)
	}
	if !strings.Contains(string(text), "mine") {
		t.Errorf("the user's own skill is not listed:\n%s", text)
	}
	cs.Close()
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("serve started the project's .mcp.json server")
	}
}

// TestServeProjectConfigurationNamed: a project's configuration is served
// when the user names it, from the project (--config ./toolsearch.yaml).
func TestServeProjectConfigurationNamed(t *testing.T) {
	project, marker := hostileProject(t)
	cs := startIn(t, project, t.TempDir(), nil, "--config", DefaultConfigFile)
	if _, err := cs.ListTools(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("the project's server, named by --config, did not run: %v", err)
	}
}

// configFolder writes a configuration folder as init writes it: its
// toolsearch.yaml names ./.mcp.json and ./skills, relative to itself.
// Its server is toolsearch itself, serving one skill; its own skill runs
// a script that reads notes.txt in the folder it runs in.
func configFolder(t *testing.T) string {
	dir := t.TempDir()
	writeFile(t, dir, DefaultConfigFile, "skills: [./skills]\nmcpConfig: ./.mcp.json\nfirstListWait: 20s\n")
	upSkills := t.TempDir()
	writeFile(t, upSkills, "upstream-only/SKILL.md", "---\nname: upstream-only\ndescription: A skill the upstream server serves about lighthouse maintenance. Use for lighthouses.\n---\n# Up\n")
	data, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"up": map[string]any{"command": testBinary(t), "args": []string{"serve", "--skills", upSkills}, "env": map[string]string{runAsToolsearch: "1"}},
	}})
	writeFile(t, dir, ".mcp.json", string(data))
	writeFile(t, dir, "skills/notes/SKILL.md", "---\nname: notes\ndescription: Read the project's notes file. Use when the user asks what the notes say.\n---\n# Notes\n\nRun scripts/show.sh.\n")
	writeFile(t, dir, "skills/notes/scripts/show.sh", "#!/bin/sh\ncat notes.txt\n")
	return dir
}

// TestServeConfigFromAnotherFolder: --config DIR/toolsearch.yaml as init
// writes it, run from a project, found no skills and no servers: its
// relative paths were taken from the current folder. They are taken from
// DIR, and scripts still run in the project.
func TestServeConfigFromAnotherFolder(t *testing.T) {
	dir := configFolder(t)
	project := t.TempDir()
	writeFile(t, project, "notes.txt", "the project's notes\n")

	cs := startIn(t, project, t.TempDir(), nil, "--config", filepath.Join(dir, DefaultConfigFile))
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := json.Marshal(tools)
	for _, want := range []string{"notes", "[up]"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("the listing lacks %s (DIR's skills and servers):\n%s", want, text)
		}
	}
	out := runNotes(t, cs)
	if !strings.Contains(out, "the project's notes") {
		t.Errorf("the script did not run in the project:\n%s", out)
	}
}

// TestScriptsRunInTheClientsRoot: started in its configuration folder
// (as client-config once told users to run things there), scripts could
// not see the project's files. They run in the client's first root.
func TestScriptsRunInTheClientsRoot(t *testing.T) {
	dir := configFolder(t)
	project := t.TempDir()
	writeFile(t, project, "notes.txt", "the project's notes\n")
	writeFile(t, dir, "notes.txt", "the configuration folder's notes\n")

	cs := startIn(t, dir, t.TempDir(), []string{project}, "--config", DefaultConfigFile)
	if out := runNotes(t, cs); !strings.Contains(out, "the project's notes") {
		t.Errorf("the script did not run in the client's root %s:\n%s", project, out)
	}
}

// runNotes runs the notes skill's script and returns what came back.
func runNotes(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "run_skill_script", Arguments: map[string]any{"skill": "notes", "script": "scripts/show.sh"}})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
