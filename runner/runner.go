package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/toolsearch/toolsearch/internal/admission"
	"github.com/toolsearch/toolsearch/internal/supervise"
	"github.com/toolsearch/toolsearch/internal/utf8cut"
)

// Defaults for the zero values of Options.
const (
	DefaultOutputLimit = 32 << 10
	DefaultStderrTail  = 4 << 10
	DefaultTimeout     = 60 * time.Second
	DefaultMaxTimeout  = 10 * time.Minute
)

// MaxStdin is the most bytes of Request.Stdin a script may be given.
const MaxStdin = 1 << 20

// grace is how long a stopped process group has between SIGTERM and
// SIGKILL, and how long output pipes are still read once the group is gone
// (a process that left the group may hold them open).
const grace = 2 * time.Second

// baseEnv lists the environment variables every script gets, when set.
// Anything else, such as tokens meant for upstream servers, stays out
// unless Options.EnvAllow names it.
var baseEnv = []string{"PATH", "HOME", "LANG", "LC_*", "TMPDIR", "TZ"}

// Options configure a Runner. The zero value is usable.
type Options struct {
	// WorkDir is the working directory of scripts, unless a request gives
	// its own; "" means the server's own, where the host started it: the
	// user's project.
	WorkDir string
	// OutputLimit is how many bytes of stdout a Result keeps; 0 means
	// DefaultOutputLimit.
	OutputLimit int
	// StderrTail is how many bytes at the end of stderr are kept to explain
	// a failure; 0 means DefaultStderrTail.
	StderrTail int
	// DefaultTimeout applies to requests that set none; 0 means
	// DefaultTimeout.
	DefaultTimeout time.Duration
	// MaxTimeout caps every request's timeout, so that the model cannot
	// ask for an unbounded run; 0 means DefaultMaxTimeout.
	MaxTimeout time.Duration
	// Concurrency is how many scripts may run at once; further requests
	// wait their turn. 0 means runtime.NumCPU().
	Concurrency int
	// EnvAllow names further environment variables passed to scripts. A
	// name ending in "*" passes every variable with that prefix.
	EnvAllow []string
	// Disabled turns scripts off for every skill.
	Disabled bool
	// SkillDisabled, if set, reports whether scripts are off for a skill.
	SkillDisabled func(skill string) bool
	// Logger receives a record of every run and refusal, with the tail of
	// stderr; nil means slog.Default().
	Logger *slog.Logger
}

// A Runner runs skill scripts. It is safe for concurrent use.
type Runner struct {
	opts  Options
	slots chan struct{} // a token per running script
	log   *slog.Logger

	// runs admits runs, waiting for a slot or running, until Shutdown
	// begins.
	runs admission.Gate
	// stopping ends when Shutdown stops waiting: running scripts are
	// stopped.
	stopping context.Context
	stopAll  context.CancelFunc
}

// New returns a Runner with the given options, defaults filled in.
func New(opts Options) *Runner {
	if opts.OutputLimit <= 0 {
		opts.OutputLimit = DefaultOutputLimit
	}
	if opts.StderrTail <= 0 {
		opts.StderrTail = DefaultStderrTail
	}
	if opts.MaxTimeout <= 0 {
		opts.MaxTimeout = DefaultMaxTimeout
	}
	if opts.DefaultTimeout <= 0 {
		opts.DefaultTimeout = DefaultTimeout
	}
	opts.DefaultTimeout = min(opts.DefaultTimeout, opts.MaxTimeout)
	if opts.Concurrency <= 0 {
		opts.Concurrency = runtime.NumCPU()
	}
	opts.EnvAllow = append(baseEnv[:len(baseEnv):len(baseEnv)], opts.EnvAllow...)
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	r := &Runner{opts: opts, slots: make(chan struct{}, opts.Concurrency), log: log}
	r.stopping, r.stopAll = context.WithCancel(context.Background())
	return r
}

// Shutdown shuts the runner down gracefully: it refuses new runs (and those
// still waiting for their turn) and waits for the running scripts to end.
// If ctx ends first, it stops them as a timeout would (SIGTERM to the
// scripts and everything they started, SIGKILL 2 s later), waits for that,
// and returns ctx's error. With a ctx that has already ended, it stops
// every script at once. Stopped runs return Results marked Cancelled.
//
// Shutdown may be called more than once; every call waits for the end.
func (r *Runner) Shutdown(ctx context.Context) error {
	drained := r.runs.Close()
	select {
	case <-drained:
		return nil
	case <-ctx.Done():
	}
	r.stopAll()
	<-drained
	return ctx.Err()
}

// A Request asks for one script of one skill to be run.
type Request struct {
	Skill    string   // the skill's name; "" means the base name of SkillDir
	SkillDir string   // the skill's folder, which the script must be inside
	Script   string   // path relative to SkillDir, such as "scripts/extract.py"
	Args     []string // passed to the script as they are, never through a shell
	Stdin    string   // at most MaxStdin bytes; "" gives the script no input

	// Nested maps the folders of the skills nested in this one (relative
	// to SkillDir, slash-separated) to their names ("" for one that is
	// not served). Their files are theirs alone: a script in one of them is
	// refused, so that it runs only as its own skill's, under that
	// skill's settings.
	Nested map[string]string

	// Timeout limits the run; 0 means Options.DefaultTimeout, and more
	// than Options.MaxTimeout means Options.MaxTimeout.
	Timeout time.Duration

	// WorkDir is where this run works, when the caller knows the user's
	// project better than Options.WorkDir (the client's roots); "" means
	// Options.WorkDir.
	WorkDir string
}

// Run runs the script req names and waits for it and every process it
// started to end. A script that fails is not an error: see
// [Result.Failed]. Errors mean the script did not run: a refusal, as an
// [*Error]; a ctx that ended while the request waited its turn; or a
// failure to start it.
func (r *Runner) Run(ctx context.Context, req Request) (*Result, error) {
	if req.Skill == "" {
		req.Skill = filepath.Base(req.SkillDir)
	}
	res, err := r.run(ctx, req)
	if err != nil {
		// The script path is the model's: a refused one may be any length.
		var reason any = err
		if e, ok := err.(*Error); ok {
			reason = e.Reason
		}
		r.log.LogAttrs(ctx, slog.LevelWarn, "skill script refused",
			slog.String("skill", req.Skill), slog.String("script", clip(req.Script, 256)), slog.Any("error", reason))
		return nil, err
	}
	return res, nil
}

// clip cuts s to at most n bytes, between characters, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return utf8cut.Prefix(s, n) + "…"
}

func (r *Runner) run(ctx context.Context, req Request) (*Result, error) {
	argv, dir, err := r.prepare(req)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			e.Skill, e.Script = req.Skill, req.Script
		}
		return nil, err
	}
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = r.opts.DefaultTimeout
	}
	timeout = min(timeout, r.opts.MaxTimeout)

	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("script %q of skill %q not started: %w", req.Script, req.Skill, err)
	}
	if !r.runs.Admit() {
		return nil, shuttingDown(req)
	}
	defer r.runs.Done()
	select {
	case r.slots <- struct{}{}:
		defer func() { <-r.slots }()
	case <-ctx.Done():
		return nil, fmt.Errorf("script %q of skill %q not started: cancelled while waiting for one of the %d running scripts to finish: %w",
			req.Script, req.Skill, cap(r.slots), ctx.Err())
	case <-r.runs.Closing():
		return nil, shuttingDown(req)
	}
	// Shutdown stops the script as a cancelled ctx would.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(r.stopping, cancel)()

	cmd := exec.Command(argv[0], slices.Concat(argv[1:], req.Args)...)
	cmd.Dir = r.opts.WorkDir
	if req.WorkDir != "" {
		cmd.Dir = req.WorkDir
	}
	cmd.Env = append(r.env(), "SKILL_DIR="+dir, "SKILL_NAME="+req.Skill)
	// The script and everything it starts are stopped together: see
	// supervise for what each system guarantees.
	sup, err := supervise.Wrap(cmd, supervise.Options{Grace: grace, Report: true})
	if err != nil {
		return nil, fmt.Errorf("script %q of skill %q: %w", req.Script, req.Skill, err)
	}
	res, err := r.execute(ctx, cmd, sup, req.Stdin, timeout)
	if err != nil {
		return nil, fmt.Errorf("script %q of skill %q: %w", req.Script, req.Skill, err)
	}
	r.logResult(ctx, req, res)
	if !res.Failed() {
		res.Stderr = ""
	}
	return res, nil
}

// shuttingDown is the refusal of a run that Shutdown kept from starting.
func shuttingDown(req Request) *Error {
	return &Error{Skill: req.Skill, Script: req.Script, Err: ErrShutDown,
		Reason: "toolsearch is shutting down and starts no new script; run it again once it is back"}
}

// prepare checks everything that can refuse a request, before it waits for
// its turn, and returns the argv to run and the real skill folder.
func (r *Runner) prepare(req Request) (argv []string, dir string, err error) {
	switch {
	case r.opts.Disabled:
		return nil, "", refusal(ErrDisabled, "running skill scripts is turned off in the toolsearch configuration; a user can turn it on there")
	case r.opts.SkillDisabled != nil && r.opts.SkillDisabled(req.Skill):
		return nil, "", refusal(ErrDisabled, "scripts of this skill are turned off in the toolsearch configuration; a user can turn them on there")
	case len(req.Stdin) > MaxStdin:
		return nil, "", refusal(ErrStdinTooLarge, "stdin is %d bytes, more than the limit of %d (1 MiB): pass large data in a file instead", len(req.Stdin), MaxStdin)
	}
	dir, path, err := resolve(req.SkillDir, req.Script)
	if err != nil {
		return nil, "", err
	}
	if err := notNested(dir, path, req.Nested); err != nil {
		return nil, "", err
	}
	argv, err = command(path)
	return argv, dir, err
}

// env returns the allowed part of the server's environment.
func (r *Runner) env() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		for _, allow := range r.opts.EnvAllow {
			if prefix, ok := strings.CutSuffix(allow, "*"); name == allow || (ok && strings.HasPrefix(name, prefix)) {
				env = append(env, kv)
				break
			}
		}
	}
	return env
}

// execute starts cmd and collects its result once its process group is gone:
// it starts the script with its pipes, waits for it to end (or stops it),
// drains what it wrote, then reads its exit status.
func (r *Runner) execute(ctx context.Context, cmd *exec.Cmd, sup *supervise.Supervisor, stdin string, timeout time.Duration) (*Result, error) {
	p := &process{cmd: cmd, sup: sup}
	defer p.closePipes()
	if err := r.start(p, stdin); err != nil {
		return nil, err
	}
	res := &Result{Timeout: timeout}
	if err := p.wait(ctx, res); err != nil {
		return nil, err
	}
	p.drain()
	res.Duration = time.Since(p.started)
	if err := p.fill(res); err != nil {
		return nil, err
	}
	return res, nil
}

// A process is a started script: its command, the pipes it writes to and
// what has been read from them.
//
// Output goes through pipes of our own rather than exec's, so that Wait
// only reaps the script: a grandchild that keeps a pipe open cannot make it
// hang. Reading goes on until the pipes close, for at most grace after the
// group is gone.
type process struct {
	cmd     *exec.Cmd
	sup     *supervise.Supervisor
	started time.Time
	files   []*os.File // every pipe end; closing one twice is harmless
	stdout  *headBuffer
	stderr  *tailBuffer
	copying sync.WaitGroup
}

// start opens p's pipes, starts its command, and starts reading its output
// and writing its input. The caller closes the pipes, whether start fails
// or not.
func (r *Runner) start(p *process, stdin string) error {
	cmd := p.cmd
	outR, outW, err := p.pipe()
	if err != nil {
		return err
	}
	errR, errW, err := p.pipe()
	if err != nil {
		return err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	var inR, inW *os.File
	if stdin != "" {
		if inR, inW, err = p.pipe(); err != nil {
			return err
		}
		cmd.Stdin = inR
	}

	p.started = time.Now()
	err = cmd.Start()
	if serr := p.sup.Started(); err == nil && serr != nil {
		cmd.Wait() // Started killed it before it ran
		err = serr
	}
	// The child has its own copies of its ends; ours must go, or the
	// readers would never see EOF.
	outW.Close()
	errW.Close()
	if inR != nil {
		inR.Close()
	}
	if err != nil {
		return fmt.Errorf("cannot start it: %w", err)
	}

	p.stdout = &headBuffer{limit: r.opts.OutputLimit}
	p.stderr = newTailBuffer(r.opts.StderrTail)
	p.copying.Go(func() { copyAll(p.stdout, outR) })
	p.copying.Go(func() { copyAll(p.stderr, errR) })
	if inW != nil {
		p.copying.Go(func() {
			// A script that does not read its input gets EPIPE here
			// once it is gone; that is not an error.
			inW.WriteString(stdin)
			inW.Close()
		})
	}
	return nil
}

// pipe makes a pipe whose ends closePipes will close.
func (p *process) pipe() (rd, wr *os.File, err error) {
	rd, wr, err = os.Pipe()
	if err == nil {
		p.files = append(p.files, rd, wr)
	}
	return rd, wr, err
}

func (p *process) closePipes() {
	for _, f := range p.files {
		f.Close()
	}
}

// wait waits until the script exits, runs out of time or ctx ends, and
// then until it and every process it started are gone, noting in res why
// it ended.
func (p *process) wait(ctx context.Context, res *Result) error {
	exited := make(chan error, 1)
	go func() { exited <- p.cmd.Wait() }()
	timer := time.NewTimer(res.Timeout)
	defer timer.Stop()

	var err error
	select {
	case err = <-exited:
		p.sup.Cleanup() // whatever it left running
	case <-timer.C:
		res.TimedOut = true
		err = p.sup.Stop(exited)
	case <-ctx.Done():
		res.Cancelled = true
		err = p.sup.Stop(exited)
	}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return err
	}
	return nil
}

// drain waits until the output pipes close, for at most grace.
func (p *process) drain() {
	done := make(chan struct{})
	go func() { p.copying.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
		// Something outside the group holds the pipes: stop reading.
		p.closePipes()
		<-done
	}
}

// fill records the exit status and the output in res. A supervised
// script's status is the one its supervisor reports, if there is one.
func (p *process) fill(res *Result) error {
	ws := p.cmd.ProcessState.Sys().(syscall.WaitStatus)
	reported, startErr, ok := p.sup.Result()
	if startErr != nil {
		return fmt.Errorf("cannot start it: %w", startErr)
	}
	if ok {
		ws = reported
	}
	res.ExitCode = ws.ExitStatus()
	if ws.Signaled() {
		res.Signal = signalName(ws.Signal())
	}
	res.Stdout, res.InvalidUTF8 = p.stdout.text()
	res.StdoutBytes = p.stdout.total
	res.Truncated = p.stdout.truncated()
	res.Stderr = p.stderr.text()
	return nil
}

// copyAll copies src to dst until EOF or until src is closed under it.
// Its errors say only that reading stopped, which the caller knows.
func copyAll(dst io.Writer, src io.Reader) { io.Copy(dst, src) }

// logResult records every run, with the tail of stderr even when the
// script succeeded: the model does not see it then, but a user may need it.
func (r *Runner) logResult(ctx context.Context, req Request, res *Result) {
	level := slog.LevelInfo
	if res.Failed() {
		level = slog.LevelWarn
	}
	r.log.LogAttrs(ctx, level, "skill script finished",
		slog.String("skill", req.Skill),
		slog.String("script", req.Script),
		slog.Int("exit_code", res.ExitCode),
		slog.String("signal", res.Signal),
		slog.Bool("timed_out", res.TimedOut),
		slog.Bool("cancelled", res.Cancelled),
		slog.Duration("duration", res.Duration),
		slog.Int64("stdout_bytes", res.StdoutBytes),
		slog.String("stderr", res.Stderr))
}
