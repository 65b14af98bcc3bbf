package supervise

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"time"
)

// startProcess starts cmd under the shared supervisor where there is one.
func startProcess(cmd *exec.Cmd, opts Options) (process, error) {
	if !Enabled() {
		p, err := startExec(cmd, opts)
		if err != nil {
			return nil, err
		}
		return p, nil
	}
	c, err := theHub()
	if err != nil {
		return nil, err
	}
	p, err := c.start(cmd, opts)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// errHubEnded is the end of the commands of a shared supervisor that died
// (they die with it).
var errHubEnded = errors.New("the toolsearch supervisor of this command ended unexpectedly, and the command with it")

// hubs holds the program's shared supervisor, started with the first
// command and again should it die.
var hubs struct {
	mu sync.Mutex
	c  *hubClient
}

func theHub() (*hubClient, error) {
	hubs.mu.Lock()
	defer hubs.mu.Unlock()
	if hubs.c != nil && !hubs.c.ended() {
		return hubs.c, nil
	}
	c, err := startHub()
	if err != nil {
		return nil, fmt.Errorf("supervise: starting the supervisor: %w", err)
	}
	hubs.c = c
	return c, nil
}

// A hubClient is the program's end of the shared supervisor.
type hubClient struct {
	out  *sender
	pid  int
	done chan struct{} // closed when the socket closed

	mu      sync.Mutex
	nextID  uint64
	pending map[uint64]*hubProcess // asked to start, not answered
	running map[int]*hubProcess    // started, not exited
}

// startHub starts the shared supervisor on one end of a socket pair.
func startHub() (*hubClient, error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	mine, theirs := os.NewFile(uintptr(fds[0]), "supervisor"), os.NewFile(uintptr(fds[1]), "control")
	defer theirs.Close()
	fc, err := net.FileConn(mine)
	mine.Close()
	if err != nil {
		return nil, err
	}
	conn := fc.(*net.UnixConn)
	cmd := &exec.Cmd{
		Path: self, Args: []string{SupervisorName, hubModeArg},
		// Nothing of the program's environment (its secrets) is the
		// supervisor's: each command brings its own.
		Env:        []string{},
		Stderr:     os.Stderr,
		ExtraFiles: []*os.File{theirs},
		// Its own process group keeps a terminal's Ctrl-C from it;
		// SIGTERM when the program dies, for it to stop the rest.
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM},
	}
	// The death signal comes when the thread that started the process
	// ends, not the program: the thread is kept for as long as the
	// supervisor lives.
	started := make(chan error)
	go func() {
		runtime.LockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			runtime.UnlockOSThread()
			return
		}
		started <- nil
		cmd.Wait()
		runtime.UnlockOSThread()
	}()
	if err := <-started; err != nil {
		conn.Close()
		return nil, err
	}
	c := &hubClient{
		out: &sender{conn: conn}, pid: cmd.Process.Pid, done: make(chan struct{}),
		pending: map[uint64]*hubProcess{}, running: map[int]*hubProcess{},
	}
	go c.read(conn)
	return c, nil
}

func (c *hubClient) ended() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// read dispatches the supervisor's messages until the socket closes, and
// then ends every command still waited for.
func (c *hubClient) read(conn *net.UnixConn) {
	sc := bufio.NewScanner(conn)
	sc.Buffer(make([]byte, 4<<10), 1<<20)
	for sc.Scan() {
		var m message
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			break
		}
		c.mu.Lock()
		switch m.Op {
		case "started":
			if p := c.pending[m.ID]; p != nil {
				delete(c.pending, m.ID)
				if m.Error != "" {
					p.startErr = errors.New(m.Error)
				} else {
					p.p = m.Pid
					c.running[m.Pid] = p
				}
				close(p.started)
			}
		case "exited":
			if p := c.running[m.Pid]; p != nil && p.id == m.ID {
				delete(c.running, m.Pid)
				p.finish(statusError(syscall.WaitStatus(m.Status)))
			}
		}
		c.mu.Unlock()
	}
	conn.Close()
	c.mu.Lock()
	close(c.done)
	for id, p := range c.pending {
		p.startErr = errHubEnded
		close(p.started)
		delete(c.pending, id)
	}
	for pid, p := range c.running {
		p.finish(errHubEnded)
		delete(c.running, pid)
	}
	c.mu.Unlock()
}

// A hubProcess is a command the shared supervisor runs.
type hubProcess struct {
	c         *hubClient
	id        uint64
	grace     time.Duration
	started   chan struct{} // closed once startErr or p is set
	startErr  error
	p         int
	waitDelay time.Duration
	copying   sync.WaitGroup // goroutines copying from and to non-file streams
	ours      []*os.File     // this program's ends of their pipes
	done      chan struct{}
	err       error
}

// start asks the supervisor to start cmd, and waits for its answer.
func (c *hubClient) start(cmd *exec.Cmd, opts Options) (*hubProcess, error) {
	p := &hubProcess{c: c, grace: opts.Grace, started: make(chan struct{}), done: make(chan struct{}), waitDelay: cmd.WaitDelay}
	theirs, err := p.streams(cmd)
	defer func() { closeAll(theirs) }()
	if err != nil {
		closeAll(p.ours)
		return nil, err
	}
	argv := cmd.Args
	if len(argv) == 0 {
		argv = []string{cmd.Path}
	}
	c.mu.Lock()
	if c.ended() {
		c.mu.Unlock()
		closeAll(p.ours)
		return nil, errHubEnded
	}
	c.nextID++
	p.id = c.nextID
	c.pending[p.id] = p
	c.mu.Unlock()
	dir := cmd.Dir
	if dir == "" {
		// Where this program is now, as os/exec would start it, not
		// where it was when the supervisor started.
		dir, _ = os.Getwd()
	}
	m := message{Op: "start", ID: p.id, Path: cmd.Path, Argv: argv, Env: cmd.Environ(), Dir: dir, Grace: opts.Grace}
	fds := make([]int, len(theirs))
	for i, f := range theirs {
		fds[i] = int(f.Fd())
	}
	if err := c.out.send(m, fds...); err != nil {
		c.mu.Lock()
		delete(c.pending, p.id)
		c.mu.Unlock()
		closeAll(p.ours)
		return nil, fmt.Errorf("supervise: %w", err)
	}
	closeAll(theirs) // the supervisor has its own copies now
	theirs = nil
	<-p.started
	if p.startErr != nil {
		closeAll(p.ours) // the copying goroutines end with them
		return nil, p.startErr
	}
	return p, nil
}

// streams returns the command's stdin, stdout and stderr as files to pass:
// a file as it is, nothing as the null device, and anything else through
// a pipe that a goroutine copies, as os/exec does.
func (p *hubProcess) streams(cmd *exec.Cmd) (theirs []*os.File, err error) {
	in, err := p.input(cmd.Stdin)
	if err != nil {
		return nil, err
	}
	theirs = append(theirs, in)
	for _, w := range []io.Writer{cmd.Stdout, cmd.Stderr} {
		f, err := p.output(w)
		if err != nil {
			return theirs, err
		}
		theirs = append(theirs, f)
	}
	return theirs, nil
}

// input is the file the command reads r from. The caller closes it.
func (p *hubProcess) input(r io.Reader) (*os.File, error) {
	if f, ok := r.(*os.File); ok {
		return dupFile(f)
	}
	if r == nil {
		return os.Open(os.DevNull)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	p.ours = append(p.ours, pw)
	p.copying.Go(func() {
		io.Copy(pw, r)
		pw.Close()
	})
	return pr, nil
}

// output is the file the command writes w to. The caller closes it.
func (p *hubProcess) output(w io.Writer) (*os.File, error) {
	if f, ok := w.(*os.File); ok {
		return dupFile(f)
	}
	if w == nil {
		return os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	p.ours = append(p.ours, pr)
	p.copying.Go(func() { io.Copy(w, pr) })
	return pw, nil
}

// dupFile returns a copy of f that the caller may close, as the caller's f
// stays the caller's.
func dupFile(f *os.File) (*os.File, error) {
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		return nil, err
	}
	syscall.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), f.Name()), nil
}

// finish records the command's end, once what it wrote to pipes of ours
// is read (for at most waitDelay, if set, as os/exec does). It is called
// with c.mu held, and must not block.
func (p *hubProcess) finish(err error) {
	go func() {
		copied := make(chan struct{})
		go func() {
			p.copying.Wait()
			close(copied)
		}()
		if p.waitDelay > 0 {
			select {
			case <-copied:
			case <-time.After(p.waitDelay):
			}
		} else {
			<-copied
		}
		closeAll(p.ours)
		p.err = err
		close(p.done)
	}()
}

func (p *hubProcess) pid() int { return p.p }

func (p *hubProcess) wait() error {
	<-p.done
	return p.err
}

func (p *hubProcess) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

func (p *hubProcess) terminate() error {
	if p.exited() {
		return os.ErrProcessDone
	}
	return p.c.out.send(message{Op: "terminate", ID: p.id, Pid: p.p})
}

func (p *hubProcess) kill() {
	if !p.exited() {
		_ = p.c.out.send(message{Op: "kill", ID: p.id, Pid: p.p})
	}
}
