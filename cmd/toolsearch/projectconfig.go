package main

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
)

// A project's configuration: the servers a host gives one project alone
// (Claude Code's local scope, a project's .codex/config.toml,
// .gemini/settings.json or .vscode/mcp.json), which init --from puts in a
// configuration of that project's own rather than in the user's, so that
// they reach no other project (include.go says how it serves the user's
// servers too).
//
// It lives in the user's folder, under projects/NAME-HASH, not in the
// project: a project's servers often carry the user's tokens (Claude
// Code's local scope is private to the user), which a file in the project
// would put one `git add` away from being published.

// projectsFolder is where the projects' configurations are, in a
// configuration folder.
const projectsFolder = "projects"

// projectConfigDir is the folder of project's configuration under the
// configuration folder userDir: the project's folder name, for people,
// and a digest of its path, resolved, for uniqueness.
func projectConfigDir(userDir, project string) string {
	return filepath.Join(userDir, projectsFolder, projectKey(project))
}

func projectKey(project string) string {
	abs := absPath(project)
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	sum := sha256.Sum256([]byte(abs))
	name := strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '-'
	}, filepath.Base(abs))
	name = strings.Trim(name, ".-")
	if len(name) > 40 {
		name = name[:40]
	}
	if name == "" {
		name = "project"
	}
	return name + "-" + hex.EncodeToString(sum[:4])
}

// projectConfigYAML is the toolsearch.yaml of a project's configuration,
// including the user's (userFile).
func projectConfigYAML(project, userFile string) string {
	return `# toolsearch configuration of the project ` + project + `: the servers
# the host gave that project alone (.mcp.json beside this file), served there
# with everything of the configuration included below, by the toolsearch
# registered for that project (toolsearch client-config HOST --project FOLDER).
# Its servers wait for your approval once (toolsearch review, approve), as a
# remote server's do; give one quarantine: changed under servers to change that.
# Relative paths are taken from this file's folder.

# The user's configuration: its skills, tools, servers and settings are
# served too; this file's win a name clash.
include: ` + yamlQuote(userFile) + `

mcpConfig: ./.mcp.json
`
}

// yamlQuote quotes a path for YAML when it needs it.
func yamlQuote(s string) string {
	if strings.ContainsAny(s, ":#'\"{}[],&*!|>%@`") || strings.TrimSpace(s) != s {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return s
}
