package loader

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// SkillDirs lists the direct subfolders of root that hold a SKILL.md, in
// name order. Folders whose skill file is misnamed (skill.md) come back as
// problems, since they are almost always meant to be skills.
func SkillDirs(root string) ([]string, Problems, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, nil, fmt.Errorf("reading skill root: %w", err)
	}
	var dirs []string
	var probs Problems
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		dir := filepath.Join(root, e.Name())
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			continue
		}
		if _, err := os.Lstat(filepath.Join(dir, SkillFileName)); err == nil {
			dirs = append(dirs, dir)
			continue
		}
		if misnamed := findFold(dir, SkillFileName); misnamed != "" {
			probs = append(probs, Problem{File: filepath.Join(dir, misnamed), Severity: SeverityWarning, Message: "the skill file must be named exactly SKILL.md; this folder is not loaded"})
		}
	}
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
