package skill

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/loader/problem"
)

// MaxOrgDepth is how many folders deep below a root a skill folder may sit:
// folders without a SKILL.md on the way are organizational ("team/skill",
// "eng/backend/skill"), as the MCP Skills extension allows.
const MaxOrgDepth = 3

// Dirs lists the folders below root that hold a SKILL.md, in path
// order: the root's subfolders, and the folders of organizational subfolders
// (those without a SKILL.md) down to MaxOrgDepth levels. It does not look
// inside skill folders, whose nested skills belong to them. Folders whose
// skill file is misnamed (skill.md) come back as problems, since they are
// almost always meant to be skills.
func Dirs(root string) ([]string, problem.Problems, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, nil, fmt.Errorf("reading skill root: %w", err)
	}
	var dirs []string
	var probs problem.Problems
	var scan func(parent string, entries []os.DirEntry, depth int)
	scan = func(parent string, entries []os.DirEntry, depth int) {
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") || SkippedDirs[e.Name()] {
				continue
			}
			dir := filepath.Join(parent, e.Name())
			if info, err := os.Stat(dir); err != nil || !info.IsDir() {
				continue
			}
			sub, err := os.ReadDir(dir)
			if err != nil {
				continue
			}
			// By the folder's listing, not by a stat of SKILL.md: on a file system
			// that ignores case (macOS's and Windows' by default), that stat finds
			// skill.md too, and the folder would fail to load there while Linux
			// reports it misnamed.
			switch name := skillFileIn(sub); name {
			case FileName:
				dirs = append(dirs, dir)
				continue
			case "":
			default:
				probs = append(probs, misnamedSkillFile(filepath.Join(dir, name)))
				continue
			}
			if depth < MaxOrgDepth {
				scan(dir, sub, depth+1)
			}
		}
	}
	scan(root, entries, 1)
	slices.Sort(dirs)
	return dirs, probs, nil
}

// skillFileIn returns SkillFileName if a folder's entries hold it, else the
// name of an entry that differs from it only in case, else "".
func skillFileIn(entries []os.DirEntry) string {
	folded := ""
	for _, e := range entries {
		switch {
		case e.Name() == FileName:
			return FileName
		case folded == "" && strings.EqualFold(e.Name(), FileName):
			folded = e.Name()
		}
	}
	return folded
}

// misnamedSkillFile is the problem of a skill file named other than exactly
// SKILL.md (skill.md, Skill.md): almost always meant to be a skill.
func misnamedSkillFile(file string) problem.Problem {
	return problem.Problem{File: file, Severity: problem.SeverityWarning, Message: "the skill file must be named exactly SKILL.md; this folder is not loaded"}
}
