package main

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/problem"
	"github.com/toolsearch/toolsearch/loader/upstream"
)

// configDebounce is how long edits of the configuration files must be quiet
// before they are applied: an editor's save is several events.
const configDebounce = 200 * time.Millisecond

// configSource names the catalog source that carries the problems of the
// configuration files, while they have any.
const configSource = "configuration"

// followConfig applies edits of the MCP config and toolsearch.yaml while the
// server runs, until ctx ends: servers added, removed or changed in either
// file are started, stopped or restarted, and the others are not touched.
// An edit that cannot be read is reported (log, status page, catalog) and
// the configuration in force stays. Of toolsearch.yaml, the servers and
// mcpConfig apply at once; other keys take effect at the next start, which
// the log says.
func (a *app) followConfig(ctx context.Context, sf *sourceFlags) {
	if a.upstreams == nil {
		return
	}
	applied := a.cfg
	go func() {
		err := loader.WatchFiles(ctx, configDebounce,
			func() []string { return configFiles(sf, applied) },
			func() { applied = a.reload(sf, applied) },
			a.log)
		if err != nil {
			a.log.Warn("not following edits of the configuration files", "err", err)
		}
	}()
}

// configFiles are the files a configuration comes from, and the default
// ones it would come from once they exist: those of the configuration
// folder, never the current folder's (sourceFlags.settings).
func configFiles(sf *sourceFlags, cfg *Config) []string {
	var files []string
	if sf.configFile != "" {
		files = append(files, sf.configFile)
	}
	switch {
	case cfg.MCPConfig != "":
		files = append(files, cfg.MCPConfig)
	case sf.configDir != "":
		files = append(files, filepath.Join(sf.configDir, ".mcp.json"))
	}
	files = append(files, includedFiles(cfg)...)
	// A configuration folder the user has not made yet (a first start) is
	// not watched: its absence is no problem to report.
	return slices.DeleteFunc(files, func(f string) bool { return !fileExists(filepath.Dir(f)) })
}

// reload reads the configuration files again and applies what changed
// since prev; it returns the configuration now in force.
func (a *app) reload(sf *sourceFlags, prev *Config) *Config {
	cfg, err := sf.settings()
	if err != nil {
		a.configBroken(problem.Problem{File: sf.configUsed, Severity: problem.SeverityError, Message: err.Error()})
		return prev
	}
	if gone := prev.MCPConfig; gone != "" && !fileExists(gone) && (cfg.MCPConfig == "" || cfg.MCPConfig == gone) {
		a.configBroken(problem.Problem{File: gone, Severity: problem.SeverityError, Message: "the file is gone; the servers it defined keep running until it is back or toolsearch restarts"})
		return prev
	}
	servers, probs, err := readConfigServers(cfg)
	if err != nil {
		a.configBroken(problem.Problem{File: cfg.MCPConfig, Severity: problem.SeverityError, Message: err.Error()})
		return prev
	}
	servers, kept := keepBroken(a.servers, servers, probs)
	settings, err := upstreamSettings(cfg, servers, a.log)
	if err != nil {
		a.configBroken(problem.Problem{File: sf.configUsed, Severity: problem.SeverityError, Message: err.Error()})
		return prev
	}
	for _, p := range probs {
		a.log.Warn("upstream configuration", "problem", p.String())
	}
	shown := unshown(probs, servers)
	for _, name := range kept {
		shown = append(shown, problem.Problem{File: cfg.MCPConfig, Field: "mcpServers." + name, Severity: problem.SeverityWarning,
			Message: "mcpServers." + name + ": the entry is broken; the server keeps running as it was configured before"})
	}
	a.upstreams.Reconfigure(servers, settings)
	a.servers = servers
	if keys := restartKeys(prev, cfg); len(keys) > 0 {
		a.log.Warn("toolsearch.yaml changed settings that take effect at the next start", "keys", keys)
	}
	a.reportConfig(slices.Concat(shown, cfg.warningProblems()))
	return cfg
}

// configBroken reports an edit that cannot be applied.
func (a *app) configBroken(p problem.Problem) {
	p.Message += "; the configuration read before stays in force"
	a.log.Error("configuration not reloaded", "problem", p.String())
	a.reportConfig(problem.Problems{p})
}

// reportConfig shows the configuration's problems in the catalog, as the
// source configSource, and takes that source away when there are none.
// Warnings about one server's entry show on that server's source instead.
func (a *app) reportConfig(shown problem.Problems) {
	if len(shown) == 0 {
		if _, ok := a.catalog.Snapshot().Source(configSource); ok {
			a.catalog.Remove(configSource)
		}
		return
	}
	src := &catalog.Source{Name: configSource, Kind: catalog.SourceConfig, Problems: shown}
	if errs := shown.Errors(); len(errs) > 0 {
		src.LastError = errs[0].String()
	}
	a.catalog.Put(src)
}

// keepBroken keeps, in the servers read now, the configuration of each
// server that ran before and whose entry is broken now: a typo must not
// stop a server. It returns the servers and the names kept.
func keepBroken(before, now []upstream.ServerConfig, probs problem.Problems) ([]upstream.ServerConfig, []string) {
	var kept []string
	for _, old := range before {
		if slices.ContainsFunc(now, func(sc upstream.ServerConfig) bool { return sc.Name == old.Name }) {
			continue
		}
		key := "mcpServers." + old.Name
		if slices.ContainsFunc(probs, func(p problem.Problem) bool {
			return p.Severity == problem.SeverityError && (p.Field == key || strings.HasPrefix(p.Field, key+"."))
		}) {
			now = append(now, old)
			kept = append(kept, old.Name)
		}
	}
	return now, kept
}

// restartKeys names the keys of toolsearch.yaml whose change takes effect
// only at the next start: all but servers and mcpConfig.
func restartKeys(prev, cur *Config) []string {
	var keys []string
	pv, cv := reflect.ValueOf(prev).Elem(), reflect.ValueOf(cur).Elem()
	for i := range pv.NumField() {
		f := pv.Type().Field(i)
		key, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if !f.IsExported() || key == "" || key == "servers" || key == "mcpConfig" {
			continue
		}
		if !reflect.DeepEqual(pv.Field(i).Interface(), cv.Field(i).Interface()) {
			keys = append(keys, key)
		}
	}
	return keys
}
