package runner

import (
	"fmt"
	"syscall"
)

// signalName names sig by number: on Windows no process ends by a signal
// (syscall.WaitStatus.Signaled is always false), so none is ever shown.
func signalName(sig syscall.Signal) string { return fmt.Sprintf("signal %d", int(sig)) }
