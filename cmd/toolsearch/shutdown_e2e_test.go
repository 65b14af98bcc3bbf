//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/procfs"
)

// stopLimit bounds how long a process that must end may take: longer than the
// shutdown grace (10 s) and its stopping (2 s) on a busy machine, far
// shorter than the script timeouts the tests ask for (10 min).
const stopLimit = 45 * time.Second

// daemonSkills makes a skill root with a skill whose scripts start a daemon
// with setsid (which leaves the script's process group and session) and
// wait for a file.
func daemonSkills(t *testing.T) string {
	root := t.TempDir()
	writeFile(t, root, "daemons/SKILL.md", "---\nname: daemons\ndescription: Start daemons for the shutdown tests.\n---\n# Daemons\n")
	// daemon.sh PIDFILE [wait]: the daemon writes its pid to PIDFILE;
	// with "wait" the script then sleeps, as a slow script would.
	writeFile(t, root, "daemons/scripts/daemon.sh", `#!/bin/bash
setsid bash -c 'echo $$ > "$1.tmp"; mv "$1.tmp" "$1"; exec sleep 600' daemon "$1" &
while [ ! -s "$1" ]; do sleep 0.01; done
echo started
[ "$2" = wait ] && sleep 600
exit 0
`)
	// wait.sh STARTED RELEASE: touches STARTED, then waits for RELEASE.
	writeFile(t, root, "daemons/scripts/wait.sh", `#!/bin/bash
touch "$1"
while [ ! -e "$2" ]; do sleep 0.05; done
echo released
`)
	return root
}

// readPid waits for a file holding a process id.
func readPid(t *testing.T, path string) int {
	t.Helper()
	for deadline := time.Now().Add(stopLimit); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		b, err := os.ReadFile(path)
		if pid, err2 := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && err2 == nil {
			return pid
		}
	}
	t.Fatalf("%s never held a pid", path)
	return 0
}

// alive reports whether pid is a live process (not a zombie).
func alive(pid int) bool {
	st, err := procfs.ReadStat(pid)
	return err == nil && st.Live()
}

// assertGone fails unless pid is gone, killing it if not.
func assertGone(t *testing.T, pid int, what string) {
	t.Helper()
	if alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("%s (pid %d) is still running", what, pid)
	}
}

// awaitFile waits until path exists.
func awaitFile(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(stopLimit); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
	t.Fatalf("%s never appeared", path)
}

// serveProcess starts `toolsearch serve` with args and connects to it,
// keeping the process to signal it.
func serveProcess(t *testing.T, args ...string) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	cmd := toolsearch(context.Background(), append([]string{"serve"}, args...)...)
	cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+t.TempDir())
	cmd.Stderr = &testLog{t: t}
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), stopLimit)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, cmd
}

// TestServeScriptDaemonEndsWithRun checks that a daemon a script starts
// with setsid does not outlive the run.
func TestServeScriptDaemonEndsWithRun(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "daemon.pid")
	cs, _ := serveProcess(t, "--skills", daemonSkills(t))
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_skill_script",
		Arguments: map[string]any{"skill": "daemons", "script": "scripts/daemon.sh", "args": []string{pidFile}}})
	if err != nil || res.IsError {
		t.Fatalf("run_skill_script: %v %+v", err, res)
	}
	assertGone(t, readPid(t, pidFile), "the daemon the script started")
}

// TestServeShutdownStopsScripts checks that SIGTERM during a long script
// stops it (and the daemon it started) after the grace, rather than
// waiting for the script's own timeout.
func TestServeShutdownStopsScripts(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "daemon.pid")
	cs, cmd := serveProcess(t, "--skills", daemonSkills(t))
	go cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_skill_script",
		Arguments: map[string]any{"skill": "daemons", "script": "scripts/daemon.sh", "args": []string{pidFile, "wait"}, "timeout_s": 600}})
	pid := readPid(t, pidFile)
	cmd.Process.Signal(syscall.SIGTERM)
	ended := make(chan error, 1)
	go func() { ended <- cs.Wait() }()
	select {
	case <-ended:
	case <-time.After(stopLimit):
		t.Fatal("toolsearch serve did not exit after SIGTERM while a script ran")
	}
	cs.Close() // reaps the process
	assertGone(t, pid, "the daemon the script started")
}

// TestRunShutdown checks that `toolsearch run` stops its script and what it
// started when interrupted: at once on a second SIGTERM.
func TestRunShutdown(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "daemon.pid")
	cmd := toolsearch(context.Background(), "run", "daemons", "scripts/daemon.sh", "--skills", daemonSkills(t), "--timeout", "600", "--", pidFile, "wait")
	var out bytes.Buffer
	stopping := &watchLog{testLog: testLog{t: t}, want: "stopping:", seen: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = &out, stopping
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := readPid(t, pidFile)
	cmd.Process.Signal(syscall.SIGTERM)
	// Signals sent together merge into one: the second goes once the
	// first has been taken.
	select {
	case <-stopping.seen:
	case <-time.After(stopLimit):
		t.Fatal("no log line after the first SIGTERM")
	}
	cmd.Process.Signal(syscall.SIGTERM) // no grace: stop now
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		if code := cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(out.String(), "cancelled and stopped") {
			t.Errorf("exit %d (%v), output %q; want the script reported cancelled", code, err, out.String())
		}
	case <-time.After(stopLimit):
		cmd.Process.Kill()
		t.Fatal("toolsearch run did not exit after SIGTERM")
	}
	assertGone(t, pid, "the daemon the script started")
}

// TestCallShutdownGrace checks that an upstream call in flight when
// `toolsearch call` is interrupted gets the grace to finish instead of
// failing at once. The upstream is toolsearch itself, serving a skill whose
// script waits for a file.
func TestCallShutdownGrace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	started, release := filepath.Join(dir, "started"), filepath.Join(dir, "release")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"inner": map[string]any{"command": exe, "args": []string{"serve", "--skills", daemonSkills(t)},
			"env": map[string]string{runAsToolsearch: "1"}},
	}})
	writeFile(t, dir, "mcp.json", string(cfg))
	args, _ := json.Marshal(map[string]any{"skill": "daemons", "script": "scripts/wait.sh", "args": []string{started, release}})
	cmd := toolsearch(context.Background(), "call", "inner__run_skill_script", "--args", string(args),
		"--mcp-config", filepath.Join(dir, "mcp.json"))
	cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+t.TempDir())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &testLog{t: t}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	awaitFile(t, started)
	cmd.Process.Signal(syscall.SIGTERM)
	// Before the fix the call failed the moment the signal came; give it
	// a moment to show, then let the script finish within the grace.
	time.Sleep(500 * time.Millisecond)
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		if err != nil || !strings.Contains(out.String(), "released") {
			t.Errorf("exit %v, output %q; want the call's result", err, out.String())
		}
	case <-time.After(stopLimit):
		cmd.Process.Kill()
		t.Fatal("toolsearch call did not exit after SIGTERM")
	}
}

// watchLog is a testLog that also closes seen once a line holds want.
type watchLog struct {
	testLog
	want string
	seen chan struct{}
	once sync.Once
}

func (l *watchLog) Write(p []byte) (int, error) {
	if strings.Contains(string(p), l.want) {
		l.once.Do(func() { close(l.seen) })
	}
	return l.testLog.Write(p)
}
