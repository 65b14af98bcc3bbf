//go:build unix && !linux

package supervise

import "errors"

// Init does nothing where there is no supervisor: Wrap only puts commands
// in a process group of their own.
func Init() {}

// superviseCommand is never called here: Enabled is false.
func (s *Supervisor) superviseCommand(report bool) error {
	return errors.New("supervise: no supervisor on this system")
}
