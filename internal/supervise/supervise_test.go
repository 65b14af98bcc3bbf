//go:build linux

package supervise

import (
	"bytes"
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

// ended bounds how long a process that must end may take. It is generous on
// purpose: it only tells "ended" from "never ends" on a busy machine.
const ended = 30 * time.Second

func TestMain(m *testing.M) {
	Init()
	if os.Getenv("SUPERVISE_TEST_PARENT") != "" {
		parent()
		return
	}
	if os.Getenv("SUPERVISE_TEST_HUB_PARENT") != "" {
		hubParent()
		return
	}
	os.Exit(m.Run())
}

// parent is a process that supervises the script in its arguments and
// then waits to be killed, for TestParentDeath.
func parent() {
	cmd := exec.Command("bash", "-c", os.Getenv("SUPERVISE_TEST_PARENT"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if _, err := Wrap(cmd, Options{Grace: 200 * time.Millisecond}); err != nil {
		panic(err)
	}
	if err := cmd.Start(); err != nil {
		panic(err)
	}
	for {
		time.Sleep(time.Hour) // until the test kills it
	}
}

// alive reports whether pid is a live process (not a zombie).
func alive(pid int) bool {
	st, err := procfs.ReadStat(pid)
	return err == nil && st.State != 'Z'
}

// awaitGone fails the test unless pid is gone within ended.
func awaitGone(t *testing.T, pid int, what string) {
	t.Helper()
	for deadline := time.Now().Add(ended); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !alive(pid) {
			return
		}
	}
	syscall.Kill(pid, syscall.SIGKILL)
	t.Fatalf("%s (pid %d) outlived its supervisor", what, pid)
}

// readPid waits for a file holding a process id.
func readPid(t *testing.T, path string) int {
	t.Helper()
	for deadline := time.Now().Add(ended); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		b, err := os.ReadFile(path)
		if pid, err2 := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && err2 == nil {
			return pid
		}
	}
	t.Fatalf("%s never held a pid", path)
	return 0
}

// start wraps and starts a bash script, with $1 and on its arguments.
func start(t *testing.T, opts Options, script string, args ...string) (*exec.Cmd, *Supervisor) {
	t.Helper()
	cmd := exec.Command("bash", append([]string{"-c", script, "script"}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	sup, err := Wrap(cmd, opts)
	if err != nil || (sup != nil) != opts.Report {
		t.Fatalf("Wrap: %v, %v", sup, err)
	}
	err = cmd.Start()
	sup.Started()
	if err != nil {
		t.Fatal(err)
	}
	return cmd, sup
}

// daemon is a script that starts a daemon with setsid, which leaves the
// process group and session, writes the daemon's pid to $1 and waits.
const daemon = `setsid bash -c 'echo $$ > "$1"; exec sleep 300' daemon "$1" & `

// A daemon is stopped when the command that started it exits, and the
// command's own status is reported.
func TestDaemonEndsWithCommand(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "daemon.pid")
	cmd, sup := start(t, Options{Report: true}, daemon+`while [ ! -s "$1" ]; do sleep 0.01; done; exit 3`, pidFile)
	if err := cmd.Wait(); err != nil {
		t.Errorf("supervisor: %v", err)
	}
	ws, startErr, ok := sup.Result()
	if !ok || startErr != nil || ws.ExitStatus() != 3 {
		t.Errorf("report: %v %v %v; want exit status 3", ws, startErr, ok)
	}
	// The supervisor exits only once its descendants are gone.
	if pid := readPid(t, pidFile); alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the daemon %d outlived the command", pid)
	}
}

// SIGTERM to the supervisor stops the command and its descendants, those
// ignoring SIGTERM after the grace, and the command's death by signal is
// reported.
func TestStop(t *testing.T) {
	dir := t.TempDir()
	pidFile, ignorer := filepath.Join(dir, "daemon.pid"), filepath.Join(dir, "ignorer.pid")
	cmd, sup := start(t, Options{Grace: 300 * time.Millisecond, Report: true},
		daemon+`(trap '' TERM; echo $BASHPID > "$2"; while :; do sleep 1; done) & exec sleep 300`, pidFile, ignorer)
	pids := []int{readPid(t, pidFile), readPid(t, ignorer)}
	syscall.Kill(cmd.Process.Pid, syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Errorf("supervisor: %v", err)
	}
	ws, _, ok := sup.Result()
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("report: %v %v; want killed by SIGTERM", ws, ok)
	}
	for _, pid := range pids {
		if alive(pid) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("process %d outlived the supervisor", pid)
		}
	}
}

// When the supervisor's parent dies, even by SIGKILL, the supervisor stops
// the command and its descendants.
func TestParentDeath(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "daemon.pid")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := exec.Command(exe)
	p.Env = append(os.Environ(), "SUPERVISE_TEST_PARENT="+strings.ReplaceAll(daemon, `"$1"`, strconv.Quote(pidFile))+"exec sleep 300")
	p.Stderr = os.Stderr
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	pid := readPid(t, pidFile)
	p.Process.Kill()
	p.Wait()
	awaitGone(t, pid, "the daemon")
}

func TestStartError(t *testing.T) {
	cmd := exec.Command("/nonexistent/toolsearch-test-program")
	cmd.Err = nil // exec.Command found nothing; the supervisor must say so itself
	sup, err := Wrap(cmd, Options{Report: true})
	if err != nil || sup == nil {
		t.Fatalf("Wrap: %v, %v", sup, err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Start()
	sup.Started()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if _, startErr, ok := sup.Result(); !ok || startErr == nil || !strings.Contains(startErr.Error(), "no such file") {
		t.Errorf("report: %v %v; want the start error", startErr, ok)
	}
	if !strings.Contains(stderr.String(), "cannot start /nonexistent/toolsearch-test-program") {
		t.Errorf("stderr = %q", stderr.String())
	}
}

// Standard streams, working directory and environment reach the command.
func TestPassesThrough(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("bash", "-c", `read line; echo "$line $PWD $SUPERVISE_TEST_VAR"; echo err >&2`)
	cmd.Dir, cmd.Env = dir, []string{"SUPERVISE_TEST_VAR=v", "PATH=" + os.Getenv("PATH")}
	cmd.Stdin = strings.NewReader("in\n")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if _, err := Wrap(cmd, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(dir)
	if got, want := out.String(), "in "+real+" v\n"; got != want && got != "in "+dir+" v\n" {
		t.Errorf("stdout = %q, want %q", got, want)
	}
	if errOut.String() != "err\n" {
		t.Errorf("stderr = %q", errOut.String())
	}
}

func TestParseReport(t *testing.T) {
	tests := []struct {
		line    string
		ws      syscall.WaitStatus
		wantErr string
		ok      bool
	}{
		{"status 768\n", 768, "", true},
		{"error fork/exec x: no such file\n", 0, "fork/exec x: no such file", true},
		{"", 0, "", false},
		{"status x", 0, "", false},
		{"garbage", 0, "", false},
	}
	for _, tt := range tests {
		ws, err, ok := parseReport(tt.line)
		if ws != tt.ws || ok != tt.ok || (err == nil) != (tt.wantErr == "") || (err != nil && err.Error() != tt.wantErr) {
			t.Errorf("parseReport(%q) = %v, %v, %v", tt.line, ws, err, ok)
		}
	}
}

func TestArgsRoundTrip(t *testing.T) {
	a := args{grace: 1500 * time.Millisecond, reportFD: 3, path: "/bin/sh", argv: []string{"sh", "-c", "a b", ""}}
	got, err := parseArgs(a.encode())
	if err != nil || got.grace != a.grace || got.reportFD != 3 || got.path != a.path || strings.Join(got.argv, "|") != "sh|-c|a b|" {
		t.Errorf("parseArgs(encode) = %+v, %v", got, err)
	}
	if _, err := parseArgs([]string{mode, "x", "3", "/bin/sh", "sh"}); err == nil {
		t.Error("a bad grace was accepted")
	}
}
