//go:build !linux

package supervise

import "os/exec"

// Init does nothing where supervising is not available.
func Init() {}

// Wrap leaves cmd alone where supervising is not available: see the
// package documentation.
func Wrap(cmd *exec.Cmd, opts Options) (*Supervisor, error) { return nil, nil }
