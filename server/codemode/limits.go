package codemode

import (
	"fmt"
	"time"
)

// Limits bound one script. A zero field takes its default (see
// WithDefaults).
type Limits struct {
	// MaxSteps bounds Starlark's execution steps (Thread.SetMaxExecutionSteps).
	MaxSteps uint64 `json:"maxSteps,omitempty"`
	// Timeout bounds the wall time of the whole script, calls included.
	Timeout time.Duration `json:"timeout,omitempty"`
	// MaxCalls bounds the tool calls of one script.
	MaxCalls int `json:"maxCalls,omitempty"`
	// MaxResultBytes bounds each call's result, as JSON (or text) before it
	// becomes Starlark values.
	MaxResultBytes int `json:"maxResultBytes,omitempty"`
	// MaxValueBytes bounds a string a script builds with *, replace or
	// join, and a list it builds with * or a built-in (list, sorted, …) at
	// 16 bytes an item.
	MaxValueBytes int `json:"maxValueBytes,omitempty"`
	// MaxMemoryBytes bounds how far the process's heap may grow while the
	// script runs: the backstop for what the other bounds let through.
	MaxMemoryBytes int64 `json:"maxMemoryBytes,omitempty"`
	// MaxOutputBytes bounds what the script prints.
	MaxOutputBytes int `json:"maxOutputBytes,omitempty"`
}

// The defaults: room for a script that reads a few dozen documents and
// compares them, none for one that would hold the server up.
const (
	DefaultMaxSteps       = 5_000_000
	DefaultTimeout        = 60 * time.Second
	DefaultMaxCalls       = 100
	DefaultMaxResultBytes = 1 << 20
	DefaultMaxValueBytes  = 8 << 20
	DefaultMaxMemoryBytes = 256 << 20
	DefaultMaxOutputBytes = 32 << 10
)

// WithDefaults fills in the zero fields.
func (l Limits) WithDefaults() Limits {
	if l.MaxSteps == 0 {
		l.MaxSteps = DefaultMaxSteps
	}
	if l.Timeout == 0 {
		l.Timeout = DefaultTimeout
	}
	if l.MaxCalls == 0 {
		l.MaxCalls = DefaultMaxCalls
	}
	if l.MaxResultBytes == 0 {
		l.MaxResultBytes = DefaultMaxResultBytes
	}
	if l.MaxValueBytes == 0 {
		l.MaxValueBytes = DefaultMaxValueBytes
	}
	if l.MaxMemoryBytes == 0 {
		l.MaxMemoryBytes = DefaultMaxMemoryBytes
	}
	if l.MaxOutputBytes == 0 {
		l.MaxOutputBytes = DefaultMaxOutputBytes
	}
	return l
}

// Problems lists every negative bound, each naming its key under
// codeMode in toolsearch.yaml.
func (l Limits) Problems() []string {
	var out []string
	neg := func(key string, v int64) {
		if v < 0 {
			out = append(out, fmt.Sprintf("codeMode.%s must be positive (leave it out for the default), got %d", key, v))
		}
	}
	neg("timeout", int64(l.Timeout))
	neg("maxCalls", int64(l.MaxCalls))
	neg("maxResultBytes", int64(l.MaxResultBytes))
	neg("maxValueBytes", int64(l.MaxValueBytes))
	neg("maxMemoryBytes", l.MaxMemoryBytes)
	neg("maxOutputBytes", int64(l.MaxOutputBytes))
	return out
}
