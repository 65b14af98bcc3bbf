package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/toolsearch/toolsearch/loader/problem"
	"github.com/toolsearch/toolsearch/loader/upstream"
)

// withoutSelf leaves out the entries of the .mcp.json at path that start
// toolsearch's own server reading that same file (named by --mcp-config,
// or that of its configuration folder), each with a problem that
// says why: such an entry (what `claude mcp add --scope project` writes,
// in the project folder whose .mcp.json toolsearch reads) made toolsearch
// start a copy of itself, which started another, some 20 a second.
func withoutSelf(path string, servers []upstream.ServerConfig) ([]upstream.ServerConfig, problem.Problems) {
	self := selfExecutable()
	var (
		kept  []upstream.ServerConfig
		probs problem.Problems
	)
	for _, s := range servers {
		how := startsSelf(s, self, path)
		if how == "" {
			kept = append(kept, s)
			continue
		}
		probs = append(probs, problem.Problem{File: path, Field: "mcpServers." + s.Name, Severity: problem.SeverityError,
			Message: "mcpServers." + s.Name + ": the entry starts toolsearch itself (" + how + "), which would read this file and start itself again without end; " +
				"toolsearch leaves it out: remove the entry, or give it --mcp-config with another file"})
	}
	return kept, probs
}

// selfExecutable returns the running program's file, links resolved, or ""
// when it cannot be found.
func selfExecutable() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return exe
}

// startsSelf says how a stdio entry starts toolsearch's server on the
// configuration at path — the program itself, a program named toolsearch,
// `go run` of its command, `npx` of a toolsearch package — or "" when it
// does not.
func startsSelf(s upstream.ServerConfig, self, path string) string {
	if s.Type != upstream.TypeStdio {
		return ""
	}
	args := s.Args
	var how string
	switch name := programName(s.Command); {
	case self != "" && sameProgram(s, self):
		how = "it runs " + self
	case name == "toolsearch":
		how = "it runs a program named toolsearch"
	case name == "go" && len(args) > 1 && args[0] == "run":
		pkg := strings.TrimSuffix(firstOperand(args[1:]), "/")
		if pkg, _, _ = strings.Cut(pkg, "@"); !strings.HasSuffix(pkg, "cmd/toolsearch") {
			return ""
		}
		how, args = "go run "+pkg, afterOperand(args[1:])
	case name == "npx" || name == "bunx" || name == "pnpx":
		pkg := firstOperand(args)
		if base, _, _ := strings.Cut(strings.TrimPrefix(pkg, "@"), "@"); base != "toolsearch" && !strings.HasSuffix(base, "/toolsearch") {
			return ""
		}
		how, args = name+" "+pkg, afterOperand(args)
	default:
		return ""
	}
	if len(args) == 0 || args[0] != "serve" {
		return "" // a one-shot command, which starts no server of its own
	}
	// The copy reads the file its --mcp-config names, else the one of its
	// configuration folder: another file is no loop.
	reads := flagValue(args[1:], "mcp-config")
	if reads == "" {
		config := flagValue(args[1:], "config")
		if config != "" {
			config = resolve(expandHome(config), s.Cwd)
		}
		reads = mcpConfigOf(config)
	}
	if reads == "" || !sameFile(resolve(reads, s.Cwd), path) {
		return ""
	}
	return how
}

// programName is a command's base name without .exe, lower case.
func programName(command string) string {
	return strings.ToLower(strings.TrimSuffix(filepath.Base(command), ".exe"))
}

// sameProgram reports whether the entry's command is the running program.
func sameProgram(s upstream.ServerConfig, self string) bool {
	cmd := s.Command
	if !strings.ContainsRune(cmd, filepath.Separator) && !strings.ContainsRune(cmd, '/') {
		found, err := exec.LookPath(cmd)
		if err != nil {
			return false
		}
		cmd = found
	}
	return sameFile(resolve(cmd, s.Cwd), self)
}

// firstOperand returns the first argument that is not a flag.
func firstOperand(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

// afterOperand returns the arguments after the first that is not a flag.
func afterOperand(args []string) []string {
	for i, a := range args {
		if !strings.HasPrefix(a, "-") {
			return args[i+1:]
		}
	}
	return nil
}

// mcpConfigOf is the .mcp.json a serve with --config file reads ("" for
// none): the one the file names, else the one beside it; without a file,
// that of the user's configuration folder (see configdir.go).
func mcpConfigOf(file string) string {
	if file == "" {
		dir, err := userConfigDir()
		if err != nil {
			return ""
		}
		file = filepath.Join(dir, DefaultConfigFile)
	}
	if cfg, err := loadConfig(file, false); err == nil && cfg.MCPConfig != "" {
		return cfg.MCPConfig
	}
	return filepath.Join(filepath.Dir(file), ".mcp.json")
}

// flagValue returns the value of the flag --name among serve's flags.
func flagValue(args []string, flag string) string {
	for i, a := range args {
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != flag {
			continue
		}
		if hasValue {
			return value
		}
		if i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// resolve makes a path of an entry absolute, relative ones from its cwd.
func resolve(p, cwd string) string {
	if filepath.IsAbs(p) || cwd == "" {
		return p
	}
	return filepath.Join(cwd, p)
}

// sameFile reports whether two paths name one existing file.
func sameFile(a, b string) bool {
	ia, err := os.Stat(a)
	if err != nil {
		return false
	}
	ib, err := os.Stat(b)
	return err == nil && os.SameFile(ia, ib)
}
