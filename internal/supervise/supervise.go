// Package supervise makes sure that no process a command starts outlives
// the command, with what each system offers.
//
// A supervised command is prepared with [Wrap] before it starts, told of
// its start with [Supervisor.Started], and ended with [Supervisor.Stop]
// (ask it to end, then force it), [Supervisor.Cleanup] (once it has exited:
// end what it left running) or [Supervisor.Kill] (force it now):
//
//	func main() {
//		supervise.Init()
//		...
//	}
//
//	cmd := exec.Command("python3", "report.py")
//	sup, err := supervise.Wrap(cmd, supervise.Options{Grace: 2 * time.Second, Report: true})
//	...
//	err = cmd.Start()
//	if serr := sup.Started(); err == nil { err = serr }
//
// A long-running command (a stdio server) is started with [Start] instead,
// which returns a [Process]: on Linux every such command runs under one
// supervisor shared by the program (see Process), rather than one each.
//
// # Linux
//
// The command runs under a small supervisor: the program's own binary,
// started again in a hidden mode by Wrap, in a program that called [Init]
// first thing in main (Init is also where the supervisor runs). The
// supervisor makes itself a child subreaper (PR_SET_CHILD_SUBREAPER), so
// that every descendant of the command whose parent exits becomes its child
// rather than init's, even one that left the command's process group and
// session with setsid; and it is told when its own parent dies
// (PR_SET_PDEATHSIG). When the command exits, when the supervisor is asked
// to stop (SIGTERM, SIGINT or SIGHUP), or when its parent dies, even by
// SIGKILL, it sends SIGTERM to every process still descending from it,
// SIGKILL to whatever is left a grace period later, and exits once none is
// left. The command runs in a process group of its own, with the
// supervisor's working directory, environment and standard streams (the
// ones cmd was given).
//
// # macOS and the BSDs
//
// There is no subreaper. The command leads a process group of its own;
// stopping it sends SIGTERM to the group, then SIGKILL after the grace
// period, and so does Cleanup for what the command left in the group.
// A process that leaves the group (setsid, or a daemon that double-forks
// into a new session) is not stopped, and if the program itself is killed
// with SIGKILL, the group is left running: nothing tells it.
//
// # Windows
//
// The command runs in a job object of its own, created with
// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE. It is started suspended and assigned
// to the job before its first instruction runs, so every process it starts
// is in the job too; a process cannot leave it. Stopping, Cleanup and Kill
// terminate the job, at once: Windows has no SIGTERM to ask first, so a
// stdio server's only warning is its stdin closing. The job ends when its
// last handle closes, and the only handle is this program's: if the program
// dies, even killed from the Task Manager, Windows ends the command and
// everything it started.
//
// Elsewhere, or on Linux in a program that did not call Init, the command
// is only put in a process group of its own, as on macOS.
package supervise

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// mode is the argument that starts the binary as a supervisor. It is not a
// flag any command of the program takes, so that a program that forgot to
// call Init fails loudly rather than doing something else.
const mode = "-toolsearch-supervise"

// SupervisorName is the name a supervisor runs under (its argv[0]), by
// which a process can tell, from its ancestry, that toolsearch started it.
const SupervisorName = "toolsearch-supervisor"

// enabled is set by Init where supervising works.
var enabled atomic.Bool

// Enabled reports whether Wrap stops everything a command starts, even
// what leaves its process group, and even if this program is killed: on
// Linux once Init has run, and on Windows.
func Enabled() bool { return enabled.Load() }

// Options configure a supervised command.
type Options struct {
	// Grace is how long processes have between SIGTERM and SIGKILL: the
	// command and its descendants when they are asked to stop, and the
	// descendants it left behind when it exits by itself. Zero means
	// DefaultGrace. Windows has no SIGTERM: there, stopping is at once.
	Grace time.Duration
	// Report asks the supervisor to report the command's own wait status
	// (or why it could not start) on a pipe, for callers that show exit
	// codes and signals: the supervisor's own exit status says nothing
	// about the command's. See [Supervisor.Result].
	Report bool
}

// DefaultGrace is the grace of Options with none.
const DefaultGrace = 2 * time.Second

// A Supervisor is the handle on a wrapped command: it stops the command
// and everything it started, and reads its status. Its methods are safe
// for concurrent use.
type Supervisor struct {
	cmd   *exec.Cmd
	grace time.Duration

	mu sync.Mutex
	sys
}

// newSupervisor checks that cmd can be wrapped and fills in the defaults.
func newSupervisor(cmd *exec.Cmd, opts Options) (*Supervisor, error) {
	if cmd.Process != nil {
		return nil, errors.New("supervise: command already started")
	}
	if len(cmd.ExtraFiles) > 0 {
		return nil, errors.New("supervise: commands with ExtraFiles cannot be supervised")
	}
	if opts.Grace <= 0 {
		opts.Grace = DefaultGrace
	}
	return &Supervisor{cmd: cmd, grace: opts.Grace}, nil
}

// pid is the process this program started: the command, or its supervisor.
func (s *Supervisor) pid() int { return s.cmd.Process.Pid }

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
