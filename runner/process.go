package runner

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"
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
// running. kill(-pgid, 0) alone is not enough: it also counts zombies,
// and where PID 1 does not reap orphans (some containers) a grandchild
// that has died stays a zombie for good.
func groupAlive(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return true // no /proc: trust kill
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if state, pg, ok := procStat(pid); ok && pg == pgid && state != 'Z' && state != 'X' {
			return true
		}
	}
	return false
}

// procStat returns the state and process group of pid from /proc/pid/stat.
func procStat(pid int) (state byte, pgid int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	// The command name, in parentheses, may itself hold spaces and ")":
	// the fields that follow start after the last ")".
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := bytes.Fields(b[i+1:]) // state, ppid, pgrp, ...
	if len(f) < 3 || len(f[0]) != 1 {
		return 0, 0, false
	}
	pgid, err = strconv.Atoi(string(f[2]))
	return f[0][0], pgid, err == nil
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
