package main

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Where the configuration comes from.
//
// A configuration folder holds toolsearch.yaml, the .mcp.json of the
// servers it fronts and a skills/ folder, each optional; toolsearch.yaml's
// relative paths are taken from its folder, and .mcp.json and skills/ beside
// it are its defaults. Which folder:
//
//   - the folder of --config FILE, when given;
//   - for the commands a person runs in a folder (catalog, search, call,
//     measure, approve, ...), the current folder when it holds a
//     toolsearch.yaml;
//   - else the user's configuration folder (userConfigDir).
//
// serve skips the second rule: hosts start it in the user's project, and a
// cloned repository's .mcp.json would otherwise run its commands with no
// prompt from the host. A project's own configuration is served when the
// user names it (--config ./toolsearch.yaml, --mcp-config ./.mcp.json).

// errNoConfigDir is the error of a system without a home folder.
var errNoConfigDir = errors.New("no configuration folder: neither XDG_CONFIG_HOME nor a home folder is set")

// userConfigDir is the user's toolsearch configuration folder:
// $XDG_CONFIG_HOME/toolsearch when that is set (to an absolute path),
// else ~/.config/toolsearch, on macOS too, as command-line tools keep it
// there; on Windows %APPDATA%\toolsearch. It need not exist.
func userConfigDir() (string, error) {
	return configDirFor(runtime.GOOS, os.Getenv, os.UserHomeDir)
}

func configDirFor(goos string, getenv func(string) string, home func() (string, error)) (string, error) {
	if d := getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "toolsearch"), nil
	}
	if goos == "windows" {
		if d := getenv("APPDATA"); d != "" {
			return filepath.Join(d, "toolsearch"), nil
		}
	}
	h, err := home()
	if err != nil || h == "" {
		return "", errNoConfigDir
	}
	if goos == "windows" {
		return filepath.Join(h, "AppData", "Roaming", "toolsearch"), nil
	}
	return filepath.Join(h, ".config", "toolsearch"), nil
}

// configFileFor says which toolsearch.yaml a command reads: named (--config,
// which must exist), the current folder's for a command a person runs there
// (when it exists), or the user's (which may not). dir is the
// configuration folder, absolute.
func configFileFor(named string, readsCurrentFolder bool) (file, dir string, explicit bool, err error) {
	if named != "" {
		file = absPath(expandHome(named))
		return file, filepath.Dir(file), true, nil
	}
	if readsCurrentFolder && fileExists(DefaultConfigFile) {
		file = absPath(DefaultConfigFile)
		return file, filepath.Dir(file), false, nil
	}
	d, err := userConfigDir()
	if err != nil {
		return "", "", false, err
	}
	return filepath.Join(d, DefaultConfigFile), d, false, nil
}

// resolveIn is a path as a configuration file in dir means it: ~/ is the
// user's home, a relative path is taken from dir, "" stays "".
func resolveIn(dir, p string) string {
	if p == "" {
		return ""
	}
	p = expandHome(p)
	if filepath.IsAbs(p) || dir == "" {
		return p
	}
	return filepath.Join(dir, p)
}

// resolveToolSpec resolves the file of a --tools spec (FILE or NS=FILE).
func resolveToolSpec(dir, spec string) string {
	if ns, file, ok := strings.Cut(spec, "="); ok {
		return ns + "=" + resolveIn(dir, file)
	}
	return resolveIn(dir, spec)
}

// userConfigHint names the user's configuration file for help texts.
func userConfigHint() string {
	d, err := userConfigDir()
	if err != nil {
		return "~/.config/toolsearch/" + DefaultConfigFile
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if rel, err := filepath.Rel(home, d); err == nil && filepath.IsLocal(rel) {
			d = filepath.Join("~", rel)
		}
	}
	return filepath.Join(d, DefaultConfigFile)
}
