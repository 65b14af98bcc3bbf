package main

import (
	"context"
	"log/slog"
	"sync"
)

// heldLog holds the warnings and errors logged while a one-shot command
// loads its configuration (toolsearch.yaml, .mcp.json, skills, tool
// files), so that the command can say in one line how many there were and
// which command lists them, instead of repeating every one on every run.
// serve logs each as it comes: its log is where a user looks for them.
// Once released, records pass through.
type heldLog struct {
	slog.Handler
	state *heldState
}

type heldState struct {
	mu      sync.Mutex
	holding bool
	held    int
}

func newHeldLog(h slog.Handler) *heldLog {
	return &heldLog{Handler: h, state: &heldState{holding: true}}
}

func (h *heldLog) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelWarn {
		h.state.mu.Lock()
		holding := h.state.holding
		if holding {
			h.state.held++
		}
		h.state.mu.Unlock()
		if holding {
			return nil
		}
	}
	return h.Handler.Handle(ctx, r)
}

func (h *heldLog) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &heldLog{Handler: h.Handler.WithAttrs(attrs), state: h.state}
}

func (h *heldLog) WithGroup(name string) slog.Handler {
	return &heldLog{Handler: h.Handler.WithGroup(name), state: h.state}
}

// release stops holding and returns how many records were held.
func (h *heldLog) release() int {
	h.state.mu.Lock()
	defer h.state.mu.Unlock()
	h.state.holding = false
	return h.state.held
}

// noteHeldProblems ends the hold of a one-shot command's configuration
// warnings with one line that counts them and names the command that
// lists them; catalog, which lists them itself, says nothing.
func (a *app) noteHeldProblems(f *sourceFlags) {
	if a.held == nil {
		return
	}
	n := a.held.release()
	if n == 0 || f.listsProblems {
		return
	}
	a.log.Warn(plural(n, "configuration problem") + " (toolsearch.yaml, .mcp.json, skills or tool files) not repeated here: " + a.commandLine("catalog") + " lists them")
}
