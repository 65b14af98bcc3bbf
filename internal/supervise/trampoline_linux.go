package supervise

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// trampoline is what the hub starts for a command: it reads the command's
// environment from fd 4, makes itself a child subreaper, which execve
// keeps, so that the command adopts what its own descendants leave behind
// and everything it starts stays below it while it runs; then it becomes
// the command, which dies with the hub as the trampoline would. If it
// cannot, it says why on fd 3.
func trampoline(path string, argv []string) int {
	hub := os.Getppid() // the hub, or this process is already dying with it
	syscall.CloseOnExec(3)
	report := os.NewFile(3, "report")
	envPipe := os.NewFile(4, "env")
	env, err := io.ReadAll(io.LimitReader(envPipe, maxMessage))
	envPipe.Close()
	if err != nil {
		fmt.Fprint(report, "reading the environment: ", err)
		return 127
	}
	var list []string
	if len(env) > 0 {
		list = strings.Split(string(env), "\x00")
	}
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	err = execWithDeathSignal(path, argv, list, commandDeathSignal, hub)
	fmt.Fprint(report, (&os.PathError{Op: "fork/exec", Path: path, Err: err}).Error())
	return 127
}

// execWithDeathSignal replaces the program with path, which gets sig when
// parent dies. The parent-death signal belongs to a thread, and execve
// keeps only the calling thread's: the one set when parent started this
// process is on its first thread, and Go may since have moved the caller
// to another. So it is set again on the thread that calls execve, locked
// to it; a parent that died before that shows as another parent.
func execWithDeathSignal(path string, argv, env []string, sig syscall.Signal, parent int) error {
	runtime.LockOSThread() // for good: the thread becomes the command, or the program exits
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(sig), 0, 0, 0); err != nil {
		return os.NewSyscallError("prctl", err)
	}
	if os.Getppid() != parent {
		return errors.New("the supervisor ended before the command started")
	}
	return syscall.Exec(path, argv, env)
}
