//go:build unix

package main

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/toolsearch/toolsearch/internal/atomicfile"
)

// TestConfigFilesRefuseSpecialFiles: toolsearch.yaml or a token file
// swapped for a link to /dev/zero or a FIFO is an error naming the file,
// not endless memory or a hang.
func TestConfigFilesRefuseSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{zero, fifo} {
		var nr *atomicfile.NotRegularError
		for _, explicit := range []bool{true, false} {
			if _, err := loadConfig(file, explicit); !errors.As(err, &nr) {
				t.Errorf("loadConfig(%s, %v): %v, want a *NotRegularError", file, explicit, err)
			}
		}
		if _, err := readTokenFile(file); !errors.As(err, &nr) {
			t.Errorf("readTokenFile(%s): %v, want a *NotRegularError", file, err)
		}
	}
}
