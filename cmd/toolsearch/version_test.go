package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestDescribeVersion(t *testing.T) {
	vcs := []debug.BuildSetting{
		{Key: "GOOS", Value: "linux"}, {Key: "GOARCH", Value: "amd64"},
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-01-02T03:04:05Z"},
		{Key: "vcs.modified", Value: "true"},
	}
	noVCS := []debug.BuildSetting{{Key: "GOOS", Value: "darwin"}, {Key: "GOARCH", Value: "arm64"}, {Key: "-trimpath", Value: "true"}}
	build := func(version string, settings []debug.BuildSetting) *debug.BuildInfo {
		return &debug.BuildInfo{
			GoVersion: "go1.26.8",
			Path:      "github.com/toolsearch/toolsearch/cmd/toolsearch",
			Main:      debug.Module{Path: "github.com/toolsearch/toolsearch", Version: version},
			Settings:  settings,
		}
	}
	release := stamp{version: "v0.1.0", commit: "fedcba9876543210fedcba9876543210fedcba98", date: "2026-03-04T05:06:07Z", modified: "false"}
	tests := []struct {
		name  string
		info  *debug.BuildInfo
		stamp stamp
		want  []string
	}{
		{"go install @version", build("v1.4.0", vcs), stamp{}, []string{
			"toolsearch v1.4.0\n",
			"module   github.com/toolsearch/toolsearch v1.4.0\n",
			"revision 0123456789abcdef0123456789abcdef01234567 (modified), committed 2026-01-02T03:04:05Z\n",
			"go       go1.26.8 linux/amd64\n",
		}},
		{"go build in a checkout", build("(devel)", vcs), stamp{}, []string{
			"toolsearch devel-0123456789ab\n",
			"module   github.com/toolsearch/toolsearch (devel)\n",
		}},
		{"go build without VCS information", build("(devel)", nil), stamp{}, []string{
			"toolsearch devel\n",
			"revision unknown (built without VCS information)\n",
		}},
		// goreleaser builds the checkout with -trimpath, and here with
		// -buildvcs=false: the release's stamp says what Go cannot.
		{"release", build("(devel)", noVCS), release, []string{
			"toolsearch v0.1.0\n",
			"module   github.com/toolsearch/toolsearch v0.1.0\n",
			"revision fedcba9876543210fedcba9876543210fedcba98, committed 2026-03-04T05:06:07Z\n",
			"go       go1.26.8 darwin/arm64\n",
		}},
		{"snapshot of a dirty tree", build("(devel)", noVCS), stamp{version: "v0.0.1-snapshot.fedcba9", commit: "fedcba9", modified: "true"}, []string{
			"toolsearch v0.0.1-snapshot.fedcba9\n",
			"revision fedcba9 (modified)\n",
		}},
		// Go's own VCS information wins over the stamp's, which a
		// hand-written -ldflags may have got wrong.
		{"release with VCS information", build("(devel)", vcs), release, []string{
			"toolsearch v0.1.0\n",
			"revision 0123456789abcdef0123456789abcdef01234567 (modified), committed 2026-01-02T03:04:05Z\n",
		}},
		{"no build information", nil, release, []string{"toolsearch v0.1.0\n", "revision fedcba98"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := describeVersion(tt.info, tt.stamp)
			for _, want := range tt.want {
				if !strings.Contains(got, want) {
					t.Errorf("lacks %q:\n%s", want, got)
				}
			}
		})
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
