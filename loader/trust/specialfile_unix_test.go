//go:build unix

package trust

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/toolsearch/toolsearch/internal/atomicfile"
)

// TestApprovalsRefuseSpecialFiles: an approvals file swapped for a link to
// /dev/zero or a FIFO is an error, not endless memory or a hang.
func TestApprovalsRefuseSpecialFiles(t *testing.T) {
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
		if _, _, _, err := readFile(file, nil); !errors.As(err, &nr) {
			t.Errorf("readFile(%s): %v, want a *NotRegularError", file, err)
		}
	}
}
