package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolsearch/toolsearch/loader/problem"
	"github.com/toolsearch/toolsearch/loader/trust"
	"github.com/toolsearch/toolsearch/loader/upstream"
)

// A project's configuration includes the user's.
//
// A server keeps the reach it had in the host it came from (init --from):
// the user's servers are in the user's configuration, served in every
// project by a toolsearch registered for every project; a project's are in
// a configuration of that project's own, registered for that project
// alone, where it takes the place of the other registration, as a
// project's server wins over the user's in every host. So that the user's
// servers stay in that project, its toolsearch.yaml includes the user's:
//
//	include: ~/.config/toolsearch/toolsearch.yaml
//
// The included file's skills, tools and servers are served after this
// file's own (whose win a name clash), with their settings; of the other
// settings, those this file leaves out are the included file's. The
// project's own servers are its author's choice, not the user's: unless
// their settings say otherwise, every definition of theirs waits for
// approval once, the first listing's included, as a remote server's does
// (trust.DefaultRemoteMode).

// includedConfig is what a configuration takes from the one it includes.
type includedConfig struct {
	path      string // the included toolsearch.yaml
	mcpConfig string // its servers, "" when it has none
}

// applyInclude reads the file cfg includes, with the defaults its folder
// gives it (skills/ and .mcp.json beside it), and merges it into cfg.
func (cfg *Config) applyInclude() error {
	if cfg.Include == "" {
		return nil
	}
	inc, err := loadConfig(cfg.Include, true)
	if err != nil {
		return fmt.Errorf("%s: include: %w", cfg.path, err)
	}
	if inc.Include != "" {
		return fmt.Errorf("%s: include: %s includes %s in turn: a configuration includes one other, which includes none", cfg.path, cfg.Include, inc.Include)
	}
	dir := filepath.Dir(absPath(cfg.Include))
	if len(inc.Skills) == 0 {
		if info, err := os.Stat(filepath.Join(dir, "skills")); err == nil && info.IsDir() {
			inc.Skills = []string{filepath.Join(dir, "skills")}
		}
	}
	if inc.MCPConfig == "" && fileExists(filepath.Join(dir, ".mcp.json")) {
		inc.MCPConfig = filepath.Join(dir, ".mcp.json")
	}
	cfg.included = &includedConfig{path: absPath(cfg.Include), mcpConfig: inc.MCPConfig}
	cfg.Skills = append(cfg.Skills, inc.Skills...)
	cfg.Tools = append(cfg.Tools, inc.Tools...)
	for name, sc := range inc.Servers {
		if cfg.Servers == nil {
			cfg.Servers = map[string]*ServerSettings{}
		}
		if _, own := cfg.Servers[name]; !own {
			cfg.Servers[name] = sc
		}
	}
	if cfg.ListingBudget == nil {
		cfg.ListingBudget = inc.ListingBudget
	}
	if cfg.FirstListWait == nil {
		cfg.FirstListWait = inc.FirstListWait
	}
	cfg.ResultBudget = cmpOrZero(cfg.ResultBudget, inc.ResultBudget)
	cfg.ConnectWait = cmpOrZero(cfg.ConnectWait, inc.ConnectWait)
	cfg.Tokenizer = cmpOrZero(cfg.Tokenizer, inc.Tokenizer)
	cfg.LogLevel = cmpOrZero(cfg.LogLevel, inc.LogLevel)
	cfg.Workdir = cmpOrZero(cfg.Workdir, inc.Workdir)
	// Code mode is the user's choice, not a project's: a project's file
	// that says nothing of it (or turns it off, which reads the same) has
	// the included file's.
	cfg.CodeMode = cmpOrZero(cfg.CodeMode, inc.CodeMode)
	cfg.warnings = append(cfg.warnings, inc.warnings...)
	return nil
}

func cmpOrZero[T comparable](own, included T) T {
	var zero T
	if own != zero {
		return own
	}
	return included
}

// readConfigServers reads the servers of cfg's MCP config file and, when
// it includes another configuration, that one's after them: a name both
// define is this file's. Without an include, it is readServers.
func readConfigServers(cfg *Config) ([]upstream.ServerConfig, problem.Problems, error) {
	own, probs, err := readServers(cfg.MCPConfig)
	cfg.ownServers = nil
	if cfg.included == nil {
		return own, probs, err
	}
	cfg.ownServers = map[string]bool{}
	for _, s := range own {
		cfg.ownServers[s.Name] = true
	}
	if cfg.included.mcpConfig == "" || absPath(cfg.included.mcpConfig) == absPath(cfg.MCPConfig) {
		return own, probs, err
	}
	theirs, incProbs, incErr := readServers(cfg.included.mcpConfig)
	probs = append(probs, incProbs...)
	if incErr != nil {
		incErr = fmt.Errorf("%s (included from %s): %w", cfg.included.mcpConfig, cfg.path, incErr)
	}
	servers := own
	for _, s := range theirs {
		if !cfg.ownServers[s.Name] {
			servers = append(servers, s)
		}
	}
	if err == nil {
		err = incErr
	}
	return servers, probs, err
}

// heldByDefault gives a configuration's own servers, when it includes the
// user's (a project's configuration), the quarantine of remote servers
// unless their settings name one.
func heldByDefault(cfg *Config, settings map[string]upstream.Settings) {
	for name := range cfg.ownServers {
		set := settings[name]
		if set.Quarantine == "" {
			set.Quarantine = trust.DefaultRemoteMode
			settings[name] = set
		}
	}
}

// includedFiles are the files an include adds to those a configuration
// follows.
func includedFiles(cfg *Config) []string {
	if cfg.included == nil {
		return nil
	}
	files := []string{cfg.included.path}
	if cfg.included.mcpConfig != "" {
		files = append(files, cfg.included.mcpConfig)
	}
	return files
}
