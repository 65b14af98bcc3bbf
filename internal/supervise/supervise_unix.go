//go:build unix

package supervise

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/toolsearch/toolsearch/internal/procfs"
)

// sys is what a Supervisor holds on a Unix system.
type sys struct {
	supervised bool     // a supervisor runs the command
	r, w       *os.File // the report pipe; w goes to the supervisor
}

// Wrap changes cmd, which must not have started, so that stopping it stops
// everything it starts: it runs in a process group of its own, and where
// Enabled, under a supervisor (see the package documentation). SysProcAttr
// applies to the process this program starts, the supervisor if there is
// one; ExtraFiles are not supported. A command whose cmd.Err is set is left
// to fail as it would have.
func Wrap(cmd *exec.Cmd, opts Options) (*Supervisor, error) {
	s, err := newSupervisor(cmd, opts)
	if err != nil {
		return nil, err
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	// Its own process group lets the command and everything it starts be
	// stopped together, and keeps signals meant for this program's group
	// (a terminal's Ctrl-C) from reaching it.
	cmd.SysProcAttr.Setpgid = true
	if Enabled() && cmd.Err == nil {
		if err := s.superviseCommand(opts.Report); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Started closes this process's copy of the report pipe's write end; call
// it once cmd.Start has returned, whether it succeeded or not, or the
// report never ends. It fails on Windows only.
func (s *Supervisor) Started() error {
	if s.w != nil {
		s.w.Close()
	}
	return nil
}

// Stop ends the running command and everything it started, and returns
// what exited delivers: the result of cmd.Wait, which another goroutine
// runs. A supervisor is asked to do it; one that has not exited long after
// its grace is killed, and the command with it (it dies with its
// supervisor), though what the command started may then live on. Without a
// supervisor the command's process group gets SIGTERM, then SIGKILL.
func (s *Supervisor) Stop(exited <-chan error) error {
	if !s.supervised {
		stopGroup(s.pid(), s.grace)
		return <-exited
	}
	syscall.Kill(s.pid(), syscall.SIGTERM)
	stuck := time.NewTimer(3 * s.grace)
	defer stuck.Stop()
	select {
	case err := <-exited:
		return err
	case <-stuck.C:
		syscall.Kill(s.pid(), syscall.SIGKILL)
		return <-exited
	}
}

// Cleanup stops what the command left running once it has exited by
// itself and been waited for, and returns when that is gone. A supervisor
// exits only once nothing is left, so there is nothing to do then.
func (s *Supervisor) Cleanup() {
	if !s.supervised && s.cmd.Process != nil {
		stopGroup(s.pid(), s.grace)
	}
}

// Kill sends SIGKILL to whatever is left of the process group of the
// process this program started, without waiting: for callers that gave
// the command its chance to end already.
func (s *Supervisor) Kill() {
	if s.cmd.Process != nil {
		_ = syscall.Kill(-s.pid(), syscall.SIGKILL)
	}
}

// stopGroup ends the process group pgid: SIGTERM to every member, then
// SIGKILL to whatever is still alive after grace. It returns once the group
// is empty, at once if it already is, which is the usual case after a
// command exits.
//
// The group's leader must not have been reaped long ago, or pgid could have
// been reused; callers stop the group as soon as the leader exits or times
// out, and process ids are handed out in a cycle, so reuse in that window
// would need the whole id space to wrap around.
func stopGroup(pgid int, grace time.Duration) {
	if !groupAlive(pgid) {
		return
	}
	syscall.Kill(-pgid, syscall.SIGTERM)
	if awaitGroup(pgid, grace) {
		return
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
	// Dying takes a moment even after SIGKILL; a process stuck in the
	// kernel may take longer, and is not waited for beyond grace.
	awaitGroup(pgid, grace)
}

// awaitGroup waits up to d for the group pgid to be empty, and reports
// whether it is.
func awaitGroup(pgid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for poll := time.Millisecond; time.Now().Before(deadline); poll = min(2*poll, 100*time.Millisecond) {
		time.Sleep(min(poll, time.Until(deadline)))
		if !groupAlive(pgid) {
			return true
		}
	}
	return false
}

// groupAlive reports whether any process of the group pgid is still
// running. kill(-pgid, 0) alone is not enough on Linux: it also counts
// zombies (see procfs.Stat.Live). Without /proc (macOS), kill is all
// there is; there, orphans are reaped by launchd.
func groupAlive(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	pids, err := procfs.PIDs()
	if err != nil {
		return true // no /proc: trust kill
	}
	for _, pid := range pids {
		if st, err := procfs.ReadStat(pid); err == nil && st.PGRP == pgid && st.Live() {
			return true
		}
	}
	return false
}
