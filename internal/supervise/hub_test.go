//go:build linux

package supervise

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/internal/procfs"
)

// initHook is a variable this binary acts on before main and before
// Init, as the tests of cmd/toolsearch do to run the binary as a server.
const initHook = "SUPERVISE_TEST_INIT_HOOK"

func init() {
	if os.Getenv(initHook) != "" {
		fmt.Println(os.Args[0])
		os.Exit(0)
	}
}

// The command's environment is the command's: the program's own binary,
// which starts it, runs without it, and the command does not run as the
// program's binary.
func TestProcessEnvironmentIsTheCommands(t *testing.T) {
	if !Enabled() {
		t.Skip("no supervisor")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Args[0] = "the-command"
	cmd.Env = []string{initHook + "=1"}
	var out bytes.Buffer
	cmd.Stdout = &out
	p, err := Start(cmd, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(); err != nil || out.String() != "the-command\n" {
		t.Errorf("Wait = %v, output %q; want the command's own", err, out.String())
	}
}

// hubParent is a process that starts, under the shared supervisor, three
// copies of the script in its environment (each given its number as $1)
// and then waits to be killed, for TestProcessParentKilled.
func hubParent() {
	for i := range 3 {
		cmd := exec.Command("bash", "-c", os.Getenv("SUPERVISE_TEST_HUB_PARENT"), "script", strconv.Itoa(i))
		if _, err := Start(cmd, Options{Grace: 200 * time.Millisecond}); err != nil {
			panic(err)
		}
	}
	for {
		time.Sleep(time.Hour) // until the test kills it
	}
}

// startProc starts a bash script under the shared supervisor, with its
// arguments.
func startProc(t *testing.T, opts Options, script string, args ...string) *Process {
	t.Helper()
	if !Enabled() {
		t.Skip("no supervisor")
	}
	cmd := exec.Command("bash", append([]string{"-c", script, "script"}, args...)...)
	p, err := Start(cmd, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	return p
}

// parentOf is the parent of a live process.
func parentOf(t *testing.T, pid int) int {
	t.Helper()
	st, err := procfs.ReadStat(pid)
	if err != nil {
		t.Fatalf("process %d: %v", pid, err)
	}
	return st.PPID
}

// Every command runs under the same supervisor, a child of this program
// that runs under the supervisor's name.
func TestProcessOneSupervisor(t *testing.T) {
	var procs []*Process
	for range 3 {
		procs = append(procs, startProc(t, Options{}, "exec sleep 300"))
	}
	hub := parentOf(t, procs[0].Pid())
	for _, p := range procs[1:] {
		if got := parentOf(t, p.Pid()); got != hub {
			t.Errorf("command %d runs under %d, another under %d", p.Pid(), got, hub)
		}
	}
	if name, _ := procfs.Argv0(hub); name != SupervisorName || parentOf(t, hub) != os.Getpid() {
		t.Errorf("the supervisor %d is %q, a child of %d", hub, name, parentOf(t, hub))
	}
	for _, p := range procs {
		p.Kill()
		if err := p.Wait(); err == nil || err.Error() != "signal: killed" {
			t.Errorf("Wait after Kill = %v", err)
		}
	}
}

// A daemon is stopped when the command that started it exits, and Wait
// returns the command's own status.
func TestProcessDaemonEndsWithCommand(t *testing.T) {
	dir := t.TempDir()
	pidFile, doubled := filepath.Join(dir, "daemon.pid"), filepath.Join(dir, "double.pid")
	p := startProc(t, Options{Grace: 300 * time.Millisecond},
		daemon+`(setsid bash -c 'echo $$ > "$2"; trap "" TERM; while :; do sleep 1; done' daemon "$1" "$2" &) ; `+
			`while [ ! -s "$1" ] || [ ! -s "$2" ]; do sleep 0.01; done; exit 3`, pidFile, doubled)
	err := p.Wait()
	var ws interface{ ExitCode() int }
	if !errors.As(err, &ws) || ws.ExitCode() != 3 || err.Error() != "exit status 3" {
		t.Errorf("Wait = %v; want exit status 3", err)
	}
	awaitGone(t, readPid(t, pidFile), "the daemon")
	awaitGone(t, readPid(t, doubled), "the double-forked daemon that ignores SIGTERM")
}

// What a running command leaves behind stays below it (it is a child
// subreaper), and Terminate stops it all, what ignores SIGTERM after the
// grace, and no other command.
func TestProcessTerminate(t *testing.T) {
	dir := t.TempDir()
	pidFile, ignorer := filepath.Join(dir, "daemon.pid"), filepath.Join(dir, "ignorer.pid")
	other := startProc(t, Options{}, "exec sleep 300")
	p := startProc(t, Options{Grace: 300 * time.Millisecond},
		`(`+daemon+`) ; (trap '' TERM; echo $BASHPID > "$2"; while :; do sleep 1; done) & exec sleep 300`, pidFile, ignorer)
	d := readPid(t, pidFile)
	if got := parentOf(t, d); got != p.Pid() {
		t.Errorf("the orphaned daemon's parent is %d, not the command %d", got, p.Pid())
	}
	pids := []int{d, readPid(t, ignorer)}
	if err := p.Terminate(); err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(); err == nil || err.Error() != "signal: terminated" {
		t.Errorf("Wait = %v; want signal: terminated", err)
	}
	for _, pid := range pids {
		awaitGone(t, pid, "a process below the command")
	}
	if !alive(other.Pid()) {
		t.Error("stopping one command stopped another")
	}
	if err := p.Terminate(); !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("Terminate after the end = %v", err)
	}
}

// When the program dies, even by SIGKILL, every command under its one
// supervisor ends, with everything they started, and so does the
// supervisor.
func TestProcessParentKilled(t *testing.T) {
	if !Enabled() {
		t.Skip("no supervisor")
	}
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script := `echo $$ > ` + strconv.Quote(dir) + `/cmd$1.pid; ` +
		`setsid bash -c 'echo $$ > "$1"; exec sleep 300' daemon ` + strconv.Quote(dir) + `/daemon$1.pid & exec sleep 300`
	parent := exec.Command(exe)
	parent.Env = append(os.Environ(), "SUPERVISE_TEST_HUB_PARENT="+script)
	parent.Stderr = os.Stderr
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	var pids []int
	for i := range 3 {
		pids = append(pids, readPid(t, filepath.Join(dir, fmt.Sprint("cmd", i, ".pid"))), readPid(t, filepath.Join(dir, fmt.Sprint("daemon", i, ".pid"))))
	}
	hub := parentOf(t, pids[0])
	for i := 2; i < len(pids); i += 2 {
		if got := parentOf(t, pids[i]); got != hub {
			t.Errorf("the commands run under %d and %d: want one supervisor", hub, got)
		}
	}
	parent.Process.Kill()
	parent.Wait()
	for _, pid := range append(pids, hub) {
		awaitGone(t, pid, "a process the killed program started")
	}
}

func TestProcessStartError(t *testing.T) {
	if !Enabled() {
		t.Skip("no supervisor")
	}
	cmd := exec.Command("/nonexistent/toolsearch-test-program")
	cmd.Err = nil // exec.Command found nothing; the supervisor must say so itself
	_, err := Start(cmd, Options{})
	if err == nil || !strings.Contains(err.Error(), "fork/exec /nonexistent/toolsearch-test-program: no such file") {
		t.Errorf("Start = %v; want the start error", err)
	}
	cmd = exec.Command("bash", "-c", "true")
	cmd.Dir = "/nonexistent"
	if _, err := Start(cmd, Options{}); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("Start in a missing folder = %v", err)
	}
}

// Standard streams, files or not, working directory and environment reach
// the command, and nothing else of this program's environment does.
func TestProcessPassesThrough(t *testing.T) {
	if !Enabled() {
		t.Skip("no supervisor")
	}
	dir := t.TempDir()
	t.Setenv("SUPERVISE_TEST_SECRET", "s3cret")
	cmd := exec.Command("bash", "-c", `read line; echo "$line $PWD $SUPERVISE_TEST_VAR ${SUPERVISE_TEST_SECRET-unset}"; echo err >&2`)
	cmd.Dir, cmd.Env = dir, []string{"SUPERVISE_TEST_VAR=v", "PATH=" + os.Getenv("PATH")}
	cmd.Stdin = strings.NewReader("in\n")
	var out bytes.Buffer
	errR, errW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer errR.Close()
	cmd.Stdout, cmd.Stderr = &out, errW
	p, err := Start(cmd, Options{})
	errW.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(dir)
	if got := out.String(); got != "in "+real+" v unset\n" && got != "in "+dir+" v unset\n" {
		t.Errorf("stdout = %q", got)
	}
	buf := make([]byte, 16)
	if n, _ := errR.Read(buf); string(buf[:n]) != "err\n" {
		t.Errorf("stderr = %q", buf[:n])
	}
}

// A supervisor that dies ends its commands, and the next command starts a
// new one.
func TestProcessSupervisorDies(t *testing.T) {
	p := startProc(t, Options{}, "exec sleep 300")
	hub := parentOf(t, p.Pid())
	syscall.Kill(hub, syscall.SIGKILL)
	if err := p.Wait(); !errors.Is(err, errHubEnded) {
		t.Errorf("Wait = %v", err)
	}
	awaitGone(t, p.Pid(), "the command of a dead supervisor")
	var q *Process
	for deadline := time.Now().Add(ended); ; time.Sleep(10 * time.Millisecond) {
		cmd := exec.Command("bash", "-c", "exec sleep 300")
		var err error
		if q, err = Start(cmd, Options{}); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
	}
	defer q.Kill()
	if got := parentOf(t, q.Pid()); got == hub {
		t.Errorf("the new command runs under the dead supervisor %d", hub)
	}
}

// A command with no Dir starts where this program is when it starts it.
func TestProcessStartsInTheCurrentFolder(t *testing.T) {
	startProc(t, Options{}, "exec sleep 300") // the supervisor runs before the move
	dir := t.TempDir()
	t.Chdir(dir)
	cmd := exec.Command("pwd")
	var out bytes.Buffer
	cmd.Stdout = &out
	p, err := Start(cmd, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p.Wait()
	real, _ := filepath.EvalSymlinks(dir)
	if got := strings.TrimSpace(out.String()); got != dir && got != real {
		t.Errorf("the command ran in %q, want %q", got, dir)
	}
}
