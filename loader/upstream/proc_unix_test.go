//go:build unix

package upstream

import (
	"errors"
	"syscall"

	"github.com/toolsearch/toolsearch/internal/procfs"
)

// processExists reports whether a process is alive; a zombie, dead but not
// yet reaped by its parent, is not.
func processExists(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	st, err := procfs.ReadStat(pid)
	return err != nil || st.Live() // without /proc, Kill is all there is to go by
}
