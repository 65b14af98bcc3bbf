package main

import (
	"strings"
	"testing"
	"time"
)

// TestCodeModeConfig: codeMode is a boolean or its bounds, and a bad one
// is refused naming its line and key.
func TestCodeModeConfig(t *testing.T) {
	tests := []struct {
		yaml    string
		on      bool
		steps   uint64
		timeout time.Duration
		err     string
	}{
		{"", false, 0, 0, ""},
		{"codeMode: true", true, 0, 0, ""},
		{"codeMode: false", false, 0, 0, ""},
		{"codeMode:\n  maxSteps: 1000\n  timeout: 5s", true, 1000, 5 * time.Second, ""},
		{"codeMode:\n  enabled: false\n  maxSteps: 1000", false, 1000, 0, ""},
		{"codeMode: maybe", false, 0, 0, ":1: codeMode is true, false, or a mapping"},
		{"codeMode:\n  maxStep: 1", false, 0, 0, ":2: unknown key codeMode.maxStep"},
		{"codeMode:\n  maxCalls: -1", false, 0, 0, "codeMode.maxCalls must be positive"},
	}
	for _, tt := range tests {
		cfg, err := parseConfig("toolsearch.yaml", []byte(tt.yaml))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: got %v, want an error with %q", tt.yaml, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.yaml, err)
			continue
		}
		l := cfg.CodeMode.serverLimits()
		if (l != nil) != tt.on || cfg.CodeMode.Limits.MaxSteps != tt.steps || cfg.CodeMode.Limits.Timeout != tt.timeout {
			t.Errorf("%q: got %+v", tt.yaml, cfg.CodeMode)
		}
	}
}
