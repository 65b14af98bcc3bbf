//go:build !linux

package supervise

import "os/exec"

// startProcess starts cmd with os/exec: there is no shared supervisor here.
func startProcess(cmd *exec.Cmd, opts Options) (process, error) {
	p, err := startExec(cmd, opts)
	if err != nil {
		return nil, err
	}
	return p, nil
}
