package loader

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// SkillDirs lists the direct subfolders of root that hold a SKILL.md, in
// name order.
func SkillDirs(root string) ([]string, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("reading skill root: %w", err)
	}
	var dirs []string
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
		}
	}
	slices.Sort(dirs)
	return dirs, nil
}
