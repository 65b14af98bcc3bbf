package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// A release build (.goreleaser.yaml) sets these with
// -ldflags "-X main.version=v1.2.3 -X main.commit=… -X main.date=… -X main.modified=…":
// its version, the commit it was built from, that commit's time, and
// whether the work tree had changes ("true" for a snapshot of a dirty
// tree). A go build or go install leaves them empty, and the build
// information says instead; release builds have none of its VCS part,
// since they are built with -trimpath and often with -buildvcs=false.
var (
	version  = ""
	commit   = ""
	date     = ""
	modified = ""
)

// A stamp is what the linker was told about the release.
type stamp struct{ version, commit, date, modified string }

// linked is the stamp this binary was built with.
func linked() stamp { return stamp{version, commit, date, modified} }

func runVersion(_ context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("version", os.Stderr)
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	info, _ := debug.ReadBuildInfo()
	_, err := fmt.Fprint(out, describeVersion(info, linked()))
	return err
}

// isVersionFlag tells the spellings of `toolsearch version` that look like
// flags.
func isVersionFlag(arg string) bool {
	switch arg {
	case "-v", "--version", "-version":
		return true
	}
	return false
}

// versionString is the short version toolsearch gives itself in MCP.
func versionString() string {
	info, _ := debug.ReadBuildInfo()
	return shortVersion(info, linked())
}

// shortVersion is the release's version when it is one; else the module
// version when it was installed as a module (go install ...@v1.2.3);
// otherwise "devel" and the revision it was built from.
func shortVersion(info *debug.BuildInfo, s stamp) string {
	if s.version != "" {
		return s.version
	}
	if info == nil {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	if rev := buildSetting(info, "vcs.revision"); len(rev) >= 12 {
		return "devel-" + rev[:12]
	}
	return "devel"
}

// describeVersion is what `toolsearch version` prints: the version, the
// module and the revision it was built from (with its time, and whether
// the work tree had uncommitted changes), and the Go toolchain.
func describeVersion(info *debug.BuildInfo, s stamp) string {
	var b strings.Builder
	fmt.Fprintf(&b, "toolsearch %s\n", shortVersion(info, s))
	if info == nil {
		info = &debug.BuildInfo{}
	}
	mod := info.Main.Path
	if mod == "" {
		mod = info.Path
	}
	v := info.Main.Version
	if v == "" || v == "(devel)" {
		// A release is built from its checkout, which Go calls (devel).
		v = cmp.Or(s.version, "(devel)")
	}
	if mod != "" {
		fmt.Fprintf(&b, "module   %s %s\n", mod, v)
	}
	rev, dirty, when := buildSetting(info, "vcs.revision"), buildSetting(info, "vcs.modified"), buildSetting(info, "vcs.time")
	if rev == "" {
		rev, dirty, when = s.commit, s.modified, s.date
	}
	if rev != "" {
		if dirty == "true" {
			rev += " (modified)"
		}
		if when != "" {
			rev += ", committed " + when
		}
		fmt.Fprintf(&b, "revision %s\n", rev)
	} else {
		fmt.Fprintf(&b, "revision unknown (built without VCS information)\n")
	}
	if info.GoVersion != "" {
		platform := strings.Trim(buildSetting(info, "GOOS")+"/"+buildSetting(info, "GOARCH"), "/")
		fmt.Fprintf(&b, "go       %s\n", strings.TrimSpace(info.GoVersion+" "+platform))
	}
	return b.String()
}

func buildSetting(info *debug.BuildInfo, key string) string {
	for _, s := range info.Settings {
		if s.Key == key {
			return s.Value
		}
	}
	return ""
}
