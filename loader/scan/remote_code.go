package scan

import (
	"regexp"
	"strings"
)

// A skill's script that runs what it downloads (exec of a fetched text, a
// feed's command handed to a shell, eval of a response) runs code that is
// not in the skill: no one reviewing it sees what runs, and a harvest
// hides there as well as anything else. Installers a README shows
// (curl … | sh, Homebrew's bash -c "$(curl …)") are what setup sections
// are for and are not read here: only code that evaluates a download in
// a program.
var (
	// downloadRE is a call that fetches a response over the network.
	downloadRE = mustGate(`\b(?:requests|httpx|session|client)\.(?:get|post|request)\s*\(|\burlopen\s*\(|\bfetch\s*\(|\baxios(?:\.get)?\s*\(|\bhttps?\.get\s*\(|\bgot\s*\(`)
	// runRE is a call that runs text as code or as a shell's command;
	// its first argument follows.
	runRE = mustGate(`\b(?:exec|eval|compile)\s*\(|\bnew\s+Function\s*\(|\bvm\.runIn\w*\s*\(|\bos\.system\s*\(|\b(?:subprocess\.(?:run|call|Popen|check_output|check_call)|execSync|child_process\.exec)\s*\(`)
)

// remoteCodeAt returns where code runs what it downloaded, or -1: a run
// whose arguments hold a download, or a name a download's line assigned
// (or a name made from one, or a loop's over one). A subprocess runs text
// only through a shell (shell=True). lower is raw lowercased, for the
// gates.
func remoteCodeAt(raw, lower string, code func(start int, line string) bool) int {
	if !strings.Contains(raw, "(") || !runRE.mayMatchFolded(lower) || !downloadRE.mayMatchFolded(lower) {
		return -1
	}
	tainted := map[string]bool{}
	for start := 0; start < len(raw); {
		end := lineEnd(raw, start)
		line := raw[start:end]
		if !code(start, line) {
			start = end + 1
			continue
		}
		// downloadRE matches its lowercase literals as written, so its
		// words gate the line as it is, with no folded copy.
		fetched := downloadRE.mayMatchFolded(line) && downloadRE.Regexp.MatchString(line) || namesAny(line, tainted)
		if fetched && runsDownload(line, tainted) {
			return start
		}
		if fetched {
			if a := assignRE.FindStringSubmatch(line); a != nil {
				tainted[a[1]] = true
			}
			if f := forVarRE.FindStringSubmatch(line); f != nil {
				tainted[f[1]] = true
			}
		}
		start = end + 1
	}
	return -1
}

var (
	// accessRE is what may follow a name in a run's argument for the
	// argument to be what the name holds: items, attributes, calls
	// without arguments (r["hooks"], res.text(), code).
	accessRE = regexp.MustCompile(`^(?:\.\w+(?:\(\))?|\[[^\]]*\]|\(\))*$`)
	// responseBodyRE is a response's body, which eval runs as code; eval of a
	// value parsed out of a page is a (careless) parse.
	responseBodyRE = regexp.MustCompile(`\.(?:text|read|content|body|decode)\b`)
)

// runsDownload reports whether a line runs, as code or as a shell's
// command, what was downloaded: a call whose first argument is a download
// or a name holding one. A method named exec (RegExp's) runs nothing, nor
// does a subprocess without a shell, nor a command that only carries a
// downloaded value inside its own text.
func runsDownload(line string, tainted map[string]bool) bool {
	for _, m := range runRE.Regexp.FindAllStringIndex(line, -1) {
		if m[0] > 0 && line[m[0]-1] == '.' {
			continue
		}
		call, args := line[m[0]:m[1]], callArgs(line[m[1]:])
		if strings.HasPrefix(call, "subprocess") && !strings.Contains(args, "shell=True") {
			continue
		}
		first := strings.TrimPrefix(strings.TrimSpace(firstArg(args)), "await ")
		if downloadRE.Regexp.MatchString(first) {
			return true
		}
		name := identRE.FindString(first)
		if name == "" || !strings.HasPrefix(first, name) || !tainted[name] {
			continue
		}
		rest := strings.TrimSpace(first[len(name):])
		if !accessRE.MatchString(rest) || strings.HasPrefix(call, "eval") && !responseBodyRE.MatchString(rest) {
			continue
		}
		return true
	}
	return false
}

// firstArg returns the first argument of a call's arguments: up to a
// comma outside brackets and quotes.
func firstArg(args string) string {
	depth := 0
	var quote byte
	for i := 0; i < len(args); i++ {
		c := args[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == ',' && depth == 0:
			return args[:i]
		}
	}
	return args
}

// callArgs returns the arguments of a call whose opening parenthesis
// ends just before rest: up to the parenthesis that closes it, or the
// end of the line.
func callArgs(rest string) string {
	depth := 1
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return rest[:i]
			}
		}
	}
	return rest
}
