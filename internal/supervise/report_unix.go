//go:build unix

package supervise

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"syscall"
)

// Result reads the supervisor's report once it has exited: the command's
// wait status, or the error that kept the command from starting. ok is
// false when there was no report, as when the supervisor itself was
// killed, or when there is no supervisor (the caller has the command's
// own status then). It closes the pipe: call it once.
func (s *Supervisor) Result() (ws syscall.WaitStatus, startErr error, ok bool) {
	if s.r == nil {
		return 0, nil, false
	}
	defer s.r.Close()
	data, _ := io.ReadAll(io.LimitReader(s.r, 4<<10))
	return parseReport(string(data))
}

// The report is one line: "status N" with the command's wait status as a
// decimal number, or "error MESSAGE" when it could not be started.
func parseReport(line string) (ws syscall.WaitStatus, startErr error, ok bool) {
	line = strings.TrimSpace(line)
	if msg, found := strings.CutPrefix(line, "error "); found {
		return 0, errors.New(msg), true
	}
	if n, found := strings.CutPrefix(line, "status "); found {
		v, err := strconv.ParseUint(n, 10, 32)
		return syscall.WaitStatus(v), nil, err == nil
	}
	return 0, nil, false
}
