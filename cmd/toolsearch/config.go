package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/toolsearch/toolsearch/internal/atomicfile"
	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/loader/problem"
	"github.com/toolsearch/toolsearch/loader/trust"
	"github.com/toolsearch/toolsearch/loader/upstream"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
	"github.com/toolsearch/toolsearch/server"
	"github.com/toolsearch/toolsearch/server/web"
)

// DefaultConfigFile is the name of toolsearch's configuration file in a
// configuration folder (see configdir.go).
const DefaultConfigFile = "toolsearch.yaml"

// Config is toolsearch.yaml. Every setting has a flag too; flags win.
type Config struct {
	Skills        []string                   `yaml:"skills"`        // skill roots
	Tools         []string                   `yaml:"tools"`         // static tool files, FILE or NS=FILE
	MCPConfig     string                     `yaml:"mcpConfig"`     // Claude-style .mcp.json
	ListingBudget *int                       `yaml:"listingBudget"` // tokens
	ResultBudget  int                        `yaml:"resultBudget"`  // tokens
	Tokenizer     string                     `yaml:"tokenizer"`
	Promote       bool                       `yaml:"promote"`
	Workdir       string                     `yaml:"workdir"`
	Scripts       ScriptsConfig              `yaml:"scripts"`
	Servers       map[string]*ServerSettings `yaml:"servers"`
	ConnectWait   Duration                   `yaml:"connectWait"` // how long a call waits for a starting server
	// FirstListWait bounds how long the first tools/list answers wait for
	// upstream servers that have no last known catalog (a very first start
	// with a configuration); 0 turns the wait off, absent is the default
	// (server.DefaultFirstListWait).
	FirstListWait *Duration                 `yaml:"firstListWait"`
	HTTP          HTTPConfig                `yaml:"http"`
	Trace         string                    `yaml:"trace"`
	TraceArgs     bool                      `yaml:"traceArgs"`
	LogLevel      string                    `yaml:"logLevel"`
	Profiles      map[string]*ProfileConfig `yaml:"profiles"`
	CodeMode      CodeModeConfig            `yaml:"codeMode"` // run_code and run_code_read; see codemode.go
	State         StateConfig               `yaml:"state"`    // where the durable state lives; see state.go
	// Profile is the profile one-shot commands and stdio serve (--profile).
	Profile string `yaml:"-"`

	// SkillsMaxBytes bounds the files of all skills together, held in
	// memory (default loader.DefaultMaxTotalSkillBytes, 256 MiB).
	SkillsMaxBytes *int64 `yaml:"skillsMaxBytes"`

	// Include is another toolsearch.yaml served too: a project's
	// configuration includes the user's (include.go).
	Include string `yaml:"include"`

	// path is the file the settings came from, "" when none was read.
	path string
	// included is what Include brought, nil without one; ownServers are
	// this file's own servers when it has one (readConfigServers).
	included   *includedConfig
	ownServers map[string]bool
	// warnings are problems that did not stop the settings loading.
	warnings []string
}

// ScriptsConfig configures run_skill_script.
type ScriptsConfig struct {
	Disabled       bool     `yaml:"disabled"`
	DisabledSkills []string `yaml:"disabledSkills"`
	Timeout        Duration `yaml:"timeout"`    // default per run
	MaxTimeout     Duration `yaml:"maxTimeout"` // cap on what a call may ask
	OutputLimit    int      `yaml:"outputLimit"`
	Concurrency    int      `yaml:"concurrency"`
	Env            []string `yaml:"env"` // extra environment names passed to scripts
}

// ServerSettings are toolsearch's own settings of a server; how to start the
// server lives in .mcp.json.
type ServerSettings struct {
	Disabled bool     `yaml:"disabled"`
	Timeout  Duration `yaml:"timeout"`
	// ConnectWait is how long a call waits for the server while it starts
	// (default: the top-level connectWait, 10s).
	ConnectWait Duration          `yaml:"connectWait"`
	AlwaysLoad  []string          `yaml:"alwaysLoad"` // tool name globs
	Policy      map[string]string `yaml:"policy"`     // glob -> callable | visible_only | hidden
	Quarantine  string            `yaml:"quarantine"` // off | new | changed | all
	OAuth       *OAuthConfig      `yaml:"oauth"`
	// MaxConcurrent caps the server's calls running at once (0: no cap).
	MaxConcurrent int `yaml:"maxConcurrent"`
}

// OAuthConfig configures logging in to a server that requires OAuth;
// ${VAR} and ${VAR:-default} expand in every string, as in .mcp.json.
type OAuthConfig struct {
	ClientID          string   `yaml:"clientId"`
	ClientSecret      string   `yaml:"clientSecret"`
	ClientMetadataURL string   `yaml:"clientMetadataUrl"`
	Scopes            []string `yaml:"scopes"`
	CallbackPort      int      `yaml:"callbackPort"`
	// Identity is shared (one login for everyone, the default) or user
	// (each principal logs in; see docs/teams.md#people).
	Identity string `yaml:"identity"`
}

// HTTPConfig configures `serve --http`.
type HTTPConfig struct {
	Addr           string   `yaml:"addr"`
	TokenFile      string   `yaml:"tokenFile"`
	AllowedOrigins []string `yaml:"allowedOrigins"`
	AllowedHosts   []string `yaml:"allowedHosts"`
	MaxBodyBytes   int64    `yaml:"maxBodyBytes"`
	SessionTimeout Duration `yaml:"sessionTimeout"`
	MaxSessions    int      `yaml:"maxSessions"`
	// ShutdownGrace is how long requests and work in flight get to finish
	// once serve is asked to stop (default 10s).
	ShutdownGrace Duration `yaml:"shutdownGrace"`
	// DrainDelay is how long a stopping serve goes on serving, /readyz
	// answering 503, before it closes its listener: a load balancer's
	// checks see it leave first (default 0 alone, 2s with a shared state:
	// app.drainDelay).
	DrainDelay *Duration `yaml:"drainDelay"`
	// Tokens are further bearer tokens, each serving one profile.
	Tokens []TokenConfig `yaml:"tokens"`
	// Principal names the operator's token (TokenFile or TOOLSEARCH_TOKEN);
	// "" means "operator".
	Principal string `yaml:"principal"`
	// JWT takes the identity provider's tokens, each naming its principal.
	JWT *JWTConfig `yaml:"jwt"`
	// PublicURL is where people reach the server (scheme://host[:port]),
	// behind a load balancer say: their own logins come back there.
	PublicURL string `yaml:"publicURL"`
}

// Duration reads "30s" or "2m" from YAML.
type Duration time.Duration

func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %q is not a duration such as 30s or 2m", n.Line, n.Value)
	}
	*d = Duration(v)
	return nil
}

// loadConfig reads the config file. An explicit path must exist; the
// default one is optional.
func loadConfig(path string, explicit bool) (*Config, error) {
	data, err := atomicfile.ReadFile(path, atomicfile.MaxConfig)
	if err != nil {
		if !explicit && errors.Is(err, os.ErrNotExist) {
			return &Config{}, nil
		}
		return nil, err
	}
	cfg, err := parseConfig(path, data)
	if cfg != nil {
		cfg.path = absPath(path)
	}
	return cfg, err
}

// resolvePaths makes the file's relative paths absolute, taken from dir,
// its folder, as .mcp.json's are: the same file means the same files from
// whatever folder toolsearch runs in. A leading ~/ is the user's home, as a
// shell would read it.
func (cfg *Config) resolvePaths(dir string) {
	for i, p := range cfg.Skills {
		cfg.Skills[i] = resolveIn(dir, p)
	}
	for i, t := range cfg.Tools {
		cfg.Tools[i] = resolveToolSpec(dir, t)
	}
	for _, p := range []*string{&cfg.MCPConfig, &cfg.Workdir, &cfg.Trace, &cfg.HTTP.TokenFile, &cfg.Include, &cfg.State.KeyFile} {
		*p = resolveIn(dir, *p)
	}
	for i := range cfg.HTTP.Tokens {
		cfg.HTTP.Tokens[i].File = resolveIn(dir, cfg.HTTP.Tokens[i].File)
	}
	if cfg.HTTP.JWT != nil {
		cfg.HTTP.JWT.JWKSFile = resolveIn(dir, cfg.HTTP.JWT.JWKSFile)
	}
}

func parseConfig(path string, data []byte) (*Config, error) {
	cfg := &Config{}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(cfg); err != nil && !errors.Is(err, io.EOF) {
		return nil, describeYAMLError(path, data, err)
	}
	if err := checkProfiles(path, cfg); err != nil {
		return nil, err
	}
	cfg.resolvePaths(filepath.Dir(absPath(path)))
	for name, sc := range cfg.Servers {
		if sc == nil {
			return nil, fmt.Errorf("%s: servers.%s is empty", path, name)
		}
		for glob, p := range sc.Policy {
			if _, err := filepath.Match(glob, ""); err != nil {
				return nil, fmt.Errorf("%s: servers.%s.policy: bad glob %q: %v", path, name, glob, err)
			}
			switch p {
			case "callable", "visible_only", "hidden":
			default:
				return nil, fmt.Errorf("%s: servers.%s.policy.%s: unknown policy %q: want callable, visible_only or hidden", path, name, glob, p)
			}
		}
		if sc.MaxConcurrent < 0 {
			return nil, fmt.Errorf("%s: servers.%s.maxConcurrent must be 1 or more calls at once (0 or left out: no cap), got %d", path, name, sc.MaxConcurrent)
		}
		if _, err := trust.ParseMode(sc.Quarantine); err != nil {
			return nil, fmt.Errorf("%s: servers.%s.quarantine: %v", path, name, err)
		}
		for _, glob := range sc.AlwaysLoad {
			if _, err := filepath.Match(glob, ""); err != nil {
				return nil, fmt.Errorf("%s: servers.%s.alwaysLoad: bad glob %q: %v", path, name, glob, err)
			}
		}
	}
	if cfg.SkillsMaxBytes != nil && *cfg.SkillsMaxBytes <= 0 {
		return nil, fmt.Errorf("%s: skillsMaxBytes must be a positive number of bytes (leave it out for the default, %d: 256 MiB), got %d", path, loader.DefaultMaxTotalSkillBytes, *cfg.SkillsMaxBytes)
	}
	if cfg.FirstListWait != nil && *cfg.FirstListWait < 0 {
		return nil, fmt.Errorf("%s: firstListWait must be 0 (no wait) or more (leave it out for the default, %v), got %v", path, server.DefaultFirstListWait, time.Duration(*cfg.FirstListWait))
	}
	if cfg.HTTP.MaxSessions < 0 {
		return nil, fmt.Errorf("%s: http.maxSessions must be positive (0 for the default, %d), got %d", path, web.DefaultMaxSessions, cfg.HTTP.MaxSessions)
	}
	drain := Duration(0)
	if cfg.HTTP.DrainDelay != nil {
		drain = *cfg.HTTP.DrainDelay
	}
	for key, d := range map[string]Duration{"http.shutdownGrace": cfg.HTTP.ShutdownGrace, "http.drainDelay": drain} {
		if d < 0 {
			return nil, fmt.Errorf("%s: %s must be 0 or more (leave it out for the default), got %v", path, key, time.Duration(d))
		}
	}
	probs := cfg.State.check()
	for _, name := range slices.Sorted(maps.Keys(cfg.Servers)) {
		probs = append(probs, cfg.expandOAuth(name)...)
	}
	if len(probs) > 0 {
		return nil, fmt.Errorf("%s: %s", path, strings.Join(probs, "; "))
	}
	return cfg, nil
}

// expandOAuth expands the variables of a server's OAuth settings, notes
// unset ones among the warnings, and returns the problems of the result.
func (cfg *Config) expandOAuth(name string) []string {
	o := cfg.Servers[name].OAuth
	if o == nil {
		return nil
	}
	key := "servers." + name + ".oauth"
	expand := func(field, s string) string {
		s, missing := upstream.ExpandVars(s)
		for _, v := range missing {
			cfg.warnings = append(cfg.warnings, fmt.Sprintf("%s.%s: ${%s} is not set and has no default: it expands to an empty string", key, field, v))
		}
		return s
	}
	o.ClientID = expand("clientId", o.ClientID)
	o.ClientSecret = expand("clientSecret", o.ClientSecret)
	o.ClientMetadataURL = expand("clientMetadataUrl", o.ClientMetadataURL)
	for i := range o.Scopes {
		o.Scopes[i] = expand(fmt.Sprintf("scopes[%d]", i), o.Scopes[i])
	}
	set := o.settings()
	return set.Check(key)
}

// warningProblems are the warnings as problems of the file, for the
// catalog's configuration source.
func (cfg *Config) warningProblems() problem.Problems {
	var probs problem.Problems
	for _, w := range cfg.warnings {
		probs = append(probs, problem.Problem{File: cfg.path, Severity: problem.SeverityWarning, Message: w})
	}
	return probs
}

// settings returns the OAuth settings as the upstream package takes them.
func (o *OAuthConfig) settings() oauth.Settings {
	if o == nil {
		return oauth.Settings{}
	}
	return oauth.Settings{
		ClientID:          o.ClientID,
		ClientSecret:      o.ClientSecret,
		ClientMetadataURL: o.ClientMetadataURL,
		Scopes:            o.Scopes,
		CallbackPort:      o.CallbackPort,
		Identity:          oauth.Identity(o.Identity),
	}
}

// stringList is a repeatable flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// sourceFlags are the flags shared by the commands that load the catalog.
type sourceFlags struct {
	fs            *flag.FlagSet
	config        string
	skills        stringList
	tools         stringList
	mcpConfig     string
	listingBudget int
	resultBudget  int
	tokenizer     string
	logLevel      string
	noScripts     bool
	workdir       string
	profile       string
	// defaultLogLevel applies when neither a flag, the config file nor
	// TOOLSEARCH_LOG sets one: "info" for serve, "warn" for one-shot
	// commands, whose output is on stdout and whose logs are noise.
	defaultLogLevel string
	// more applies a command's own flags on top of everything else.
	more func(*Config)
	// configUsed is the config file settings read, if any.
	configUsed string
	// configFile is the config file looked for (it may not exist), and
	// configDir its folder, whose .mcp.json and skills/ are the defaults;
	// both "" without a home folder.
	configFile, configDir string
	// hostStarted marks serve, which hosts start in a folder of their
	// choosing: it reads no configuration of the current folder that the
	// user did not name (see configdir.go).
	hostStarted bool
	// follow makes the command follow edits of its configuration files.
	follow bool
	// stopping, when set, ends when the command is asked to stop: serve
	// waiting for the shared state gives up then.
	stopping context.Context
	// listsProblems marks a command that lists the configuration's
	// problems itself (catalog): they are not counted in the log.
	listsProblems bool
}

// sourceFlag names the source flags a command offers besides --config and
// --log-level: only those that change what it does.
type sourceFlag uint

const (
	flagSkills        sourceFlag = 1 << iota // --skills
	flagTools                                // --tools
	flagMCPConfig                            // --mcp-config
	flagListingBudget                        // --listing-budget
	flagResultBudget                         // --result-budget
	flagTokenizer                            // --tokenizer
	flagNoScripts                            // --no-scripts
	flagWorkdir                              // --workdir
	flagProfile                              // --profile

	flagsCatalog = flagSkills | flagTools | flagMCPConfig | flagProfile
	flagsAll     = flagsCatalog | flagListingBudget | flagResultBudget | flagTokenizer | flagNoScripts | flagWorkdir
)

func addSourceFlags(fs *flag.FlagSet, which sourceFlag, defaultLogLevel string) *sourceFlags {
	f := &sourceFlags{fs: fs, defaultLogLevel: defaultLogLevel}
	fs.StringVar(&f.config, "config", "", "config `FILE`; its relative paths are taken from its folder (default: ./"+DefaultConfigFile+" when present, else "+userConfigHint()+")")
	if which&flagSkills != 0 {
		fs.Var(&f.skills, "skills", "skill root `DIR`, repeatable (default: skills/ beside the config file)")
	}
	if which&flagTools != 0 {
		fs.Var(&f.tools, "tools", "static tool catalog `FILE` or NS=FILE (JSON), repeatable")
	}
	if which&flagMCPConfig != 0 {
		fs.StringVar(&f.mcpConfig, "mcp-config", "", "Claude-style MCP servers `FILE` (default: .mcp.json beside the config file)")
	}
	if which&flagListingBudget != 0 {
		fs.IntVar(&f.listingBudget, "listing-budget", server.DefaultListingBudget, "tokens for the up-front listing in tool_search's description; 0 lists nothing")
	}
	if which&flagResultBudget != 0 {
		fs.IntVar(&f.resultBudget, "result-budget", 0, "tokens a tool_search result may take (default 8000)")
	}
	if which&flagTokenizer != 0 {
		fs.StringVar(&f.tokenizer, "tokenizer", "", "token counting encoding: o200k_base or cl100k_base (default o200k_base)")
	}
	fs.StringVar(&f.logLevel, "log-level", "", "log level: debug, info, warn or error (default "+defaultLogLevel+"; logs go to stderr)")
	if which&flagNoScripts != 0 {
		fs.BoolVar(&f.noScripts, "no-scripts", false, "turn skill scripts off: run_skill_script refuses every call")
	}
	if which&flagWorkdir != 0 {
		fs.StringVar(&f.workdir, "workdir", "", "working `DIR` for skill scripts (default: the client's first root, else the folder toolsearch was started in: the user's project)")
	}
	if which&flagProfile != 0 {
		fs.StringVar(&f.profile, "profile", "", "see, search and call only the `NAME`d profile of toolsearch.yaml's profiles")
	}
	return f
}

// isSet reports whether the flag was given on the command line.
func (f *sourceFlags) isSet(name string) bool {
	set := false
	if f.fs != nil {
		f.fs.Visit(func(fl *flag.Flag) { set = set || fl.Name == name })
	}
	return set
}

// settings merges the config file and the flags: flags win. Paths in the
// file are taken from its folder; paths in flags, from the current folder.
func (f *sourceFlags) settings() (*Config, error) {
	path, dir, explicit, err := configFileFor(f.config, !f.hostStarted)
	if err != nil && f.config == "" {
		// No home: only what the flags name is read.
		path, dir = "", ""
	}
	cfg := &Config{}
	if path != "" {
		if cfg, err = loadConfig(path, explicit); err != nil {
			return nil, err
		}
	}
	if err := f.checkPaths(); err != nil {
		return nil, err
	}
	f.configDir, f.configFile, f.configUsed = dir, path, ""
	if explicit || path != "" && fileExists(path) {
		f.configUsed = path
	}
	if len(f.skills) > 0 {
		cfg.Skills = f.skills
	}
	if len(cfg.Skills) == 0 && dir != "" {
		if info, err := os.Stat(filepath.Join(dir, "skills")); err == nil && info.IsDir() {
			cfg.Skills = []string{filepath.Join(dir, "skills")}
		}
	}
	if len(f.tools) > 0 {
		cfg.Tools = f.tools
	}
	if f.mcpConfig != "" {
		cfg.MCPConfig = f.mcpConfig
	}
	if cfg.MCPConfig == "" && dir != "" && fileExists(filepath.Join(dir, ".mcp.json")) {
		cfg.MCPConfig = filepath.Join(dir, ".mcp.json")
	}
	if err := cfg.applyInclude(); err != nil {
		return nil, err
	}
	if f.isSet("listing-budget") {
		cfg.ListingBudget = &f.listingBudget
	}
	if cfg.ListingBudget == nil {
		b := server.DefaultListingBudget
		cfg.ListingBudget = &b
	}
	if *cfg.ListingBudget < 0 {
		return nil, fmt.Errorf("listing budget must be 0 or more tokens, got %d", *cfg.ListingBudget)
	}
	if f.resultBudget != 0 {
		cfg.ResultBudget = f.resultBudget
	}
	if cfg.ResultBudget < 0 {
		return nil, fmt.Errorf("result budget must be positive, got %d", cfg.ResultBudget)
	}
	if cfg.ResultBudget == 0 {
		cfg.ResultBudget = server.DefaultResultBudget
	}
	if f.tokenizer != "" {
		cfg.Tokenizer = f.tokenizer
	}
	if f.logLevel != "" {
		cfg.LogLevel = f.logLevel
	}
	if f.noScripts {
		cfg.Scripts.Disabled = true
	}
	if f.workdir != "" {
		cfg.Workdir = f.workdir
	}
	if f.profile != "" {
		if cfg.Profiles[f.profile] == nil {
			return nil, fmt.Errorf("--profile %s: no such profile in toolsearch.yaml (profiles: %s)", f.profile, strings.Join(profileNames(cfg), ", "))
		}
		cfg.Profile = f.profile
	}
	if f.more != nil {
		f.more(cfg)
	}
	return cfg, nil
}

// checkPaths refuses skill roots and an MCP config named on the command line
// that do not exist, as a missing --config is refused: a typo must not
// start a server that silently lacks what was asked for.
func (f *sourceFlags) checkPaths() error {
	for _, dir := range f.skills {
		info, err := os.Stat(dir)
		if err != nil {
			return fmt.Errorf("--skills %s: %w", dir, pathError(err))
		}
		if !info.IsDir() {
			return fmt.Errorf("--skills %s: not a folder (give the folder that holds skill folders, or a skill folder)", dir)
		}
	}
	if f.mcpConfig != "" {
		info, err := os.Stat(f.mcpConfig)
		if err != nil {
			return fmt.Errorf("--mcp-config %s: %w", f.mcpConfig, pathError(err))
		}
		if info.IsDir() {
			return fmt.Errorf("--mcp-config %s: a folder, not a JSON file", f.mcpConfig)
		}
	}
	return nil
}

// pathError drops the path a *fs.PathError repeats.
func pathError(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return errors.New("no such file or folder")
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
