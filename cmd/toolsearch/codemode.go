package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/toolsearch/toolsearch/server"
	"github.com/toolsearch/toolsearch/server/codemode"
)

// CodeModeConfig is toolsearch.yaml's codeMode: true or false, or the
// bounds of each script (which turn code mode on unless enabled: false).
type CodeModeConfig struct {
	Enabled bool
	Limits  codemode.Limits
}

// codeModeKeys is codeMode's mapping form.
type codeModeKeys struct {
	Enabled        *bool    `yaml:"enabled"`
	MaxSteps       uint64   `yaml:"maxSteps"`
	Timeout        Duration `yaml:"timeout"`
	MaxCalls       int      `yaml:"maxCalls"`
	MaxResultBytes int      `yaml:"maxResultBytes"`
	MaxValueBytes  int      `yaml:"maxValueBytes"`
	MaxMemoryBytes int64    `yaml:"maxMemoryBytes"`
	MaxOutputBytes int      `yaml:"maxOutputBytes"`
}

// UnmarshalYAML reads codeMode: a boolean, or a mapping of the bounds.
func (c *CodeModeConfig) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		if err := n.Decode(&c.Enabled); err != nil {
			return fmt.Errorf("line %d: codeMode is true, false, or a mapping of its bounds (see docs/configuration.md), got %q", n.Line, n.Value)
		}
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: codeMode is true, false, or a mapping of its bounds (see docs/configuration.md)", n.Line)
	}
	known := []string{"enabled", "maxSteps", "timeout", "maxCalls", "maxResultBytes", "maxValueBytes", "maxMemoryBytes", "maxOutputBytes"}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if key := n.Content[i]; !slices.Contains(known, key.Value) {
			return fmt.Errorf("line %d: unknown key codeMode.%s (codeMode takes %s)", key.Line, key.Value, strings.Join(known, ", "))
		}
	}
	var k codeModeKeys
	if err := n.Decode(&k); err != nil {
		return fmt.Errorf("codeMode: %s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	c.Enabled = k.Enabled == nil || *k.Enabled
	c.Limits = codemode.Limits{MaxSteps: k.MaxSteps, Timeout: time.Duration(k.Timeout), MaxCalls: k.MaxCalls, MaxResultBytes: k.MaxResultBytes,
		MaxValueBytes: k.MaxValueBytes, MaxMemoryBytes: k.MaxMemoryBytes, MaxOutputBytes: k.MaxOutputBytes}
	if probs := c.Limits.Problems(); len(probs) > 0 {
		return fmt.Errorf("line %d: %s", n.Line, strings.Join(probs, "; "))
	}
	return nil
}

// serverLimits is Options.CodeMode for this configuration: nil when off.
func (c CodeModeConfig) serverLimits() *codemode.Limits {
	if !c.Enabled {
		return nil
	}
	l := c.Limits.WithDefaults()
	return &l
}

// codeModeLines are measure's section on code mode: per task, the tokens
// of the work done call by call against one script.
func codeModeLines(rep *server.Report) []string {
	if len(rep.CodeMode) == 0 {
		return nil
	}
	lines := []string{"", "Code mode: context tokens of the same work call by call through call_tool_read, and as one run_code_read script:", ""}
	rows := [][]string{{"task", "calls", "call by call", "one script", "ratio"}}
	for _, c := range rep.CodeMode {
		ratio := fmt.Sprintf("%.2f", c.Ratio)
		if c.Error != "" {
			ratio = "failed: " + c.Error
		}
		rows = append(rows, []string{c.Task, num(c.Calls), num(c.ProxyTokens), num(c.ScriptTokens), ratio})
	}
	var b strings.Builder
	writeAligned(&b, rows, 1)
	return append(lines, strings.TrimRight(b.String(), "\n"))
}
