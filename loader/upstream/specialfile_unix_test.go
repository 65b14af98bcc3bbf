//go:build unix

package upstream

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/toolsearch/toolsearch/internal/atomicfile"
)

// specialFiles makes, in dir, a link to /dev/zero and a FIFO without a
// writer: a .mcp.json or cache file swapped for the one grew memory past
// 500 MB in a second, the other hung every reload for good.
func specialFiles(t *testing.T) map[string]string {
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

func TestConfigAndCacheRefuseSpecialFiles(t *testing.T) {
	for name, file := range specialFiles(t) {
		t.Run(name, func(t *testing.T) {
			var nr *atomicfile.NotRegularError
			if _, _, err := LoadConfig(file); !errors.As(err, &nr) {
				t.Errorf("LoadConfig: %v, want a *NotRegularError", err)
			}
			if _, err := loadCache(file, "s"); !errors.As(err, &nr) {
				t.Errorf("loadCache: %v, want a *NotRegularError", err)
			}
		})
	}
}
