//go:build !unix

package upstream

import "os/exec"

func ownProcessGroup(*exec.Cmd) {}

// killProcessGroup kills the command's process; there is no group to kill.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
