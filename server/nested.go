package server

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/skill"
)

// A skill's folder may hold other skills (see skill.Skill.Nested). Their
// files are theirs alone for read_skill_file and run_skill_script: read or
// run through the enclosing skill, a nested skill's script would escape
// the settings that name it (scripts.disabledSkills), and the other way
// round. The Skills extension still serves them inside the enclosing
// skill's folder, as the folder is.

// nestedFolders returns the folders of the skills nested in sk, relative to
// its folder and slash-separated, with their names: every folder below
// sk's own that holds a SKILL.md belongs to another skill, loaded or not.
// The name is "" for a skill that is not served (it did not load, or
// another skill has its name).
func (s *Server) nestedFolders(sk *skill.Skill) map[string]string {
	var nested map[string]string
	snap := s.Snapshot()
	for _, folder := range nestedDirs(sk) {
		if nested == nil {
			nested = map[string]string{}
		}
		name := path.Base(folder)
		if e, ok := snap.Lookup(name); !ok || e.Kind != catalog.KindSkill || e.Skill.Dir != filepath.Join(sk.Dir, filepath.FromSlash(folder)) {
			name = ""
		}
		nested[folder] = name
	}
	return nested
}

// nestedDirs lists the folders below sk's own that hold a SKILL.md.
func nestedDirs(sk *skill.Skill) []string {
	var dirs []string
	for _, f := range sk.Files {
		if dir, ok := strings.CutSuffix(f.Path, "/"+skill.FileName); ok {
			dirs = append(dirs, dir)
		}
	}
	return dirs
}

// inNested returns the innermost of dirs that holds the file rel.
func inNested(dirs []string, rel string) (dir string, ok bool) {
	for _, d := range dirs {
		if strings.HasPrefix(rel, d+"/") && len(d) > len(dir) {
			dir, ok = d, true
		}
	}
	return dir, ok
}

// ownFiles returns sk's files without those of the skills nested in it.
func ownFiles(sk *skill.Skill) []skill.File {
	dirs := nestedDirs(sk)
	if len(dirs) == 0 {
		return sk.Files
	}
	var own []skill.File
	for _, f := range sk.Files {
		if _, nested := inNested(dirs, f.Path); !nested {
			own = append(own, f)
		}
	}
	return own
}

// checkOwnFile refuses rel, a path in sk's folder, when it belongs to a
// skill nested in sk, saying how to read it instead.
func (s *Server) checkOwnFile(sk *skill.Skill, rel string) error {
	nested := s.nestedFolders(sk)
	dirs := make([]string, 0, len(nested))
	for d := range nested {
		dirs = append(dirs, d)
	}
	dir, ok := inNested(dirs, rel)
	if !ok {
		return nil
	}
	inside := strings.TrimPrefix(rel, dir+"/")
	if name := nested[dir]; name != "" {
		return fmt.Errorf("%s is a file of the skill %s, nested in %s in %s: read it as skill %q, path %q", rel, name, sk.Name, dir, name, inside)
	}
	return fmt.Errorf("%s belongs to the skill nested in %s in %s, which is not served", rel, sk.Name, dir)
}
