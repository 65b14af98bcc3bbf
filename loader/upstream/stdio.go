package upstream

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/supervise"
)

// A stdioProcess is a stdio server's command and, once started, its
// supervised process.
type stdioProcess struct {
	cmd  *exec.Cmd
	opts supervise.Options

	mu   sync.Mutex
	proc *supervise.Process // nil until started
}

func (p *stdioProcess) started() *supervise.Process {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.proc
}

// pid is the process's id, 0 before it started.
func (p *stdioProcess) pid() int {
	if proc := p.started(); proc != nil {
		return proc.Pid()
	}
	return 0
}

// kill ends whatever is left of the process and what it started, once the
// session has closed (stdin first, then signals: see stdioConn.Close).
func (p *stdioProcess) kill() {
	if proc := p.started(); proc != nil {
		proc.Kill()
	}
}

// A stdioTransport starts a stdio server under supervise (which, on Linux,
// starts it from its one supervisor rather than as a child of toolsearch,
// so mcp.CommandTransport cannot) and talks to it over its stdin and
// stdout, newline-delimited JSON, as the SDK's CommandTransport does.
type stdioTransport struct {
	p         *stdioProcess
	terminate time.Duration // how long the server has to exit after stdin closes, and again after SIGTERM
}

func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	t.p.cmd.Stdin, t.p.cmd.Stdout = inR, outW
	proc, err := supervise.Start(t.p.cmd, t.p.opts)
	inR.Close() // the server has its own copies
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	t.p.mu.Lock()
	t.p.proc = proc
	t.p.mu.Unlock()
	// The connection is closed by closing stdin, not stdout: the server
	// may still write as it ends.
	return (&mcp.IOTransport{Reader: noClose{outR}, Writer: &stdioConn{stdin: inW, stdout: outR, proc: proc, terminate: t.terminate}}).Connect(ctx)
}

type noClose struct{ *os.File }

func (noClose) Close() error { return nil }

// A stdioConn is a server's stdin, whose Close ends the server as the MCP
// specification asks: close its stdin, wait for it to exit, SIGTERM if it
// does not, SIGKILL if it still does not.
type stdioConn struct {
	stdin, stdout *os.File
	proc          *supervise.Process
	terminate     time.Duration
}

func (c *stdioConn) Write(p []byte) (int, error) { return c.stdin.Write(p) }

func (c *stdioConn) Close() error {
	defer c.stdout.Close() // unblocks a reader a grandchild keeps waiting
	if err := c.stdin.Close(); err != nil {
		return fmt.Errorf("closing stdin: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- c.proc.Wait() }()
	wait := func() (error, bool) {
		timer := time.NewTimer(c.terminate)
		defer timer.Stop()
		select {
		case err := <-exited:
			return err, true
		case <-timer.C:
			return nil, false
		}
	}
	if err, ok := wait(); ok {
		return err
	}
	// Where there is no SIGTERM (Windows), straight to the kill.
	if c.proc.Terminate() == nil {
		if err, ok := wait(); ok {
			return err
		}
	}
	c.proc.Kill()
	if err, ok := wait(); ok {
		return err
	}
	return fmt.Errorf("unresponsive subprocess")
}
