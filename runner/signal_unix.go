//go:build unix

package runner

import (
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

// signalName returns the conventional name of sig, such as "SIGTERM".
func signalName(sig syscall.Signal) string {
	if name := unix.SignalName(sig); name != "" {
		return name
	}
	return fmt.Sprintf("signal %d", int(sig))
}
