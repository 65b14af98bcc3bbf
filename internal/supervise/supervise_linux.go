package supervise

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/toolsearch/toolsearch/internal/procfs"
)

// self is how the supervisor is started: the running binary, even if its
// file has since been replaced or removed.
const self = "/proc/self/exe"

// Init runs the supervisor and exits if the process was started as one;
// otherwise it lets Wrap start supervisors and returns. Call it first thing in main, and
// in TestMain of tests whose code supervises commands.
func Init() {
	if len(os.Args) > 1 {
		switch {
		case os.Args[1] == mode:
			os.Exit(supervisor(os.Args[1:]))
		case os.Args[1] == hubModeArg && len(os.Args) == 2:
			os.Exit(hubMain())
		case os.Args[1] == execModeArg && len(os.Args) > 3:
			os.Exit(trampoline(os.Args[2], os.Args[3:]))
		}
	}
	if _, err := os.Stat(self); err == nil {
		enabled.Store(true)
	}
}

// superviseCommand makes the command run under a supervisor: cmd's Path
// and Args become the supervisor's, which runs the original ones. Dir, Env
// and the standard streams stay as they are and reach the command through
// the supervisor; SysProcAttr applies to the supervisor and gains
// Pdeathsig. With report, the supervisor reports the command's status on a
// pipe (see Supervisor.Result).
func (s *Supervisor) superviseCommand(report bool) error {
	cmd := s.cmd
	a := args{grace: s.grace, reportFD: -1, path: cmd.Path, argv: cmd.Args}
	if len(a.argv) == 0 {
		a.argv = []string{cmd.Path}
	}
	if report {
		r, w, err := os.Pipe()
		if err != nil {
			return fmt.Errorf("supervise: %w", err)
		}
		s.r, s.w = r, w
		cmd.ExtraFiles = []*os.File{w}
		a.reportFD = 3
	}
	cmd.Path = self
	cmd.Args = append([]string{SupervisorName}, a.encode()...)
	// SIGTERM, not SIGKILL: the supervisor must live to stop the rest.
	// (Strictly, the signal comes when the thread that started it ends;
	// Go ends threads only for goroutines that lock one and never unlock,
	// which nothing that starts commands does.)
	cmd.SysProcAttr.Pdeathsig = syscall.SIGTERM
	s.supervised = true
	return nil
}

// reaped is a process the supervisor waited for.
type reaped struct {
	pid int
	ws  syscall.WaitStatus
}

// supervisor is the hidden mode: it runs the command in a, makes sure
// nothing it started outlives it, reports its status, and returns the
// supervisor's exit code.
func supervisor(list []string) int {
	a, err := parseArgs(list)
	if err != nil {
		fmt.Fprintln(os.Stderr, "toolsearch supervisor:", err)
		return 2
	}
	if a.reportFD >= 0 {
		// The command must not inherit the report pipe, or the report
		// would not end until every process holding it has.
		syscall.CloseOnExec(a.reportFD)
	}
	// Without it, orphans go to init and only the command's own process
	// group can be stopped; that is still worth doing.
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)

	stop := make(chan os.Signal, 4)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	child, err := os.StartProcess(a.path, a.argv, &os.ProcAttr{
		Files: []*os.File{os.Stdin, os.Stdout, os.Stderr},
		// The command leads a process group of its own, and dies with
		// the supervisor should the supervisor itself be killed.
		Sys: &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL},
	})
	if err != nil {
		report(a.reportFD, "error %v", err)
		fmt.Fprintln(os.Stderr, "toolsearch supervisor: cannot start", a.path+":", err)
		return 127
	}
	// The command's stdin and stdout are not the supervisor's to hold:
	// its reader should see the end of output as soon as the command and
	// its descendants are gone.
	if devnull, err := os.Open(os.DevNull); err == nil {
		unix.Dup2(int(devnull.Fd()), 0)
		unix.Dup2(int(devnull.Fd()), 1)
		devnull.Close()
	}

	ws, ok := supervise(child.Pid, a.grace, stop)
	if ok {
		report(a.reportFD, "status %d", uint32(ws))
	}
	return 0
}

// supervise waits for the command pid and every other descendant: when
// the command exits or stop receives a signal, every descendant gets
// SIGTERM, and SIGKILL grace later, until none is left. It returns the
// command's wait status.
func supervise(pid int, grace time.Duration, stop <-chan os.Signal) (ws syscall.WaitStatus, ok bool) {
	reaps := make(chan reaped)
	go reapAll(reaps)
	me := os.Getpid()
	var (
		stopping bool
		killAt   <-chan time.Time
		killing  *time.Ticker
		tick     <-chan time.Time
	)
	terminate := func() {
		if !stopping {
			stopping = true
			signalDescendants(me, syscall.SIGTERM)
			killAt = time.After(grace)
		}
	}
	for {
		select {
		case r, more := <-reaps:
			if !more { // no child left, and so no descendant either
				if killing != nil {
					killing.Stop()
				}
				return ws, ok
			}
			if r.pid == pid {
				ws, ok = r.ws, true
				terminate()
			}
		case <-stop:
			terminate()
		case <-killAt:
			// What forks faster than it is killed is caught on a later
			// tick: its children become the supervisor's as it dies.
			signalDescendants(me, syscall.SIGKILL)
			killing = time.NewTicker(50 * time.Millisecond)
			tick = killing.C
		case <-tick:
			signalDescendants(me, syscall.SIGKILL)
		}
	}
}

// reapAll waits for every child of the supervisor, the orphans it adopts
// included, and closes reaps once there is none left.
func reapAll(reaps chan<- reaped) {
	defer close(reaps)
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil { // ECHILD
			return
		}
		reaps <- reaped{pid, ws}
	}
}

// signalDescendants sends sig to every process descending from pid.
func signalDescendants(pid int, sig syscall.Signal) {
	for _, d := range descendants(pid) {
		syscall.Kill(d, sig)
	}
}

// descendants lists the processes below pid, read from /proc.
func descendants(pid int) []int {
	pids, err := procfs.PIDs()
	if err != nil {
		return nil
	}
	parent := map[int]int{}
	for _, p := range pids {
		if st, err := procfs.ReadStat(p); err == nil {
			parent[p] = st.PPID
		}
	}
	below := map[int]bool{pid: true}
	var out []int
	var isBelow func(p, depth int) bool
	isBelow = func(p, depth int) bool {
		if v, ok := below[p]; ok {
			return v
		}
		pp, ok := parent[p]
		v := ok && depth < len(parent) && isBelow(pp, depth+1)
		below[p] = v
		return v
	}
	for p := range parent {
		if p != pid && isBelow(p, 0) {
			out = append(out, p)
		}
	}
	return out
}
