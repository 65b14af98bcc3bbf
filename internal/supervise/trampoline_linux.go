package supervise

import (
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// trampoline is what the hub starts for a command: it reads the command's
// environment from fd 4, makes itself a child subreaper, which execve
// keeps, so that the command adopts what its own descendants leave behind
// and everything it starts stays below it while it runs; then it becomes
// the command. If it cannot, it says why on fd 3.
func trampoline(path string, argv []string) int {
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
	err = syscall.Exec(path, argv, list)
	fmt.Fprint(report, (&os.PathError{Op: "fork/exec", Path: path, Err: err}).Error())
	return 127
}
