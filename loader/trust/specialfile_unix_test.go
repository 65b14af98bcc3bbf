//go:build unix

package trust

import (
	"errors"
	"testing"

	"github.com/toolsearch/toolsearch/internal/atomicfile"
	"github.com/toolsearch/toolsearch/internal/atomicfile/atomicfiletest"
)

// TestApprovalsRefuseSpecialFiles: an approvals file swapped for a link to
// /dev/zero or a FIFO is an error, not endless memory or a hang.
func TestApprovalsRefuseSpecialFiles(t *testing.T) {
	for _, file := range atomicfiletest.SpecialFiles(t) {
		var nr *atomicfile.NotRegularError
		if _, _, _, err := readFile(file, nil); !errors.As(err, &nr) {
			t.Errorf("readFile(%s): %v, want a *NotRegularError", file, err)
		}
	}
}
