// Package devsplit locates the development split of the tool-retrieval
// benchmark for the tests and benchmarks that read it. The split is not part
// of the repository: it sits beside it, as shared/eval/dev next to the
// repository's folder (../shared/eval/dev from its root), or wherever
// TOOLSEARCH_DEV_SPLIT says, which a checkout elsewhere (a git worktree,
// say) sets.
package devsplit

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// EnvVar names the environment variable that overrides the location.
const EnvVar = "TOOLSEARCH_DEV_SPLIT"

// Dir returns the split's folder, whether it exists or not.
func Dir() string {
	if d := os.Getenv(EnvVar); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		return filepath.Join("..", "shared", "eval", "dev")
	}
	for { // the repository's root holds go.mod
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(filepath.Dir(dir), "shared", "eval", "dev")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return filepath.Join("..", "shared", "eval", "dev")
		}
		dir = parent
	}
}

// Tools reads the split's catalog: its tools' definitions, each as written.
// An error matching os.ErrNotExist means the split is not there (Missing
// says where it was looked for).
func Tools() ([]json.RawMessage, error) {
	file := filepath.Join(Dir(), "catalog.json")
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var tools []json.RawMessage
	if err := json.Unmarshal(data, &tools); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return tools, nil
}

// ToolsOrSkip is Tools for a test or benchmark that needs the split: it is
// skipped when the split is not there, and fails when the catalog cannot be
// read.
func ToolsOrSkip(tb testing.TB) []json.RawMessage {
	tb.Helper()
	tools, err := Tools()
	if errors.Is(err, os.ErrNotExist) {
		tb.Skip(Missing())
	}
	if err != nil {
		tb.Fatal(err)
	}
	return tools
}

// Missing says where the split was looked for, for a skip or a log line.
func Missing() string {
	return "the development split is not at " + Dir() + " (shared/eval/dev beside the repository; set " + EnvVar + " to its folder)"
}
