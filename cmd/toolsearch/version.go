package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// version is set at build time with -ldflags "-X main.version=...";
// otherwise the build information says.
var version = ""

func runVersion(_ context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("version", os.Stderr)
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	info, _ := debug.ReadBuildInfo()
	_, err := fmt.Fprint(out, describeVersion(info))
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

// versionString is the short version toolsearch gives itself in MCP: the
// module version when it was installed as a module (go install ...@v1.2.3),
// otherwise "devel" and the VCS revision it was built from.
func versionString() string {
	if version != "" {
		return version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
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
// module and VCS revision it was built from (with its time, and whether
// the work tree had uncommitted changes), and the Go toolchain.
func describeVersion(info *debug.BuildInfo) string {
	var b strings.Builder
	fmt.Fprintf(&b, "toolsearch %s\n", versionString())
	if info == nil {
		return b.String()
	}
	mod := info.Main.Path
	if mod == "" {
		mod = info.Path
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	fmt.Fprintf(&b, "module   %s %s\n", mod, v)
	if rev := buildSetting(info, "vcs.revision"); rev != "" {
		if buildSetting(info, "vcs.modified") == "true" {
			rev += " (modified)"
		}
		if t := buildSetting(info, "vcs.time"); t != "" {
			rev += ", committed " + t
		}
		fmt.Fprintf(&b, "revision %s\n", rev)
	} else {
		fmt.Fprintf(&b, "revision unknown (built without VCS information)\n")
	}
	platform := strings.TrimSpace(buildSetting(info, "GOOS") + "/" + buildSetting(info, "GOARCH"))
	fmt.Fprintf(&b, "go       %s %s\n", info.GoVersion, strings.Trim(platform, "/"))
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
