//go:build !windows

package atomicfile

import "os"

// replace renames tmp over file, which readers holding the old one open do
// not prevent.
func replace(tmp, file string) error { return os.Rename(tmp, file) }
