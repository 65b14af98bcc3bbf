//go:build unix

package atomicfiletest

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// SpecialFiles makes, in a temporary folder, a link to /dev/zero and a
// FIFO without a writer, by what they are: a .mcp.json or cache file
// swapped for the one grew memory past 500 MB in a second, the other hung
// every reload for good.
func SpecialFiles(t testing.TB) map[string]string {
	t.Helper()
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"link to /dev/zero": zero, "fifo": fifo}
}
