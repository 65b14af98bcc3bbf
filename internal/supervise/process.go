package supervise

import (
	"errors"
	"os/exec"
	"syscall"
)

// A Process is a command started with [Start]: a long-running one, such as
// a stdio server, that may be asked to end ([Process.Terminate]), forced
// to ([Process.Kill]) and waited for ([Process.Wait]). Its methods are
// safe for concurrent use.
//
// On Linux (once [Init] has run) every Process of a program runs under one
// supervisor, the program's own binary started again when the first
// Process starts, rather than under a supervisor of its own as a command
// prepared with [Wrap] does: a supervisor costs some megabytes of memory,
// and a server runs as long as the program. The command is made a child
// subreaper itself before it runs, so that what it leaves behind while it
// runs stays below it and is stopped with it; what it leaves when it exits
// goes to the supervisor, which stops it (SIGTERM, SIGKILL after the
// grace). The supervisor dies with the program, and stops every command
// then. Elsewhere a Process is a command prepared with Wrap and started by
// os/exec, with what each system guarantees (see the package
// documentation).
type Process struct {
	impl process
}

// process is what a Process does, per way of starting it.
type process interface {
	pid() int
	wait() error
	terminate() error
	kill()
}

// Start starts cmd, which must not have started, so that it and
// everything it starts end with it. cmd's Path, Args, Env, Dir and
// standard streams are used as os/exec would, and so is WaitDelay for
// streams that are not files; ExtraFiles are not supported, and
// SysProcAttr applies only where the command is started by os/exec.
// Options.Report changes nothing: Wait returns the command's own status.
func Start(cmd *exec.Cmd, opts Options) (*Process, error) {
	if cmd.Process != nil {
		return nil, errors.New("supervise: command already started")
	}
	if len(cmd.ExtraFiles) > 0 {
		return nil, errors.New("supervise: commands with ExtraFiles cannot be supervised")
	}
	if cmd.Err != nil {
		return nil, cmd.Err
	}
	if opts.Grace <= 0 {
		opts.Grace = DefaultGrace
	}
	impl, err := startProcess(cmd, opts)
	if err != nil {
		return nil, err
	}
	return &Process{impl: impl}, nil
}

// Pid is the command's process id.
func (p *Process) Pid() int { return p.impl.pid() }

// Wait waits for the command to exit and returns its status as
// exec.Cmd.Wait would (nil for exit status 0). It may be called any number
// of times, from any goroutine.
func (p *Process) Wait() error { return p.impl.wait() }

// Terminate asks the command to end: SIGTERM to it and, under a Linux
// supervisor, to everything it started, and SIGKILL to what is left after
// the grace. It does not wait. It fails on Windows, which has no SIGTERM,
// and when the command has already ended.
func (p *Process) Terminate() error { return p.impl.terminate() }

// Kill ends the command and everything it started at once, or what is
// left of them once it has exited, without waiting.
func (p *Process) Kill() { p.impl.kill() }

// execProcess is a command prepared with Wrap and started by os/exec.
type execProcess struct {
	cmd  *exec.Cmd
	sup  *Supervisor
	done chan struct{}
	err  error
}

// startExec starts cmd with os/exec under Wrap.
func startExec(cmd *exec.Cmd, opts Options) (*execProcess, error) {
	opts.Report = false
	sup, err := Wrap(cmd, opts)
	if err != nil {
		return nil, err
	}
	err = cmd.Start()
	if serr := sup.Started(); err == nil && serr != nil {
		cmd.Wait() // Started killed it before it ran
		err = serr
	}
	if err != nil {
		return nil, err
	}
	p := &execProcess{cmd: cmd, sup: sup, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

func (p *execProcess) pid() int { return p.cmd.Process.Pid }

func (p *execProcess) wait() error {
	<-p.done
	return p.err
}

func (p *execProcess) terminate() error { return p.cmd.Process.Signal(syscall.SIGTERM) }

func (p *execProcess) kill() {
	_ = p.cmd.Process.Kill()
	p.sup.Kill()
}
