package supervise

import (
	"encoding/json"
	"fmt"
	"net"
	"sync"
	"syscall"
	"time"
)

// The shared supervisor (the hub) and the program talk over a Unix stream
// socket pair, in JSON lines. The program sends:
//
//	{"op":"start","id":1,"path":"/usr/bin/node","argv":["node","server.js"],"env":[...],"dir":"/x","grace":1000000000}
//	{"op":"terminate","id":1,"pid":1234}
//	{"op":"kill","id":1,"pid":1234}
//
// A start carries the command's stdin, stdout and stderr as three file
// descriptors (SCM_RIGHTS) with its first byte. The hub answers a start
// with "started" (the pid, or the error that kept the command from
// starting), and later reports its exit:
//
//	{"op":"started","id":1,"pid":1234}
//	{"op":"started","id":1,"error":"fork/exec /x: no such file or directory"}
//	{"op":"exited","id":1,"pid":1234,"status":768}
//
// "exited" of a command always comes after its "started". terminate and
// kill name the command by id and pid both, so that one that has exited
// (and whose pid may be reused) is never signalled.
type message struct {
	Op     string        `json:"op"`
	ID     uint64        `json:"id,omitempty"`
	Pid    int           `json:"pid,omitempty"`
	Path   string        `json:"path,omitempty"`
	Argv   []string      `json:"argv,omitempty"`
	Env    []string      `json:"env"` // empty is not "inherit": never omitted
	Dir    string        `json:"dir,omitempty"`
	Grace  time.Duration `json:"grace,omitempty"`
	Status uint32        `json:"status,omitempty"`
	Error  string        `json:"error,omitempty"`
}

// startFDs is how many descriptors a start carries: stdin, stdout, stderr.
const startFDs = 3

// maxMessage bounds one line either way. A command's arguments and
// environment are bounded by the kernel (ARG_MAX) far below it.
const maxMessage = 16 << 20

// hubModeArg starts the binary as the shared supervisor; execModeArg as
// the trampoline that makes a command a child subreaper and becomes it.
const (
	hubModeArg  = "-toolsearch-supervise-all"
	execModeArg = "-toolsearch-exec"
	execName    = "toolsearch-exec"
)

// A sender writes messages on the socket, one whole line at a time.
type sender struct {
	mu   sync.Mutex
	conn *net.UnixConn
}

// send writes m, with files' descriptors attached to its first byte.
func (s *sender) send(m message, fds ...int) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if len(b)+1 > maxMessage {
		return fmt.Errorf("the command's arguments and environment take %d bytes, more than the %d MiB a command may have", len(b), maxMessage>>20)
	}
	b = append(b, '\n')
	s.mu.Lock()
	defer s.mu.Unlock()
	var oob []byte
	if len(fds) > 0 {
		oob = syscall.UnixRights(fds...)
	}
	n, _, err := s.conn.WriteMsgUnix(b, oob, nil)
	if err == nil && n < len(b) {
		// A stream socket may take a long line in parts; the
		// descriptors went with the first.
		_, err = s.conn.Write(b[n:])
	}
	return err
}

// waitStatusError is the error Wait returns for a command that did not
// exit with status 0, worded as os/exec's.
type waitStatusError struct{ ws syscall.WaitStatus }

func (e *waitStatusError) Error() string {
	switch {
	case e.ws.Exited():
		return fmt.Sprintf("exit status %d", e.ws.ExitStatus())
	case e.ws.Signaled():
		s := "signal: " + e.ws.Signal().String()
		if e.ws.CoreDump() {
			s += " (core dumped)"
		}
		return s
	}
	return fmt.Sprintf("wait status %#x", uint32(e.ws))
}

// ExitCode is the command's exit status, or -1 if a signal ended it.
func (e *waitStatusError) ExitCode() int { return e.ws.ExitStatus() }

// statusError is Wait's result for a wait status.
func statusError(ws syscall.WaitStatus) error {
	if ws.Exited() && ws.ExitStatus() == 0 {
		return nil
	}
	return &waitStatusError{ws}
}
