// Package supervise makes sure that no process a command starts outlives
// the command.
//
// On Linux a supervised command runs under a small supervisor: the
// program's own binary, started again in a hidden mode. The supervisor
// makes itself a child subreaper (PR_SET_CHILD_SUBREAPER), so that every
// descendant of the command whose parent exits becomes its child rather
// than init's, even one that left the command's process group and session
// with setsid; and it is told when its own parent dies
// (PR_SET_PDEATHSIG). When the command exits, when the supervisor is asked
// to stop (SIGTERM, SIGINT or SIGHUP), or when its parent dies, it sends
// SIGTERM to every process still descending from it, SIGKILL to whatever
// is left a grace period later, and exits once none is left.
//
// A program opts in by calling [Init] first thing in main, which is also
// where the supervisor runs:
//
//	func main() {
//		supervise.Init()
//		...
//	}
//
// and supervises a command by wrapping it before it starts:
//
//	cmd := exec.Command("python3", "report.py")
//	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
//	sup, err := supervise.Wrap(cmd, supervise.Options{Grace: 2 * time.Second, Report: true})
//
// The command runs in a process group of its own, with the supervisor's
// working directory, environment and standard streams (the ones cmd was
// given). Stopping it means sending SIGTERM to the supervisor, not to the
// command: the supervisor stops the command and everything it started.
//
// Elsewhere (macOS, the BSDs, Windows), or in a program that did not call
// Init, Wrap leaves the command as it is; callers then stop the command's
// process group themselves, and a process that leaves that group can
// outlive the command.
package supervise

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync/atomic"
	"time"
)

// mode is the argument that starts the binary as a supervisor. It is not a
// flag any command of the program takes, so that a program that forgot to
// call Init fails loudly rather than doing something else.
const mode = "-toolsearch-supervise"

// enabled is set by Init where supervising works.
var enabled atomic.Bool

// Enabled reports whether Wrap supervises commands: on Linux, once Init
// has run.
func Enabled() bool { return enabled.Load() }

// Options configure a supervised command.
type Options struct {
	// Grace is how long processes have between SIGTERM and SIGKILL: the
	// command and its descendants when the supervisor is asked to stop,
	// and the descendants it left behind when it exits by itself. Zero
	// means DefaultGrace.
	Grace time.Duration
	// Report asks the supervisor to report the command's own wait status
	// (or why it could not start) on a pipe, for callers that show exit
	// codes and signals: the supervisor's own exit status says nothing
	// about the command's. See [Supervisor.Result].
	Report bool
}

// DefaultGrace is the grace of Options with none.
const DefaultGrace = 2 * time.Second

// A Supervisor is the handle on a wrapped command's supervisor, for reading
// its report.
type Supervisor struct {
	r, w *os.File // the report pipe; w goes to the supervisor
}

// Started closes this process's copy of the report pipe's write end; call
// it once cmd.Start has returned, whether it succeeded or not, or the
// report never ends.
func (s *Supervisor) Started() {
	if s != nil && s.w != nil {
		s.w.Close()
	}
}

// args are the supervisor's arguments after mode.
type args struct {
	grace    time.Duration
	reportFD int // -1 for none
	path     string
	argv     []string
}

func (a args) encode() []string {
	return append([]string{mode, a.grace.String(), strconv.Itoa(a.reportFD), a.path}, a.argv...)
}

func parseArgs(list []string) (args, error) {
	if len(list) < 5 || list[0] != mode {
		return args{}, errors.New("usage: " + mode + " GRACE REPORT-FD PATH ARGV0 [ARG...]")
	}
	grace, err := time.ParseDuration(list[1])
	if err != nil {
		return args{}, fmt.Errorf("grace: %w", err)
	}
	fd, err := strconv.Atoi(list[2])
	if err != nil {
		return args{}, fmt.Errorf("report fd: %w", err)
	}
	return args{grace: grace, reportFD: fd, path: list[3], argv: list[4:]}, nil
}

// report writes the supervisor's one report line, if a pipe was given.
func report(fd int, format string, a ...any) {
	if fd < 0 {
		return
	}
	// One write: Fprintf formats the whole line before it writes.
	fmt.Fprintf(os.NewFile(uintptr(fd), "report"), format+"\n", a...)
}
