package hosts

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Claude Code keeps a project's local-scope servers in ~/.claude.json
// under projects[KEY].mcpServers, where KEY is not simply the folder it
// was started in: inside a git repository it is the repository's root
// (for a linked worktree, the main worktree's), elsewhere the folder with
// its links resolved; on Windows with forward slashes. Claude Code 2.1's
// getProjectPathForConfig does this; the import finds the entry the same
// way, so that `init` in a subfolder of the project, or in a folder
// reached through a link, finds the servers Claude Code uses there.

// claudeProjectKeys lists the keys Claude Code may have filed dir under,
// the one it uses first.
func claudeProjectKeys(dir, goos string) []string {
	var keys []string
	add := func(p string) {
		if p == "" {
			return
		}
		if goos == "windows" {
			p = strings.ReplaceAll(p, `\`, "/")
		}
		if !slices.Contains(keys, p) {
			keys = append(keys, p)
		}
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		real = dir
	}
	for _, d := range []string{real, dir} {
		root, main := gitRoots(d)
		add(main)
		add(root)
	}
	add(real)
	add(dir)
	return keys
}

// gitRoots returns the root of the git work tree holding dir, and the root
// of its main worktree when it is a linked one (its .git is a file naming
// .git/worktrees/NAME of another); empty when dir is in none.
func gitRoots(dir string) (root, main string) {
	for d := dir; ; d = filepath.Dir(d) {
		info, err := os.Lstat(filepath.Join(d, ".git"))
		if err == nil {
			root = d
			if !info.IsDir() {
				main = linkedWorktreeMain(filepath.Join(d, ".git"))
			}
			return root, main
		}
		if filepath.Dir(d) == d {
			return "", ""
		}
	}
}

// linkedWorktreeMain reads a .git file ("gitdir: /repo/.git/worktrees/x")
// and returns the main worktree's root (/repo), or "".
func linkedWorktreeMain(gitFile string) string {
	data, err := readLimited(gitFile)
	if err != nil {
		return ""
	}
	gitdir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return ""
	}
	gitdir = strings.TrimSpace(gitdir)
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(filepath.Dir(gitFile), gitdir)
	}
	common := filepath.Dir(filepath.Dir(filepath.Clean(gitdir))) // .../.git
	if filepath.Base(filepath.Dir(filepath.Clean(gitdir))) != "worktrees" || filepath.Base(common) != ".git" {
		return ""
	}
	return filepath.Dir(common)
}

// maxOtherProjects bounds the folders a note names.
const maxOtherProjects = 5

// readClaudeLocal reads the local-scope servers of o.Project. When
// ~/.claude.json has none for it, a note says where they were looked for,
// and which folders it has servers for.
func readClaudeLocal(data []byte, loc Location, o Options) ([]Server, []string, error) {
	var doc struct {
		Projects map[string]struct {
			MCPServers map[string]json.RawMessage `json:"mcpServers"`
		} `json:"projects"`
	}
	// Errors are readJSONServers' to report, with the user scope's.
	_ = json.Unmarshal(stripJSONC(data), &doc)
	keys := claudeProjectKeys(o.Project, o.GOOS)
	for _, k := range keys {
		if p, ok := doc.Projects[k]; ok && len(p.MCPServers) > 0 {
			return readJSONServers(data, []string{"projects", k, "mcpServers"}, loc.Path, claudeEntry)
		}
	}
	note := fmt.Sprintf("%s: no local-scope servers for %s (Claude Code keeps them under projects[%q].mcpServers)", loc.Path, o.Project, keys[0])
	var others []string
	for _, k := range slices.Sorted(maps.Keys(doc.Projects)) {
		if servers := doc.Projects[k].MCPServers; len(servers) > 0 {
			others = append(others, fmt.Sprintf("%s (%s)", k, strings.Join(slices.Sorted(maps.Keys(servers)), ", ")))
		}
	}
	if len(others) > 0 {
		if len(others) > maxOtherProjects {
			others = append(others[:maxOtherProjects], fmt.Sprintf("%d more", len(others)-maxOtherProjects))
		}
		note += fmt.Sprintf("; it has some for %s: give that folder with --project to import them", strings.Join(others, "; "))
	}
	return nil, []string{note}, nil
}
