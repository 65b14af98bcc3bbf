package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/loader"
)

func TestParseConfig(t *testing.T) {
	t.Setenv("TS_TEST_SECRET", "from-env")
	tests := []struct {
		name, yaml, err string
	}{
		{"empty", "", ""},
		{"full", "skills: [a, b]\ntools: [x.json, ns=y.json]\nlistingBudget: 0\nresultBudget: 4000\nconnectWait: 5s\nscripts:\n  timeout: 30s\n  env: [GOPATH]\nservers:\n  gh:\n    timeout: 2m\n    connectWait: 3s\n    alwaysLoad: [\"get_*\"]\n    policy:\n      \"delete_*\": visible_only\n", ""},
		{"unknown key", "skills: [a]\nlistingBudgett: 3\n", `toolsearch.yaml:2:1: unknown key listingBudgett (did you mean "listingBudget"?)`},
		{"unknown nested key", "servers:\n  gh:\n    polcy: {}\n", `toolsearch.yaml:3:5: unknown key polcy (did you mean "policy"?)`},
		{"bad duration", "scripts:\n  timeout: soon\n", `"soon" is not a duration`},
		{"bad policy", "servers:\n  gh:\n    policy:\n      \"*\": maybe\n", `servers.gh.policy.*: unknown policy "maybe"`},
		{"bad glob", "servers:\n  gh:\n    alwaysLoad: [\"[\"]\n", `bad glob "["`},
		{"oauth", "servers:\n  gh:\n    oauth:\n      clientId: id\n      clientSecret: ${TS_TEST_SECRET}\n      scopes: [repo]\n      callbackPort: 8765\n", ""},
		{"oauth unknown key", "servers:\n  gh:\n    oauth:\n      clientID: id\n", `toolsearch.yaml:4:7: unknown key clientID (did you mean "clientId"?)`},
		{"oauth problems", "servers:\n  gh:\n    oauth:\n      clientSecret: s\n      clientMetadataUrl: http://x/c.json\n      callbackPort: -1\n", "servers.gh.oauth.clientSecret: set without clientId; a secret belongs to a pre-registered client; servers.gh.oauth.clientMetadataUrl"},
		{"negative session cap", "http:\n  maxSessions: -1\n", "http.maxSessions must be positive"},
		{"call cap", "servers:\n  gh:\n    maxConcurrent: 4\n", ""},
		{"negative call cap", "servers:\n  gh:\n    maxConcurrent: -1\n", "servers.gh.maxConcurrent must be 1 or more calls at once (0 or left out: no cap), got -1"},
		{"skills cap", "skillsMaxBytes: 1048576\n", ""},
		{"first list wait", "firstListWait: 1500ms\n", ""},
		{"no first list wait", "firstListWait: 0s\n", ""},
		{"negative first list wait", "firstListWait: -1s\n", "firstListWait must be 0 (no wait) or more (leave it out for the default, 2s), got -1s"},
		{"zero skills cap", "skillsMaxBytes: 0\n", "skillsMaxBytes must be a positive number of bytes (leave it out for the default, 268435456: 256 MiB), got 0"},
		{"negative skills cap", "skillsMaxBytes: -5\n", "skillsMaxBytes must be a positive number of bytes"},
		{"far from any key", "zzzz: 1\n", "toolsearch.yaml:1:1: unknown key zzzz\n"},
		{"two unknown keys, each placed", "logLevl: info\nservers:\n  x:\n    timout: 3s\n", "toolsearch.yaml:1:1: unknown key logLevl (did you mean \"logLevel\"?)\ntoolsearch.yaml:4:5: unknown key timout (did you mean \"timeout\"?)"},
		{"syntax error", "skills: [a\nlogLevel: info\n", "toolsearch.yaml:1: did not find expected ',' or ']'"},
		{"skills cap not a number", "skillsMaxBytes: 256MiB\n", "toolsearch.yaml:1: cannot unmarshal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := parseConfig("toolsearch.yaml", []byte(tt.yaml))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error()+"\n", tt.err) || !strings.HasPrefix(err.Error(), "toolsearch.yaml:") {
					t.Errorf("error = %v, want toolsearch.yaml: ...%s", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.name == "oauth" {
				o := cfg.Servers["gh"].OAuth.settings()
				if o.ClientID != "id" || o.ClientSecret != "from-env" || o.Scopes[0] != "repo" || o.CallbackPort != 8765 || len(cfg.warnings) != 0 {
					t.Errorf("oauth settings %+v, warnings %q", o, cfg.warnings)
				}
			}
			if tt.name == "full" && (cfg.Servers["gh"].Timeout != Duration(2*time.Minute) || cfg.Servers["gh"].ConnectWait != Duration(3*time.Second) || cfg.ConnectWait != Duration(5*time.Second) || *cfg.ListingBudget != 0 || cfg.Tools[1] != "ns="+absPath("y.json")) {
				t.Errorf("config = %+v", cfg)
			}
		})
	}
}

func TestFlagsOverrideConfig(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ts.yaml")
	os.WriteFile(path, []byte("skills: [from-config]\nlistingBudget: 50\nresultBudget: 1000\n"), 0o644)
	os.Mkdir(filepath.Join(dir, "b"), 0o755)
	for _, tt := range []struct {
		args          []string
		skills        string
		listing, page int
	}{
		{[]string{"--config", path}, filepath.Join(dir, "from-config"), 50, 1000},
		{[]string{"--config", path, "--skills", dir, "--skills", dir + "/b", "--listing-budget", "0"}, dir + "," + dir + "/b", 0, 1000},
		{[]string{"--config", path, "--result-budget", "9"}, filepath.Join(dir, "from-config"), 50, 9},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		sf := addSourceFlags(fs, flagsAll, "info")
		if err := fs.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		cfg, err := sf.settings()
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(cfg.Skills, ","); got != tt.skills || *cfg.ListingBudget != tt.listing || cfg.ResultBudget != tt.page {
			t.Errorf("%v: skills=%s listing=%d result=%d", tt.args, got, *cfg.ListingBudget, cfg.ResultBudget)
		}
	}
	if _, err := (&sourceFlags{config: filepath.Join(dir, "missing.yaml")}).settings(); err == nil {
		t.Error("an explicit config file that is missing is not an error")
	}
}

func TestDefaultHTTPAddr(t *testing.T) {
	tests := []struct{ in, want string }{
		{"--http", "--http=127.0.0.1:7777"},
		{"--http --promote", "--http=127.0.0.1:7777 --promote"},
		{"--http :9000 --promote", "--http=:9000 --promote"},
		{"-http=0.0.0.0:1", "-http=0.0.0.0:1"},
		{"--skills x", "--skills x"},
	}
	for _, tt := range tests {
		if got := strings.Join(defaultHTTPAddr(strings.Fields(tt.in)), " "); got != tt.want {
			t.Errorf("defaultHTTPAddr(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMissingExplicitPaths(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mcp.json")
	os.WriteFile(file, []byte(`{"mcpServers": {}}`), 0o644)
	tests := []struct {
		args []string
		want string // in the error; "" for none
	}{
		{[]string{"--mcp-config", file, "--skills", dir}, ""},
		{[]string{"--mcp-config", filepath.Join(dir, "nope.json")}, "--mcp-config " + filepath.Join(dir, "nope.json") + ": no such file or folder"},
		{[]string{"--skills", dir, "--skills", filepath.Join(dir, "skils")}, "--skills " + filepath.Join(dir, "skils") + ": no such file or folder"},
		{[]string{"--skills", file}, "not a folder"},
		{[]string{"--mcp-config", dir}, "a folder, not a JSON file"},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		sf := addSourceFlags(fs, flagsAll, "info")
		if err := fs.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		_, err := sf.settings()
		if (err == nil) != (tt.want == "") || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want %q", tt.args, err, tt.want)
		}
	}
	// serve refuses to start on them, as it does on a missing --config.
	var stdout, stderr strings.Builder
	if code := run(t.Context(), []string{"serve", "--mcp-config", filepath.Join(dir, "nope.json")}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "nope.json: no such file") {
		t.Errorf("serve with a missing --mcp-config: exit %d, stderr %q", code, stderr.String())
	}
}

// TestFlagsOffered checks that each command offers the source flags that
// change what it does, and no others.
func TestFlagsOffered(t *testing.T) {
	all := []string{"skills", "tools", "mcp-config", "listing-budget", "result-budget", "tokenizer", "no-scripts", "workdir"}
	tests := map[string][]string{
		"serve":   all,
		"search":  {"skills", "tools", "mcp-config", "result-budget", "tokenizer"},
		"call":    {"mcp-config"},
		"run":     {"skills", "workdir"},
		"catalog": {"skills", "tools", "mcp-config"},
		"measure": {"skills", "tools", "mcp-config", "listing-budget", "result-budget", "tokenizer"},
	}
	// Usage goes to os.Stderr; keep it out of the test's output.
	devnull, _ := os.Open(os.DevNull)
	defer func(orig *os.File) { os.Stderr = orig; devnull.Close() }(os.Stderr)
	os.Stderr = devnull
	for cmd, want := range tests {
		for _, name := range append(all, "config", "log-level") {
			// An offered flag parses and --help then ends with exit 0;
			// one that is not offered is a usage error (exit 2).
			args := []string{cmd, "--" + name, "1", "--help"}
			if name == "no-scripts" {
				args = []string{cmd, "--" + name, "--help"}
			}
			var stdout, stderr strings.Builder
			offered := run(t.Context(), args, &stdout, &stderr) == 0
			if wanted := name == "config" || name == "log-level" || slices.Contains(want, name); offered != wanted {
				t.Errorf("toolsearch %s offers --%s: %v, want %v", cmd, name, offered, wanted)
			}
		}
	}
}

func TestConfigExpandsHome(t *testing.T) {
	t.Setenv("HOME", "/home/ada")
	cfg, err := parseConfig("toolsearch.yaml", []byte("skills: [~/.agents/skills, ./skills]\ntools: [gh=~/dumps/gh.json]\nmcpConfig: ~/mcp.json\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(append(cfg.Skills, append(cfg.Tools, cfg.MCPConfig)...), " "); got != "/home/ada/.agents/skills "+absPath("skills")+" gh=/home/ada/dumps/gh.json /home/ada/mcp.json" {
		t.Errorf("paths = %s", got)
	}
}

func TestOAuthUnsetVariable(t *testing.T) {
	cfg, err := parseConfig("toolsearch.yaml", []byte("servers:\n  gh:\n    oauth:\n      clientId: ${TS_TEST_UNSET_ID:-fallback}\n      clientSecret: ${TS_TEST_UNSET_SECRET}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if o := cfg.Servers["gh"].OAuth; o.ClientID != "fallback" || o.ClientSecret != "" {
		t.Errorf("expanded to %+v", o)
	}
	if len(cfg.warnings) != 1 || !strings.Contains(cfg.warnings[0], "servers.gh.oauth.clientSecret: ${TS_TEST_UNSET_SECRET} is not set") {
		t.Errorf("warnings %q", cfg.warnings)
	}
}

// TestSkillsMaxBytes: skillsMaxBytes sets the total the skills' files may
// take together; a skill beyond it is withheld, with a problem that names
// the key to raise.
func TestSkillsMaxBytes(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "skills")
	for _, name := range []string{"alpha", "beta"} {
		body := "---\nname: " + name + "\ndescription: A skill of about two kilobytes.\n---\n" + strings.Repeat("Step. ", 330) + "\n"
		os.MkdirAll(filepath.Join(root, name), 0o755)
		if err := os.WriteFile(filepath.Join(root, name, "SKILL.md"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "ts.yaml")
	os.WriteFile(path, []byte("skills: ["+root+"]\nskillsMaxBytes: 3000\n"), 0o644)
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	sf := addSourceFlags(fs, flagsAll, "error")
	if err := fs.Parse([]string{"--config", path, "--no-scripts", "--mcp-config", writeEmptyMCPConfig(t)}); err != nil {
		t.Fatal(err)
	}
	a, err := openApp(sf)
	if err != nil {
		t.Fatal(err)
	}
	defer a.close(t.Context())
	snap := a.catalog.Snapshot()
	_, alpha := snap.Lookup("alpha")
	_, beta := snap.Lookup("beta")
	var problems []string
	if src, ok := snap.Source(loader.SkillsSourceName); ok {
		for _, p := range src.Problems {
			problems = append(problems, p.String())
		}
	}
	all := strings.Join(problems, "\n")
	if !alpha || beta || !strings.Contains(all, "beta is withheld") || !strings.Contains(all, "skillsMaxBytes") {
		t.Errorf("alpha loaded %v, beta loaded %v; problems:\n%s", alpha, beta, all)
	}
}

func writeEmptyMCPConfig(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers":{}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
