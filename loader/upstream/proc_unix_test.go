//go:build unix

package upstream

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"syscall"
)

// processExists reports whether a process is alive; a zombie, dead but not
// yet reaped by its parent, is not.
func processExists(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
			return false
		}
	}
	return true
}
