package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/cmd/toolsearch/internal/hosts"
	"github.com/toolsearch/toolsearch/internal/state/pgstate"
	"github.com/toolsearch/toolsearch/internal/suggest"
	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/problem"
	"github.com/toolsearch/toolsearch/loader/trust"
	"github.com/toolsearch/toolsearch/loader/upstream"
	"github.com/toolsearch/toolsearch/runner"
	"github.com/toolsearch/toolsearch/server"
	"github.com/toolsearch/toolsearch/server/metrics"
)

// app is everything a command needs once the sources are loaded.
type app struct {
	cfg     *Config
	log     *slog.Logger
	catalog *catalog.Catalog
	skills  *loader.SkillSource
	server  *server.Server
	// activity records requests for the status page and the trace.
	activity *server.Activity
	closers  []io.Closer
	// upstreams runs the servers of .mcp.json; nil without any.
	upstreams *upstream.Manager
	servers   []upstream.ServerConfig
	upOpts    upstream.Options
	// follow says that the command follows edits of its configuration
	// (serve): it gets a Manager even without servers.
	follow bool
	// stopping is sourceFlags.stopping, or nil.
	stopping context.Context
	// approvals holds the approved definitions of tools and skills.
	approvals *trust.Store
	// state is the database of toolsearch.yaml's state: postgres; nil
	// with files.
	state *pgstate.DB
	// stateKey is state.keyFile's key, nil without one; early serves
	// /readyz, not ready, while serve loads the shared state.
	stateKey *pgstate.Key
	early    *earlyListener
	// serverOpts are the options every server of the app shares; profiles
	// holds a server per profile served, each over its view of catalog.
	serverOpts server.Options
	profiles   map[string]*server.Server
	// scripts runs skill scripts; nil when they are turned off.
	scripts  *runner.Runner
	stopOnce sync.Once
	// held holds a one-shot command's configuration warnings while it
	// loads; nil for serve, which logs each.
	held *heldLog

	// metrics are served as /metrics by serve --http; nil otherwise.
	metrics *metrics.Metrics
}

// newLogger logs to stderr: stdout is the MCP protocol channel. The level
// comes from the flag or config file, else TOOLSEARCH_LOG, else the
// command's default.
func newLogger(level, fallback string) (*slog.Logger, error) {
	var l slog.Level
	if level == "" {
		level = os.Getenv("TOOLSEARCH_LOG")
	}
	if level == "" {
		level = fallback
	}
	if level != "" {
		if err := l.UnmarshalText([]byte(level)); err != nil {
			return nil, fmt.Errorf("log level %q: want debug, info, warn or error", level)
		}
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: l}))
	slog.SetDefault(log) // for what logs before or outside an app, such as a shutdown
	return log, nil
}

// parseAndOpen parses a command's flags and opens its app; it returns the
// arguments besides the flags. The caller closes the app.
func parseAndOpen(fs *flag.FlagSet, sf *sourceFlags, args []string) (*app, []string, error) {
	rest, err := parseFlags(fs, args)
	if err != nil {
		return nil, nil, err
	}
	a, err := openApp(sf)
	if err != nil {
		return nil, nil, err
	}
	return a, rest, nil
}

// openApp loads every configured source into a catalog and builds the
// server over it. Problems with single sources are logged, never fatal.
func openApp(f *sourceFlags) (*app, error) {
	a, err := newApp(f)
	if err != nil {
		return nil, err
	}
	cfg, log := a.cfg, a.log
	if err := a.openState(); err != nil {
		return nil, err
	}
	if len(cfg.Skills) > 0 {
		a.skills = loader.NewSkillSource(cfg.Skills, a.catalog, log)
		if cfg.SkillsMaxBytes != nil {
			a.skills.MaxTotalBytes = *cfg.SkillsMaxBytes
		}
		a.skills.Approved = a.skillApproved
		a.skills.Load()
	}
	for _, spec := range cfg.Tools {
		src, err := loader.LoadToolsFile(spec)
		if err != nil {
			return nil, fmt.Errorf("--tools %s: %w", spec, err)
		}
		for _, p := range src.Problems {
			log.Warn("tool not loaded", "problem", p.String())
		}
		a.catalog.Put(src)
	}
	a.metrics = a.newMetrics()
	if err := a.loadUpstreamConfig(); err != nil {
		return nil, err
	}
	if !cfg.Scripts.Disabled {
		a.scripts = runner.New(runner.Options{
			WorkDir:        scriptsWorkDir(cfg.Workdir),
			OutputLimit:    cfg.Scripts.OutputLimit,
			DefaultTimeout: time.Duration(cfg.Scripts.Timeout),
			MaxTimeout:     time.Duration(cfg.Scripts.MaxTimeout),
			Concurrency:    cfg.Scripts.Concurrency,
			EnvAllow:       cfg.Scripts.Env,
			SkillDisabled:  func(skill string) bool { return slices.Contains(cfg.Scripts.DisabledSkills, skill) },
			Logger:         log,
		})
	}
	if cfg.Trace != "" || cfg.HTTP.Addr != "" {
		var trace io.Writer
		if cfg.Trace != "" {
			f, err := os.OpenFile(cfg.Trace, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
			if err != nil {
				return nil, fmt.Errorf("trace: %w", err)
			}
			a.closers = append(a.closers, f)
			trace = f
		}
		a.activity = server.NewActivity(200, trace, cfg.TraceArgs)
	}
	opts := server.Options{
		Activity:      a.activity,
		Metrics:       a.metrics,
		Scripts:       a.scripts,
		Version:       versionString(),
		ListingBudget: *cfg.ListingBudget,
		ResultBudget:  cfg.ResultBudget,
		Tokenizer:     cfg.Tokenizer,
		Logger:        log,
		Promote:       cfg.Promote,
		// Without a workdir of the user's, scripts run in the project the
		// client names in its roots.
		ScriptsInRoots: cfg.Workdir == "",
		CodeMode:       cfg.CodeMode.serverLimits(),
	}
	if cfg.FirstListWait != nil {
		opts.FirstListWait = time.Duration(*cfg.FirstListWait)
		if opts.FirstListWait == 0 {
			opts.FirstListWait = -1 // 0 in the file: no wait, which the server spells negative
		}
	}
	if a.upstreams != nil { // a nil *Manager in the interface would not be nil
		opts.Upstreams = a.upstreams
	}
	a.serverOpts = opts
	a.server, err = a.serverFor(cfg.Profile)
	if err != nil {
		return nil, err
	}
	a.noteHeldProblems(f)
	a.warnIfEmpty(f)
	a.noteUnreadProject(f)
	return a, nil
}

// scriptsWorkDir is where skill scripts run unless the client names its
// project in its roots: the workdir configured (absolute: toolsearch.yaml's
// is taken from its folder, --workdir from the current one), else the
// folder toolsearch was started in, which hosts make the user's project.
// It is fixed at start, whatever the process does later.
func scriptsWorkDir(configured string) string {
	if configured != "" {
		return absPath(configured)
	}
	wd, _ := os.Getwd()
	return wd
}

// warnIfEmpty says, once, what was looked for when nothing was found: a
// server with an empty catalog answers every search with nothing, and the
// reason is usually a configuration folder other than the one meant.
func (a *app) warnIfEmpty(f *sourceFlags) {
	if len(a.catalog.Snapshot().Entries) > 0 || len(a.servers) > 0 {
		return
	}
	wd, _ := os.Getwd()
	dir := f.configDir
	if dir == "" {
		dir = "none (no home folder)"
	}
	skills := "none (no --skills, no skills in the config file, no skills/ in " + dir + ")"
	if len(a.cfg.Skills) > 0 {
		skills = strings.Join(a.cfg.Skills, ", ") + " (no valid skill found)"
	}
	mcpConfig := "none (no --mcp-config, no mcpConfig in the config file, no .mcp.json in " + dir + ")"
	if a.cfg.MCPConfig != "" {
		mcpConfig = a.cfg.MCPConfig + " (no server in it)"
	}
	configFile := f.configUsed
	if configFile == "" {
		configFile = "none (no " + filepath.Join(dir, DefaultConfigFile) + ")"
	}
	a.log.Warn("the catalog is empty: no skill, tool or MCP server was found; toolsearch init writes a starting configuration (in "+userConfigHint()+"'s folder by default), --config FILE names one",
		"config", configFile, "skills", skills, "mcpConfig", mcpConfig, "tools", len(a.cfg.Tools), "workdir", wd)
}

// noteUnreadProject says, at info level, that the current folder holds
// configuration files serve does not read: hosts start serve in the
// user's project, whose files run nothing unless the user names them.
func (a *app) noteUnreadProject(f *sourceFlags) {
	if !f.hostStarted {
		return
	}
	wd, err := os.Getwd()
	if err != nil || wd == f.configDir {
		return
	}
	used := map[string]bool{absPath(a.cfg.MCPConfig): a.cfg.MCPConfig != "", f.configUsed: f.configUsed != ""}
	for _, s := range a.cfg.Skills {
		used[absPath(s)] = true
	}
	var unread []string
	for _, name := range []string{DefaultConfigFile, ".mcp.json", "skills"} {
		if p := filepath.Join(wd, name); fileExists(p) && !used[p] {
			unread = append(unread, name)
		}
	}
	if len(unread) > 0 {
		a.log.Info("this folder's own configuration is not read: serve reads only the files it is given (--config, --mcp-config, --skills) or the user's configuration folder; name them to serve them",
			"folder", wd, "unread", strings.Join(unread, ", "), "configFolder", f.configDir)
	}
}

// newApp reads the settings and makes the logger and an empty catalog.
func newApp(f *sourceFlags) (*app, error) {
	cfg, err := f.settings()
	if err != nil {
		return nil, err
	}
	log, err := newLogger(cfg.LogLevel, f.defaultLogLevel)
	if err != nil {
		return nil, err
	}
	a := &app{cfg: cfg, log: log, catalog: catalog.New(server.ReservedNames...), follow: f.follow, stopping: f.stopping}
	if !f.follow {
		a.held = newHeldLog(log.Handler())
		a.log = slog.New(a.held)
	}
	for _, w := range cfg.warnings {
		a.log.Warn("toolsearch.yaml", "file", cfg.path, "problem", w)
	}
	return a, nil
}

// loadUpstreamConfig reads .mcp.json and prepares (but does not start) the
// upstream servers. A broken file or entry is logged and shown in the
// catalog; the rest still runs. A command that follows its configuration
// gets a Manager even without servers, for those added later.
func (a *app) loadUpstreamConfig() error {
	path := a.cfg.MCPConfig
	servers, probs, err := readConfigServers(a.cfg)
	if err != nil {
		// A one-shot command stops: what it would print would leave out
		// every server of the file. serve goes on, follows the file and
		// starts its servers once it can be read.
		if !a.follow {
			return fmt.Errorf("%w; fix it, or name another file with --mcp-config", err)
		}
		probs = append(probs, fileProblem(path, err))
	}
	for _, p := range probs {
		a.log.Warn("upstream configuration", "problem", p.String())
	}
	settings, err := upstreamSettings(a.cfg, servers, a.log)
	if err != nil {
		return err
	}
	a.reportConfig(slices.Concat(unshown(probs, servers), a.cfg.warningProblems()))
	if len(servers) == 0 && !a.follow {
		return nil
	}
	a.servers = servers
	a.upOpts = upstream.Options{
		Catalog:       a.catalog,
		Settings:      settings,
		Approvals:     a.approvals,
		ConnectWait:   time.Duration(a.cfg.ConnectWait),
		Logger:        a.log,
		ClientInfo:    &mcp.Implementation{Name: "toolsearch", Version: versionString()},
		LoginCommand:  a.loginCommand,
		ReviewCommand: a.reviewCommand,
		UserLoginHint: userLoginHint,
	}
	if a.metrics != nil { // a nil *Metrics in the interface would not be nil
		a.upOpts.Observer = a.metrics
	}
	a.stateOptions(&a.upOpts)
	a.upstreams = upstream.New(servers, a.upOpts)
	return nil
}

// unshown are the problems of an MCP config that no server's source
// carries: those of the file, and every one of an entry left out.
func unshown(probs problem.Problems, servers []upstream.ServerConfig) problem.Problems {
	var out problem.Problems
	for _, p := range probs {
		if !slices.ContainsFunc(servers, func(sc upstream.ServerConfig) bool { return slices.Contains(sc.Problems, p) }) {
			out = append(out, p)
		}
	}
	return out
}

// fileProblem is the problem of a configuration file that could not be
// read: located, when it was read but is not what it should be.
func fileProblem(path string, err error) problem.Problem {
	var fe *upstream.FileError
	if errors.As(err, &fe) {
		return fe.Problem
	}
	return problem.Problem{File: path, Severity: problem.SeverityError, Message: pathError(err).Error()}
}

// readServers reads the upstream servers of an MCP config file; no file
// means no servers.
func readServers(path string) ([]upstream.ServerConfig, problem.Problems, error) {
	if path == "" {
		return nil, nil, nil
	}
	servers, probs, err := upstream.LoadConfig(path)
	servers, selfProbs := withoutSelf(path, servers)
	servers, nestedProbs := withoutStdioWhenNested(path, servers, nestedReason())
	return servers, slices.Concat(probs, selfProbs, nestedProbs), err
}

// upstreamSettings makes each server's settings from toolsearch.yaml.
func upstreamSettings(cfg *Config, servers []upstream.ServerConfig, log *slog.Logger) (map[string]upstream.Settings, error) {
	known := map[string]bool{}
	for _, sc := range servers {
		known[sc.Name] = true
	}
	settings := map[string]upstream.Settings{}
	for name, sc := range cfg.Servers {
		if !known[name] {
			w := "servers." + name + ": configures a server that " + cfg.MCPConfig + " does not define" + suggest.Hint(name, slices.Collect(maps.Keys(known)))
			log.Warn("toolsearch.yaml", "file", cfg.path, "problem", w)
			cfg.warnings = append(cfg.warnings, w)
			continue
		}
		set := upstream.Settings{Disabled: sc.Disabled, Timeout: time.Duration(sc.Timeout), ConnectWait: time.Duration(sc.ConnectWait), AlwaysLoad: sc.AlwaysLoad, Policy: map[string]catalog.Policy{}, OAuth: sc.OAuth.settings(), Quarantine: trust.Mode(sc.Quarantine), MaxConcurrent: sc.MaxConcurrent}
		for glob, p := range sc.Policy {
			pol, err := catalog.ParsePolicy(p)
			if err != nil {
				return nil, fmt.Errorf("servers.%s.policy.%s: %w", name, glob, err)
			}
			set.Policy[glob] = pol
		}
		settings[name] = set
		if w := perUserWarning(name, set, servers); w != "" {
			log.Warn("toolsearch.yaml", "file", cfg.path, "problem", w)
			cfg.warnings = append(cfg.warnings, w)
		}
	}
	heldByDefault(cfg, settings)
	return settings, nil
}

// loginCommand is the command that logs in to a server with the settings
// this process uses, whatever directory it is run from.
func (a *app) loginCommand(server string) string {
	return a.commandLine("auth", "login", server)
}

// commandLine is a toolsearch command line, quoted for a shell, that names
// the configuration files this process uses by their absolute paths, so
// that it acts on the same configuration from any directory.
func (a *app) commandLine(args ...string) string {
	args = append([]string{"toolsearch"}, args...)
	if a.cfg.path != "" {
		args = append(args, "--config", absPath(a.cfg.path))
	}
	if a.cfg.MCPConfig != "" {
		args = append(args, "--mcp-config", absPath(a.cfg.MCPConfig))
	}
	return hosts.ShellJoin(args...)
}

func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// startUpstreams connects to the upstream servers in the background; their
// last known catalogs are served at once. They run until the app closes.
func (a *app) startUpstreams() {
	if a.upstreams != nil {
		a.upstreams.Start(context.Background())
	}
}

// loadPersistedUpstreams publishes the upstreams' last known catalogs
// without connecting to any.
func (a *app) loadPersistedUpstreams() {
	if a.upstreams != nil {
		a.upstreams.LoadPersisted()
	}
}

// upstreamStates reports each upstream's state, for /readyz.
func (a *app) upstreamStates() map[string]string {
	states := map[string]string{}
	if a.upstreams != nil {
		for _, st := range a.upstreams.Status() {
			states[st.Server] = string(st.State)
		}
	}
	return states
}

// loginServers names the servers the status page offers a login for:
// those that need one, and those logged in to.
func (a *app) loginServers() []string {
	var names []string
	for _, st := range a.upstreams.Status() {
		tokens, _ := a.upstreams.Tokens(st.Server)
		if tokens != nil && (st.State == catalog.StateNeedsAuth || tokens.Info() != nil) {
			names = append(names, st.Server)
		}
	}
	return names
}

// upstreamFlags choose how a one-shot command sees the upstream servers.
type upstreamFlags struct {
	offline bool
	wait    time.Duration
}

func addUpstreamFlags(fs *flag.FlagSet, canOffline bool) *upstreamFlags {
	f := &upstreamFlags{}
	if canOffline {
		fs.BoolVar(&f.offline, "offline", false, "use upstream servers' last known catalogs without connecting to them")
	}
	fs.DurationVar(&f.wait, "wait", time.Minute, "how long to wait at most for upstream servers to connect and list their tools")
	return f
}

// loadUpstreams brings the upstream servers in as the flags say: their last
// known catalogs only, or connected and listed.
func (a *app) loadUpstreams(ctx context.Context, f *upstreamFlags) {
	if f.offline {
		a.loadPersistedUpstreams()
		return
	}
	a.settleUpstreams(ctx, f.wait)
}

// settleUpstreams starts the upstreams and waits until none is still
// connecting for the first time, or until wait has passed, for commands
// that report on them once. Given names, it starts and waits for those
// servers only.
func (a *app) settleUpstreams(ctx context.Context, wait time.Duration, only ...string) {
	if a.upstreams == nil {
		return
	}
	if only == nil {
		a.startUpstreams()
	} else {
		a.upstreams.StartServers(context.Background(), only...) // they run until the app closes
	}
	starting := func(s catalog.State) bool { return s == catalog.StateConnecting || s == catalog.StateValidating }
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		settled := true
		// A server's state changes before the catalog has it: what is
		// printed next comes from the catalog, so it must have settled too.
		snap := a.catalog.Snapshot()
		for _, st := range a.upstreams.Status() {
			if only != nil && !slices.Contains(only, st.Server) {
				continue
			}
			if src, ok := snap.Source(st.Server); starting(st.State) || st.Relisting || (ok && starting(src.State)) {
				settled = false
			}
		}
		if settled {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// watchSkills follows the skill roots until ctx ends.
func (a *app) watchSkills(ctx context.Context) {
	if a.skills == nil {
		return
	}
	go func() {
		if err := a.skills.Watch(ctx, 200*time.Millisecond); err != nil {
			a.log.Warn("not watching skill roots", "err", err)
		}
	}()
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
