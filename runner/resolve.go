package runner

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/toolsearch/toolsearch/internal/contain"
)

// interpreters maps a file extension to the program that runs scripts
// without a #! line.
var interpreters = map[string]string{
	".py":  "python3",
	".sh":  "bash",
	".js":  "node",
	".mjs": "node",
	".rb":  "ruby",
	".pl":  "perl",
}

// shebangMax is how much of a script is read to find its #! line: what
// Linux reads (BINPRM_BUF_SIZE), so a line the kernel would cut is cut here.
const shebangMax = 256

// resolve returns the real paths of the skill folder and of the script in
// it, refusing any script that is not a regular file inside the folder once
// every symbolic link is followed.
func resolve(skillDir, script string) (dir, path string, err error) {
	switch {
	case script == "":
		return "", "", refusal(ErrBadPath, "no script given: name one relative to the skill folder, e.g. scripts/extract.py")
	case filepath.IsAbs(script):
		return "", "", refusal(ErrBadPath, "absolute paths are not allowed: give the path relative to the skill folder, e.g. scripts/extract.py")
	case slices.Contains(strings.Split(filepath.ToSlash(script), "/"), ".."):
		return "", "", refusal(ErrBadPath, `".." is not allowed in a script path: give the path relative to the skill folder, e.g. scripts/extract.py`)
	}

	// Resolving the folder first means a skill folder that is itself a
	// symbolic link is fine: what must not be left is its real location.
	dir, err = filepath.Abs(skillDir)
	if err == nil {
		dir, err = filepath.EvalSymlinks(dir)
	}
	if err != nil {
		return "", "", refusal(fs.ErrNotExist, "the skill folder %s cannot be found", skillDir)
	}

	path, err = filepath.EvalSymlinks(filepath.Join(dir, script))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return "", "", refusal(fs.ErrNotExist, "no such file in the skill folder")
	}
	if err != nil {
		return "", "", refusal(ErrBadPath, "the path cannot be resolved: %v", errors.Unwrap(err))
	}
	if !contain.Within(dir, path) {
		return "", "", refusal(ErrBadPath, "the path leads outside the skill folder through a symbolic link")
	}

	info, err := os.Stat(path)
	switch {
	case err != nil:
		return "", "", refusal(fs.ErrNotExist, "no such file in the skill folder")
	case info.IsDir():
		return "", "", refusal(ErrNotRegular, "it is a folder, not a script")
	case !info.Mode().IsRegular():
		return "", "", refusal(ErrNotRegular, "it is not a regular file")
	}
	return dir, path, nil
}

// notNested refuses a script, at its real path in the real skill folder
// dir, that lies in the folder of a nested skill, however the path reached
// it (a symbolic link included). The innermost such skill is named.
func notNested(dir, path string, nested map[string]string) error {
	var owner, ownerDir string
	for folder := range nested {
		nd := filepath.Join(dir, filepath.FromSlash(folder))
		if real, err := filepath.EvalSymlinks(nd); err == nil {
			nd = real
		}
		if contain.Inside(nd, path) && len(nd) > len(ownerDir) {
			owner, ownerDir = folder, nd
		}
	}
	if ownerDir == "" {
		return nil
	}
	rel, _ := filepath.Rel(ownerDir, path)
	rel = filepath.ToSlash(rel)
	if name := nested[owner]; name != "" {
		return refusal(ErrNestedSkill, "%s belongs to the skill %s, nested in this one in %s: run it as skill %q, script %q", rel, name, owner, name, rel)
	}
	return refusal(ErrNestedSkill, "it belongs to the skill nested in this one in %s, which is not served, and runs only as that skill's", owner)
}

// command returns the argv that runs the script at path: through the
// interpreter on its #! line, else through the one its extension implies,
// else the file itself when it is executable.
func command(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, refusal(fs.ErrNotExist, "cannot open it: %v", errors.Unwrap(err))
	}
	defer f.Close()
	head := make([]byte, shebangMax)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, refusal(ErrNotRegular, "cannot read it: %v", errors.Unwrap(err))
	}

	if line, ok := bytes.CutPrefix(head[:n], []byte("#!")); ok {
		line, _, _ = bytes.Cut(line, []byte("\n"))
		interp, arg := parseShebang(string(line))
		return shebangCommand(interp, arg, path)
	}

	if name, ok := interpreters[filepath.Ext(path)]; ok {
		prog, err := exec.LookPath(name)
		if err != nil {
			return nil, refusal(ErrNoInterpreter, "%s files need %s, which is not installed (not found in PATH)", filepath.Ext(path), name)
		}
		return []string{prog, path}, nil
	}

	info, err := f.Stat()
	if err == nil && info.Mode()&0o111 != 0 {
		return []string{path}, nil
	}
	return nil, refusal(ErrNoInterpreter, "cannot tell how to run it: it has no #! line, its extension is not one of .py .sh .js .mjs .rb .pl, and it is not executable")
}

// parseShebang splits the text after "#!" the way Linux does: the
// interpreter, then the rest of the line, trimmed, as one optional argument.
func parseShebang(line string) (interp, arg string) {
	line = strings.TrimSpace(line) // also drops the \r of a CRLF file
	i := strings.IndexAny(line, " \t")
	if i < 0 {
		return line, ""
	}
	return line[:i], strings.TrimSpace(line[i+1:])
}

// shebangCommand returns the argv for a script whose #! line names interp
// and arg. "env NAME" is resolved here with a PATH lookup rather than left
// to env, so that a missing interpreter is reported by name.
func shebangCommand(interp, arg, path string) ([]string, error) {
	if interp == "" {
		return nil, refusal(ErrNoInterpreter, "its #! line names no interpreter")
	}
	if filepath.Base(interp) == "env" && arg != "" {
		// "env -S prog args" is how a #! line passes several arguments;
		// splitting them here also forgives lines that omit the -S.
		fields := strings.Fields(strings.TrimPrefix(arg, "-S"))
		if len(fields) == 0 || strings.HasPrefix(fields[0], "-") {
			return nil, refusal(ErrNoInterpreter, "its #! line %q uses env options that are not supported", "#!"+interp+" "+arg)
		}
		prog, err := exec.LookPath(fields[0])
		if err != nil {
			return nil, refusal(ErrNoInterpreter, "its #! line asks for the interpreter %s, which is not installed (not found in PATH)", fields[0])
		}
		return append(append([]string{prog}, fields[1:]...), path), nil
	}
	prog, err := exec.LookPath(interp)
	if err != nil {
		return nil, refusal(ErrNoInterpreter, "its #! line asks for the interpreter %s, which is not installed or not executable", interp)
	}
	argv := []string{prog}
	if arg != "" {
		argv = append(argv, arg)
	}
	return append(argv, path), nil
}
