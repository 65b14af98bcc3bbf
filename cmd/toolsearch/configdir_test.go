package main

import (
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConfigDirFor(t *testing.T) {
	home := func() (string, error) { return "/home/ada", nil }
	noHome := func() (string, error) { return "", errors.New("no home") }
	tests := []struct {
		name, goos string
		env        map[string]string
		home       func() (string, error)
		want       string
	}{
		{"linux", "linux", nil, home, "/home/ada/.config/toolsearch"},
		{"macOS keeps it where command-line tools do", "darwin", nil, home, "/home/ada/.config/toolsearch"},
		{"XDG_CONFIG_HOME", "linux", map[string]string{"XDG_CONFIG_HOME": "/xdg"}, home, "/xdg/toolsearch"},
		{"a relative XDG_CONFIG_HOME is ignored", "linux", map[string]string{"XDG_CONFIG_HOME": "rel"}, home, "/home/ada/.config/toolsearch"},
		{"windows APPDATA", "windows", map[string]string{"APPDATA": `C:\Users\ada\AppData\Roaming`}, home, filepath.Join(`C:\Users\ada\AppData\Roaming`, "toolsearch")},
		{"windows without APPDATA", "windows", nil, home, filepath.Join("/home/ada", "AppData", "Roaming", "toolsearch")},
		{"no home", "linux", nil, noHome, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := configDirFor(tt.goos, func(k string) string { return tt.env[k] }, tt.home)
			if got != tt.want || (err != nil) != (tt.want == "") {
				t.Errorf("configDirFor = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// TestConfigPathsFromTheirFile: every relative path of toolsearch.yaml is
// taken from the file's folder, whatever the current folder.
func TestConfigPathsFromTheirFile(t *testing.T) {
	t.Setenv("HOME", "/home/ada")
	dir := t.TempDir()
	t.Chdir(t.TempDir())
	file := filepath.Join(dir, DefaultConfigFile)
	yaml := `skills: [./skills, ../shared, ~/.agents/skills, /abs/skills]
tools: [dumps/gh.json, gh=./dumps/gh2.json, abs=/abs/t.json]
mcpConfig: ./.mcp.json
workdir: ../project
trace: trace.jsonl
http:
  tokenFile: ./token
  tokens: [{file: tokens/a, profile: p}]
profiles:
  p: {}
`
	cfg, err := parseConfig(file, []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	in := func(rel string) string { return filepath.Join(dir, rel) }
	tests := []struct{ key, got, want string }{
		{"skills[0]", cfg.Skills[0], in("skills")},
		{"skills[1]", cfg.Skills[1], filepath.Join(filepath.Dir(dir), "shared")},
		{"skills[2]", cfg.Skills[2], "/home/ada/.agents/skills"},
		{"skills[3]", cfg.Skills[3], "/abs/skills"},
		{"tools[0]", cfg.Tools[0], in("dumps/gh.json")},
		{"tools[1]", cfg.Tools[1], "gh=" + in("dumps/gh2.json")},
		{"tools[2]", cfg.Tools[2], "abs=/abs/t.json"},
		{"mcpConfig", cfg.MCPConfig, in(".mcp.json")},
		{"workdir", cfg.Workdir, filepath.Join(filepath.Dir(dir), "project")},
		{"trace", cfg.Trace, in("trace.jsonl")},
		{"http.tokenFile", cfg.HTTP.TokenFile, in("token")},
		{"http.tokens[0].file", cfg.HTTP.Tokens[0].File, in("tokens/a")},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %q, want %q", tt.key, tt.got, tt.want)
		}
	}
}

// TestWhichConfiguration: which files a command reads, by where it runs
// and what it is given. serve reads the current folder's files only when
// named; the commands a person runs read a folder holding a
// toolsearch.yaml; both fall back to the user's configuration folder.
func TestWhichConfiguration(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", home)
	user := filepath.Join(home, "toolsearch")
	project, bare, other := t.TempDir(), t.TempDir(), t.TempDir()
	for _, d := range []string{user, project, other} {
		writeFile(t, d, DefaultConfigFile, "mcpConfig: ./.mcp.json\n")
		writeFile(t, d, ".mcp.json", `{"mcpServers": {}}`)
		writeFile(t, d, "skills/s/SKILL.md", "---\nname: s\ndescription: d\n---\n")
	}
	// A folder with the host's .mcp.json and skills, and no toolsearch.yaml.
	writeFile(t, bare, ".mcp.json", `{"mcpServers": {}}`)
	writeFile(t, bare, "skills/s/SKILL.md", "---\nname: s\ndescription: d\n---\n")

	tests := []struct {
		name        string
		cwd         string
		hostStarted bool
		args        []string
		wantFolder  string // whose toolsearch.yaml, .mcp.json and skills/ are read
	}{
		{"serve in a project", project, true, nil, user},
		{"serve in a folder without toolsearch.yaml", bare, true, nil, user},
		{"serve naming the project's configuration", project, true, []string{"--config", DefaultConfigFile}, project},
		{"serve naming another folder's", project, true, []string{"--config", filepath.Join(other, DefaultConfigFile)}, other},
		{"catalog in a project", project, false, nil, project},
		{"catalog in a folder without toolsearch.yaml", bare, false, nil, user},
		{"catalog naming another folder's", project, false, []string{"--config", filepath.Join(other, DefaultConfigFile)}, other},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(tt.cwd)
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			sf := addSourceFlags(fs, flagsAll, "warn")
			sf.hostStarted = tt.hostStarted
			if err := fs.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			cfg, err := sf.settings()
			if err != nil {
				t.Fatal(err)
			}
			want := []string{filepath.Join(tt.wantFolder, DefaultConfigFile), filepath.Join(tt.wantFolder, ".mcp.json"), filepath.Join(tt.wantFolder, "skills")}
			got := []string{sf.configUsed, cfg.MCPConfig, strings.Join(cfg.Skills, ",")}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("read %q, want %q", got, want)
					break
				}
			}
		})
	}
	// Paths named by flags are taken from the current folder.
	t.Chdir(bare)
	sf := &sourceFlags{hostStarted: true, mcpConfig: ".mcp.json", skills: stringList{"skills"}}
	cfg, err := sf.settings()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MCPConfig != ".mcp.json" || cfg.Skills[0] != "skills" {
		t.Errorf("flags: mcpConfig %q, skills %q", cfg.MCPConfig, cfg.Skills)
	}
	if _, err := os.Stat(cfg.MCPConfig); err != nil {
		t.Error(err)
	}
}
