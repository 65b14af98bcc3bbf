package loader

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// MaxOrgDepth is how many folders deep below a root a skill folder may sit:
// folders without a SKILL.md on the way are organizational ("team/skill",
// "eng/backend/skill"), as the MCP Skills extension allows.
const MaxOrgDepth = 3

// SkillDirs lists the folders below root that hold a SKILL.md, in path
// order: the root's subfolders, and the folders of organizational subfolders
// (those without a SKILL.md) down to MaxOrgDepth levels. It does not look
// inside skill folders, whose nested skills belong to them. Folders whose
// skill file is misnamed (skill.md) come back as problems, since they are
// almost always meant to be skills.
func SkillDirs(root string) ([]string, Problems, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, nil, fmt.Errorf("reading skill root: %w", err)
	}
	var dirs []string
	var probs Problems
	var scan func(parent string, entries []os.DirEntry, depth int)
	scan = func(parent string, entries []os.DirEntry, depth int) {
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") || skippedDirs[e.Name()] {
				continue
			}
			dir := filepath.Join(parent, e.Name())
			if info, err := os.Stat(dir); err != nil || !info.IsDir() {
				continue
			}
			if _, err := os.Lstat(filepath.Join(dir, SkillFileName)); err == nil {
				dirs = append(dirs, dir)
				continue
			}
			if misnamed := findFold(dir, SkillFileName); misnamed != "" {
				probs = append(probs, Problem{File: filepath.Join(dir, misnamed), Severity: SeverityWarning, Message: "the skill file must be named exactly SKILL.md; this folder is not loaded"})
				continue
			}
			if depth < MaxOrgDepth {
				if sub, err := os.ReadDir(dir); err == nil {
					scan(dir, sub, depth+1)
				}
			}
		}
	}
	scan(root, entries, 1)
	slices.Sort(dirs)
	return dirs, probs, nil
}

// findFold returns the name of a file in dir that equals name but for case.
func findFold(dir, name string) string {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.EqualFold(e.Name(), name) {
			return e.Name()
		}
	}
	return ""
}
