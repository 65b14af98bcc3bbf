package main

import (
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/loader/trust"
)

// TestInclude: a project's configuration that includes the user's serves
// the user's skills and servers after its own (its own win a name clash),
// takes the settings it leaves out from the user's, and holds its own
// servers for approval, as remote ones, unless their settings say
// otherwise. An include of an include is refused.
func TestInclude(t *testing.T) {
	root := t.TempDir()
	user, project := filepath.Join(root, "user"), filepath.Join(root, "user", "projects", "app-1")
	writeFile(t, user, DefaultConfigFile, "listingBudget: 321\ncodeMode: true\nservers:\n  shared:\n    timeout: 5s\n")
	writeFile(t, user, ".mcp.json", `{"mcpServers": {"shared": {"command": "user-shared"}, "mine": {"command": "user-mine"}}}`)
	writeFile(t, user, "skills/s/SKILL.md", "---\nname: s\ndescription: A skill.\n---\n")
	writeFile(t, project, DefaultConfigFile, projectConfigYAML("/src/app", filepath.Join(user, DefaultConfigFile))+"servers:\n  trusted:\n    quarantine: changed\n")
	writeFile(t, project, ".mcp.json", `{"mcpServers": {"shared": {"command": "project-shared"}, "db": {"command": "db"}, "trusted": {"command": "t"}}}`)

	f := &sourceFlags{config: filepath.Join(project, DefaultConfigFile), hostStarted: true}
	cfg, err := f.settings()
	if err != nil {
		t.Fatal(err)
	}
	if *cfg.ListingBudget != 321 || !slices.Equal(cfg.Skills, []string{filepath.Join(user, "skills")}) || !cfg.CodeMode.Enabled {
		t.Errorf("listingBudget %d, skills %q, code mode %v: want the user's", *cfg.ListingBudget, cfg.Skills, cfg.CodeMode.Enabled)
	}
	servers, probs, err := readConfigServers(cfg)
	if err != nil || len(probs) > 0 {
		t.Fatal(err, probs)
	}
	var got []string
	for _, s := range servers {
		got = append(got, s.Name+"="+s.Command)
	}
	if want := []string{"db=db", "shared=project-shared", "trusted=t", "mine=user-mine"}; !slices.Equal(got, want) {
		t.Errorf("servers %q, want %q", got, want)
	}
	settings, err := upstreamSettings(cfg, servers, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]trust.Mode{"db": trust.DefaultRemoteMode, "shared": trust.DefaultRemoteMode, "trusted": trust.ModeChanged, "mine": ""} {
		if got := settings[name].Quarantine; got != want {
			t.Errorf("%s: quarantine %q, want %q", name, got, want)
		}
	}
	// The user's own configuration, alone, holds nothing more than before.
	f = &sourceFlags{config: filepath.Join(user, DefaultConfigFile), hostStarted: true}
	if cfg, err = f.settings(); err != nil {
		t.Fatal(err)
	}
	servers, _, _ = readConfigServers(cfg)
	if settings, _ = upstreamSettings(cfg, servers, slog.New(slog.NewTextHandler(io.Discard, nil))); settings["mine"].Quarantine != "" {
		t.Errorf("the user's server is held: %+v", settings["mine"])
	}

	writeFile(t, root, "outer.yaml", "include: "+filepath.Join(project, DefaultConfigFile)+"\n")
	f = &sourceFlags{config: filepath.Join(root, "outer.yaml"), hostStarted: true}
	if _, err := f.settings(); err == nil || !strings.Contains(err.Error(), "includes one other, which includes none") {
		t.Errorf("an include of an include: %v", err)
	}
}
