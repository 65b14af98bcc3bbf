//go:build unix

package upstream

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup starts the command in a process group of its own, so that
// stopping it also stops what it started (npx starts node, go run starts
// the built program).
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup kills whatever is left of the command's process group.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
