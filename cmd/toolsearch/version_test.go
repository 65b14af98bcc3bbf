package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestDescribeVersion(t *testing.T) {
	info := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Path:      "github.com/toolsearch/toolsearch/cmd/toolsearch",
		Main:      debug.Module{Path: "github.com/toolsearch/toolsearch", Version: "v1.4.0"},
		Settings: []debug.BuildSetting{
			{Key: "GOOS", Value: "linux"}, {Key: "GOARCH", Value: "amd64"},
			{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.time", Value: "2026-01-02T03:04:05Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	got := describeVersion(info)
	for _, want := range []string{
		"module   github.com/toolsearch/toolsearch v1.4.0\n",
		"revision 0123456789abcdef0123456789abcdef01234567 (modified), committed 2026-01-02T03:04:05Z\n",
		"go       go1.26.8 linux/amd64\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("describeVersion lacks %q:\n%s", want, got)
		}
	}
	info.Settings = nil
	if got := describeVersion(info); !strings.Contains(got, "revision unknown") {
		t.Errorf("without VCS information:\n%s", got)
	}
}

func TestVersionSpellings(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-v"}} {
		var out, errOut strings.Builder
		if code := run(t.Context(), args, &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "toolsearch ") || !strings.Contains(out.String(), "\nrevision ") {
			t.Errorf("toolsearch %s: exit %d, stdout %q, stderr %q", args[0], code, out.String(), errOut.String())
		}
	}
}
