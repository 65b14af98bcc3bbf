package hosts

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClaudeLocalScope imports Claude Code's local scope, which it files
// under the project's root: the git repository's (the main worktree's for a
// linked one), or the folder with its links resolved. init in a subfolder,
// in a worktree or through a link found nothing, and said nothing.
func TestClaudeLocalScope(t *testing.T) {
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	repo := filepath.Join(root, "repo")
	plain := filepath.Join(root, "plain")
	for _, d := range []string{filepath.Join(repo, ".git", "worktrees", "feature"), filepath.Join(repo, "sub", "deeper"), filepath.Join(root, "feature"), plain} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(root, "feature", ".git"), []byte("gitdir: "+filepath.Join(repo, ".git", "worktrees", "feature")+"\n"), 0o644)
	if err := os.Symlink(plain, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(root, "home")
	os.MkdirAll(home, 0o755)
	// As Claude Code 2.1 writes it: the projects it was started in, each
	// with its settings, most without servers.
	claudeJSON, _ := json.Marshal(map[string]any{
		"numStartups": 12, "installMethod": "npm", "autoUpdates": true,
		"mcpServers": map[string]any{"user-wide": map[string]any{"type": "stdio", "command": "uw", "args": []string{}, "env": map[string]string{}}},
		"projects": map[string]any{
			repo: map[string]any{
				"allowedTools": []string{}, "history": []any{}, "mcpContextUris": []string{}, "enabledMcpjsonServers": []string{}, "disabledMcpjsonServers": []string{},
				"hasTrustDialogAccepted": true, "projectOnboardingSeenCount": 1,
				"mcpServers": map[string]any{"repo-db": map[string]any{"type": "stdio", "command": "db-mcp", "args": []string{"--local"}, "env": map[string]string{}}},
			},
			plain: map[string]any{
				"allowedTools": []string{},
				"mcpServers":   map[string]any{"plain-notes": map[string]any{"type": "http", "url": "http://127.0.0.1:9/mcp"}},
			},
			filepath.Join(root, "empty"): map[string]any{"allowedTools": []string{}, "mcpServers": map[string]any{}},
		},
	})
	os.WriteFile(filepath.Join(home, ".claude.json"), claudeJSON, 0o600)

	tests := []struct {
		name, project string
		want          string // the servers imported, besides user-wide
		note          string
	}{
		{"the repository's root", repo, "repo-db", ""},
		{"a subfolder of the repository", filepath.Join(repo, "sub", "deeper"), "repo-db", ""},
		{"a linked worktree", filepath.Join(root, "feature"), "repo-db", ""},
		{"a folder outside git", plain, "plain-notes", ""},
		{"a link to it", filepath.Join(root, "link"), "plain-notes", ""},
		{"a folder with none", home, "", `no local-scope servers for ` + home + ` (Claude Code keeps them under projects["` + home + `"].mcpServers); it has some for ` + plain + ` (plain-notes); ` + repo + ` (repo-db): give that folder with --project`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Import("claude-code", Options{Home: home, Project: tt.project, GOOS: "linux"})
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, s := range res.Servers {
				if s.Name != "user-wide" {
					names = append(names, s.Name)
				}
			}
			if got := strings.Join(names, ","); got != tt.want {
				t.Errorf("imported %q, want %q (notes %q)", got, tt.want, res.Notes)
			}
			notes := strings.Join(res.Notes, "\n")
			if tt.note == "" && notes != "" || !strings.Contains(notes, tt.note) {
				t.Errorf("notes:\n%s\nwant %q", notes, tt.note)
			}
		})
	}
}

func TestClaudeProjectKeysOnWindows(t *testing.T) {
	if got := claudeProjectKeys(`C:\Users\a\proj`, "windows"); got[0] != "C:/Users/a/proj" {
		t.Errorf("keys = %q", got)
	}
}
