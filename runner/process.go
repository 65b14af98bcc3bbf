package runner

import (
	"errors"
	"fmt"
	"syscall"
	"time"

	"github.com/toolsearch/toolsearch/internal/procfs"
)

// stopGroup ends the process group pgid: SIGTERM to every member, then
// SIGKILL to whatever is still alive after grace. It returns once the group
// is empty, at once if it already is, which is the usual case after a
// script exits.
//
// The group's leader must not have been reaped long ago, or pgid could have
// been reused; callers stop the group as soon as the leader exits or times
// out, and Linux hands out process ids in a cycle, so reuse in that window
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
// running. kill(-pgid, 0) alone is not enough: it also counts zombies (see
// procfs.Stat.Live).
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

var signalNames = map[syscall.Signal]string{
	syscall.SIGABRT: "SIGABRT", syscall.SIGALRM: "SIGALRM", syscall.SIGBUS: "SIGBUS",
	syscall.SIGFPE: "SIGFPE", syscall.SIGHUP: "SIGHUP", syscall.SIGILL: "SIGILL",
	syscall.SIGINT: "SIGINT", syscall.SIGKILL: "SIGKILL", syscall.SIGPIPE: "SIGPIPE",
	syscall.SIGQUIT: "SIGQUIT", syscall.SIGSEGV: "SIGSEGV", syscall.SIGSYS: "SIGSYS",
	syscall.SIGTERM: "SIGTERM", syscall.SIGTRAP: "SIGTRAP", syscall.SIGUSR1: "SIGUSR1",
	syscall.SIGUSR2: "SIGUSR2", syscall.SIGXCPU: "SIGXCPU", syscall.SIGXFSZ: "SIGXFSZ",
}

// signalName returns the conventional name of sig, such as "SIGTERM".
func signalName(sig syscall.Signal) string {
	if name, ok := signalNames[sig]; ok {
		return name
	}
	return fmt.Sprintf("signal %d", int(sig))
}
