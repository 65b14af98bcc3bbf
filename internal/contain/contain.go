// Package contain says whether a path lies in a folder, by one test on
// every system: the skill loader's check of where a symbolic link leads and
// the runner's of which skill a script belongs to both use it.
//
// The test is filepath.Rel followed by filepath.IsLocal, so it follows the
// system's own rules: on Windows a path that climbs out with `..\`, one on
// another drive or UNC share, or one that names a device (NUL, COM1) is
// outside, and names compare without regard to case, as the file system
// compares them. A test on the text (a `../` prefix) would miss `..\`.
package contain

import "path/filepath"

// Within reports whether path is dir itself or lies inside it. Both should
// be absolute and have their symbolic links resolved: the test is on the
// paths' text, and a link inside dir may lead anywhere.
func Within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsLocal(rel)
}

// Inside reports whether path lies inside dir and is not dir itself.
func Inside(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && filepath.IsLocal(rel)
}
