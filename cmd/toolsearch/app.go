package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/runner"
	"github.com/toolsearch/toolsearch/server"
)

// app is everything a command needs once the sources are loaded.
type app struct {
	cfg     *Config
	log     *slog.Logger
	catalog *loader.Catalog
	skills  *loader.SkillSource
	server  *server.Server
	// activity records requests for the status page and the trace.
	activity *server.Activity
	closers  []io.Closer
}

// newLogger logs to stderr: stdout is the MCP protocol channel.
func newLogger(level string) (*slog.Logger, error) {
	var l slog.Level
	if level == "" {
		level = os.Getenv("TOOLSEARCH_LOG")
	}
	if level != "" {
		if err := l.UnmarshalText([]byte(level)); err != nil {
			return nil, fmt.Errorf("log level %q: want debug, info, warn or error", level)
		}
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: l})), nil
}

// openApp loads every configured source into a catalog and builds the
// server over it. Problems with single sources are logged, never fatal.
func openApp(f *sourceFlags) (*app, error) {
	cfg, err := f.settings()
	if err != nil {
		return nil, err
	}
	log, err := newLogger(cfg.LogLevel)
	if err != nil {
		return nil, err
	}
	a := &app{cfg: cfg, log: log, catalog: loader.NewCatalog(server.ReservedNames...)}
	if len(cfg.Skills) > 0 {
		a.skills = loader.NewSkillSource(cfg.Skills, a.catalog, log)
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
	var scripts *runner.Runner
	if !cfg.Scripts.Disabled {
		scripts = runner.New(runner.Options{
			WorkDir:        cfg.Workdir,
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
	a.server, err = server.New(a.catalog, server.Options{
		Activity:      a.activity,
		Scripts:       scripts,
		Version:       versionString(),
		ListingBudget: *cfg.ListingBudget,
		ResultBudget:  cfg.ResultBudget,
		Tokenizer:     cfg.Tokenizer,
		Logger:        log,
		Promote:       cfg.Promote,
	})
	if err != nil {
		return nil, err
	}
	return a, nil
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

func (a *app) close() {
	if a.server != nil {
		a.server.Close()
	}
	for _, c := range a.closers {
		c.Close()
	}
}

// joinNonEmpty joins the non-empty strings.
func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
