package supervise

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/toolsearch/toolsearch/internal/procfs"
)

// hubMain is the shared supervisor: it starts commands as the program
// asks on the socket at fd 3, reports their exits, stops them when asked,
// stops what they leave behind, and stops everything when the program
// dies or closes the socket. It returns its exit code once no process is
// left below it.
func hubMain() int {
	syscall.CloseOnExec(3) // the commands must not hold the socket
	f := os.NewFile(3, "control")
	fc, err := net.FileConn(f)
	f.Close()
	conn, ok := fc.(*net.UnixConn)
	if err != nil || !ok {
		fmt.Fprintln(os.Stderr, "toolsearch supervisor: no control socket:", err)
		return 2
	}
	// What a command leaves behind when it exits becomes the hub's child
	// rather than init's, to be stopped.
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	h := &hub{
		me: os.Getpid(), out: &sender{conn: conn}, children: map[int]*hubChild{},
		doomed: map[int]time.Time{}, strayGrace: DefaultGrace,
	}
	stop := make(chan os.Signal, 4)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	sigchld := make(chan os.Signal, 1)
	signal.Notify(sigchld, syscall.SIGCHLD)
	reqs := make(chan request)
	go readRequests(conn, reqs)
	// The binary's package initialization leaves garbage behind that a
	// process this quiet would hold for minutes; it lives as long as the
	// program does.
	debug.FreeOSMemory()
	return h.run(reqs, stop, sigchld)
}

// A request is a message from the program with the descriptors it carried.
type request struct {
	message
	files []*os.File
}

// A hubChild is a command the hub started and has not reaped yet.
type hubChild struct {
	id     uint64
	grace  time.Duration
	killAt time.Time // when what is left of it gets SIGKILL; zero while it may run
}

// hub is the shared supervisor's state, owned by the goroutine of run.
type hub struct {
	me         int
	out        *sender
	children   map[int]*hubChild
	doomed     map[int]time.Time // processes sent SIGTERM, and when SIGKILL is due
	strayGrace time.Duration     // the grace of what a command leaves behind: the last exited one's
	closing    bool              // the program is gone: stop everything and exit
	dirty      bool              // the tree must be looked at again
}

// pollEvery is how often the hub looks at the processes it is stopping.
const pollEvery = 50 * time.Millisecond

func (h *hub) run(reqs <-chan request, stop, sigchld <-chan os.Signal) int {
	var ticker *time.Ticker
	var tick <-chan time.Time
	for {
		select {
		case r, ok := <-reqs:
			if !ok {
				reqs = nil
				h.shutdown()
				break
			}
			h.handle(r)
		case <-sigchld:
			h.reap()
		case <-stop:
			h.shutdown()
		case <-tick:
			h.dirty = true
		}
		if left := h.enforce(); h.closing && left == 0 && len(h.children) == 0 {
			return 0
		}
		// A clock only while something is being stopped: an idle hub
		// sleeps.
		if busy := len(h.doomed) > 0 || h.closing || h.stopping(); busy && ticker == nil {
			ticker = time.NewTicker(pollEvery)
			tick = ticker.C
		} else if !busy && ticker != nil {
			ticker.Stop()
			ticker, tick = nil, nil
		}
	}
}

// stopping reports whether a command has been asked to end.
func (h *hub) stopping() bool {
	for _, c := range h.children {
		if !c.killAt.IsZero() {
			return true
		}
	}
	return false
}

func (h *hub) handle(r request) {
	switch r.Op {
	case "start":
		h.start(r)
	case "terminate", "kill":
		c := h.children[r.Pid]
		if c == nil || c.id != r.ID {
			return // it has exited already
		}
		due := time.Now()
		if r.Op == "terminate" {
			due = due.Add(c.grace)
		}
		if c.killAt.IsZero() || due.Before(c.killAt) {
			c.killAt = due
		}
		h.dirty = true
	}
}

// start starts the command of r through the trampoline and answers.
func (h *hub) start(r request) {
	defer closeAll(r.files)
	answer := message{Op: "started", ID: r.ID, Env: nil}
	pid, err := h.spawn(r)
	if err != nil {
		answer.Error = err.Error()
	} else {
		answer.Pid = pid
		grace := r.Grace
		if grace <= 0 {
			grace = DefaultGrace
		}
		h.children[pid] = &hubChild{id: r.ID, grace: grace}
		if h.closing {
			h.children[pid].killAt = time.Now()
		}
	}
	h.reply(answer)
}

// spawn starts the trampoline, which becomes the command, and returns once
// it has (or has failed to).
func (h *hub) spawn(r request) (int, error) {
	if h.closing {
		return 0, errors.New("toolsearch is shutting down")
	}
	if len(r.files) != startFDs || len(r.Argv) == 0 {
		return 0, errors.New("supervise: malformed start request")
	}
	// The trampoline runs with no environment: the command's reaches it
	// on a pipe, so that nothing in it (GODEBUG, a variable a package's
	// init acts on) changes what the program's own binary does before
	// it becomes the command. It reports why it could not exec on
	// another pipe, which closes by itself when it does.
	envR, envW, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	defer envW.Close()
	errR, errW, err := os.Pipe()
	if err != nil {
		envR.Close()
		return 0, err
	}
	defer errR.Close()
	p, err := os.StartProcess(self, append([]string{execName, execModeArg, r.Path}, r.Argv...), &os.ProcAttr{
		Dir: r.Dir, Env: []string{},
		Files: append(r.files[:startFDs:startFDs], errW, envR),
		// The command leads a process group of its own, and dies
		// with the hub should the hub itself be killed.
		Sys: &syscall.SysProcAttr{Setpgid: true, Pdeathsig: commandDeathSignal},
	})
	errW.Close()
	envR.Close()
	if err != nil {
		return 0, fmt.Errorf("%v", err)
	}
	pid := p.Pid
	p.Release() // the hub reaps with wait4 itself
	// Bounded, so that a trampoline that never gets to exec cannot
	// stop the hub.
	deadline := time.Now().Add(startLimit)
	envW.SetWriteDeadline(deadline)
	errR.SetReadDeadline(deadline)
	_, werr := envW.Write([]byte(strings.Join(r.Env, "\x00")))
	envW.Close()
	msg, rerr := io.ReadAll(io.LimitReader(errR, 4<<10))
	switch {
	case len(msg) > 0:
		// The trampoline exits 127; the hub reaps it as a stray.
		return 0, errors.New(string(msg))
	case errors.Is(rerr, os.ErrDeadlineExceeded) || errors.Is(werr, os.ErrDeadlineExceeded):
		syscall.Kill(pid, syscall.SIGKILL)
		return 0, fmt.Errorf("%s did not start within %v", r.Path, startLimit)
	}
	return pid, nil
}

// commandDeathSignal is what a command gets when the hub dies.
const commandDeathSignal = syscall.SIGKILL

// startLimit bounds how long the trampoline may take to become the command.
const startLimit = 30 * time.Second

func (h *hub) reply(m message) {
	if err := h.out.send(m); err != nil {
		h.shutdown() // the program is gone
	}
}

// reap waits for every child that has exited, reports the commands'
// exits, and looks again at the tree: what they left is the hub's now.
func (h *hub) reap() {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil || pid <= 0 {
			return
		}
		delete(h.doomed, pid)
		h.dirty = true
		if c, ok := h.children[pid]; ok {
			delete(h.children, pid)
			h.strayGrace = c.grace
			h.reply(message{Op: "exited", ID: c.id, Pid: pid, Status: uint32(ws)})
		}
	}
}

// shutdown asks every command to end, for the program is gone.
func (h *hub) shutdown() {
	if h.closing {
		return
	}
	h.closing = true
	h.dirty = true
	now := time.Now()
	for _, c := range h.children {
		if due := now.Add(c.grace); c.killAt.IsZero() || due.Before(c.killAt) {
			c.killAt = due
		}
	}
}

// enforce signals what must end: a command asked to end and every process
// below it, and every process the hub adopted (left behind by a command
// that exited) with what is below it. Each gets SIGTERM once, and SIGKILL
// from its due time on. It returns how many children the hub has.
func (h *hub) enforce() int {
	if !h.dirty && len(h.doomed) == 0 {
		return len(h.children)
	}
	h.dirty = false
	kids := childrenMap()
	now := time.Now()
	keep := map[int]bool{}
	doom := func(pid int, due time.Time) {
		keep[pid] = true
		if was, ok := h.doomed[pid]; ok && was.Before(due) {
			due = was
		}
		switch _, signalled := h.doomed[pid]; {
		case !due.After(now):
			syscall.Kill(pid, syscall.SIGKILL)
		case !signalled:
			syscall.Kill(pid, syscall.SIGTERM)
		}
		h.doomed[pid] = due
	}
	mine := kids[h.me]
	for _, pid := range mine {
		due := now.Add(h.strayGrace)
		if c, ok := h.children[pid]; ok {
			if c.killAt.IsZero() {
				continue // running: what it starts is its own business
			}
			due = c.killAt
		}
		for _, p := range subtree(kids, pid) {
			doom(p, due)
		}
	}
	for pid := range h.doomed {
		if !keep[pid] {
			delete(h.doomed, pid)
		}
	}
	return len(mine)
}

// childrenMap reads from /proc which processes each process has started
// (zombies included: they are still to be reaped).
func childrenMap() map[int][]int {
	pids, err := procfs.PIDs()
	if err != nil {
		return nil
	}
	kids := map[int][]int{}
	for _, p := range pids {
		if st, err := procfs.ReadStat(p); err == nil {
			kids[st.PPID] = append(kids[st.PPID], p)
		}
	}
	return kids
}

// subtree lists root and every process below it.
func subtree(kids map[int][]int, root int) []int {
	out := []int{root}
	seen := map[int]bool{root: true}
	for i := 0; i < len(out); i++ {
		for _, k := range kids[out[i]] {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}
