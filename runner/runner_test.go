//go:build unix

package runner

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/internal/procfs"
	"github.com/toolsearch/toolsearch/internal/supervise"
)

// skillDir holds the test scripts, one per behaviour; each says what it
// does in a comment.
const skillDir = "testdata/skill"

// terminated bounds how long a run that must end may take. It is generous
// on purpose: it only tells "ended" from "hung" on a busy machine.
const terminated = 45 * time.Second

func newRunner(t *testing.T, opts Options) *Runner {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(t.Output(), nil))
	}
	return New(opts)
}

// run runs a script of the test skill and fails the test if it is refused.
func run(t *testing.T, r *Runner, script string, args ...string) *Result {
	t.Helper()
	res, err := r.Run(t.Context(), Request{SkillDir: skillDir, Script: script, Args: args})
	if err != nil {
		t.Fatalf("Run(%s): %v", script, err)
	}
	return res
}

// pgidOf reads the "pgid N" line that some test scripts print first.
func pgidOf(t *testing.T, stdout string) int {
	t.Helper()
	line, _, _ := strings.Cut(stdout, "\n")
	pgid, err := strconv.Atoi(strings.TrimPrefix(line, "pgid "))
	if err != nil {
		t.Fatalf("no pgid line in stdout %q", stdout)
	}
	return pgid
}

// assertGroupGone fails unless no live process is left in group pgid.
// kill(-pgid, 0) returning ESRCH would be the simplest check, but where
// PID 1 does not reap orphans (as in some containers) dead grandchildren
// stay zombies in the group, so /proc is read to skip them.
func assertGroupGone(t *testing.T, pgid int) {
	t.Helper()
	if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
		return
	}
	pids, err := procfs.PIDs()
	if err != nil {
		t.Skipf("cannot check for zombies without /proc: %v", err)
	}
	for _, pid := range pids {
		st, err := procfs.ReadStat(pid)
		if err != nil {
			continue
		}
		if st.PGRP == pgid && st.State != 'Z' {
			t.Errorf("process %d of group %d still alive (state %c)", pid, pgid, st.State)
		}
	}
}

// waitForFile waits until the script under test has created path.
func waitForFile(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(terminated); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
	t.Fatalf("%s never appeared", path)
}

func TestExitCodes(t *testing.T) {
	t.Parallel()
	r := newRunner(t, Options{})
	for _, code := range []int{0, 1, 3} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			t.Parallel()
			res := run(t, r, "scripts/status.py", strconv.Itoa(code))
			if res.Stdout != "to stdout\n" || res.ExitCode != code || res.Failed() != (code != 0) {
				t.Errorf("got stdout %q, exit code %d, failed %v", res.Stdout, res.ExitCode, res.Failed())
			}
			wantStderr := ""
			if code != 0 {
				wantStderr = "to stderr\n" // kept only to explain a failure
			}
			if res.Stderr != wantStderr {
				t.Errorf("Stderr = %q, want %q", res.Stderr, wantStderr)
			}
			if text := res.Text(); strings.Contains(text, "to stderr") != (code != 0) ||
				strings.Contains(text, fmt.Sprintf("exit code %d", code)) != (code != 0) {
				t.Errorf("Text() = %q", text)
			}
		})
	}
}

func TestInterpreters(t *testing.T) {
	t.Parallel()
	r := newRunner(t, Options{})
	tests := []struct {
		script   string
		stdout   string
		exitCode int
	}{
		{"scripts/args.py", "[\"a\"]\n", 0}, // #!/usr/bin/env python3
		{"scripts/args.sh", "<a>\n", 0},     // #!/bin/bash
		{"scripts/args.js", "[\"a\"]\n", 0}, // .js, no #! line
		{"scripts/hello.mjs", "hello from skill\n", 0},
		{"scripts/plain.py", "plain python\n", 0},
		{"scripts/errexit.sh", "before\n", 1}, // #!/bin/bash -e
		{"scripts/crlf.sh", "crlf\r\n", 0},    // #!/bin/sh\r
		{"./scripts/args.sh", "<a>\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			t.Parallel()
			res := run(t, r, tt.script, "a")
			if res.Stdout != tt.stdout || res.ExitCode != tt.exitCode {
				t.Errorf("got stdout %q, exit code %d; want %q, %d\nstderr: %s",
					res.Stdout, res.ExitCode, tt.stdout, tt.exitCode, res.Stderr)
			}
		})
	}
}

func TestRunsExecutableDirectly(t *testing.T) {
	t.Parallel()
	echo, err := exec.LookPath("echo")
	if err != nil {
		t.Skip("no echo binary")
	}
	b, err := os.ReadFile(echo)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "echo"), b, 0o755); err != nil {
		t.Fatal(err)
	}
	res, err := newRunner(t, Options{}).Run(t.Context(), Request{SkillDir: dir, Script: "echo", Args: []string{"direct", "run"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stdout != "direct run\n" {
		t.Errorf("Stdout = %q", res.Stdout)
	}
}

func TestArgsVerbatim(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	r := newRunner(t, Options{WorkDir: work})
	args := []string{
		"two words", `"double"`, `'single'`, "$(touch pwned)", "`touch pwned`",
		"", "*", "a;b|c&&d > pwned", `back\slash`, "new\nline", "$HOME", "ünïcode",
	}
	for _, script := range []string{"scripts/args.py", "scripts/args.js", "scripts/args.sh"} {
		t.Run(script, func(t *testing.T) {
			res := run(t, r, script, args...)
			var got []string
			if strings.HasSuffix(script, ".sh") {
				for a := range strings.SplitSeq(strings.TrimSuffix(strings.TrimPrefix(res.Stdout, "<"), ">\n"), ">\n<") {
					got = append(got, a)
				}
			} else if err := json.Unmarshal([]byte(res.Stdout), &got); err != nil {
				t.Fatalf("stdout %q: %v", res.Stdout, err)
			}
			if !slices.Equal(got, args) {
				t.Errorf("script saw %q\nwant %q", got, args)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(work, "pwned")); err == nil {
		t.Error("an argument was run by a shell")
	}
}

func TestOutputCap(t *testing.T) {
	// Not parallel: it measures this test's allocations.
	const size = 100 << 20
	r := newRunner(t, Options{})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := run(t, r, "scripts/flood.py", strconv.Itoa(size))
	runtime.ReadMemStats(&after)

	if res.Failed() || res.StdoutBytes != size || !res.Truncated {
		t.Fatalf("got failed %v, StdoutBytes %d, Truncated %v; want a full run of %d bytes, cut",
			res.Failed(), res.StdoutBytes, res.Truncated, size)
	}
	kept, marker, _ := strings.Cut(res.Stdout, "\n")
	if kept != strings.Repeat("x", DefaultOutputLimit) {
		t.Errorf("kept %d bytes, want %d x", len(kept), DefaultOutputLimit)
	}
	want := fmt.Sprintf("[output truncated: showing the first %d of %d bytes; %d bytes left out]\n",
		DefaultOutputLimit, size, size-DefaultOutputLimit)
	if marker != want {
		t.Errorf("marker = %q, want %q", marker, want)
	}
	// Buffering the output would allocate at least its 100 MiB.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("allocated %d bytes while reading %d", alloc, size)
	}
}

func TestOutputCapKeepsRunes(t *testing.T) {
	t.Parallel()
	r := newRunner(t, Options{OutputLimit: 101}) // cuts the 51st "é" in two
	res := run(t, r, "scripts/flood.py", "1000", "é")
	if res.InvalidUTF8 || !strings.HasPrefix(res.Stdout, strings.Repeat("é", 50)+"\n[output truncated: showing the first 100 of 1000 bytes; 900 bytes left out]") {
		t.Errorf("got %q, InvalidUTF8 %v", res.Stdout, res.InvalidUTF8)
	}
}

func TestInvalidUTF8(t *testing.T) {
	t.Parallel()
	res := run(t, newRunner(t, Options{}), "scripts/badutf8.py")
	if !res.InvalidUTF8 || res.Stdout != "ok \uFFFD end\n" || !utf8.ValidString(res.Stdout) {
		t.Errorf("got %q, InvalidUTF8 %v", res.Stdout, res.InvalidUTF8)
	}
	if !strings.Contains(res.Text(), "U+FFFD") {
		t.Errorf("Text() does not mention the replacement: %q", res.Text())
	}
}

func TestStderrTail(t *testing.T) {
	t.Parallel()
	res := run(t, newRunner(t, Options{StderrTail: 100}), "scripts/stderr_flood.sh")
	if !res.Failed() || !strings.HasPrefix(res.Stderr, "…") || !strings.HasSuffix(res.Stderr, "LAST LINE\n") ||
		len(res.Stderr) > 100+len("…") {
		t.Errorf("Stderr = %q", res.Stderr)
	}
}

func TestSignal(t *testing.T) {
	t.Parallel()
	res := run(t, newRunner(t, Options{}), "scripts/selfkill.py")
	if res.Signal != "SIGKILL" || res.ExitCode != -1 || !res.Failed() || res.Stdout != "about to die\n" {
		t.Errorf("got %+v", res)
	}
	if !strings.Contains(res.Text(), "killed by SIGKILL") {
		t.Errorf("Text() = %q", res.Text())
	}
}

func TestTimeoutStopsWholeGroup(t *testing.T) {
	t.Parallel()
	r := newRunner(t, Options{MaxTimeout: time.Second})
	started := filepath.Join(t.TempDir(), "started")
	res, err := r.Run(t.Context(), Request{
		SkillDir: skillDir, Script: "scripts/hang.sh", Args: []string{started},
		Timeout: time.Hour, // clamped to MaxTimeout
	})
	if err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut || !res.Failed() || res.Timeout != time.Second || res.Signal != "SIGTERM" {
		t.Errorf("got %+v; want a timeout after 1s, ended by SIGTERM", res)
	}
	if res.Duration > terminated {
		t.Errorf("took %v", res.Duration)
	}
	if !strings.Contains(res.Text(), "timed out after 1s") {
		t.Errorf("Text() = %q", res.Text())
	}
	// The grandchild ignoring SIGTERM must have been killed too.
	assertGroupGone(t, pgidOf(t, res.Stdout))
}

func TestLeftBehindProcessesStopped(t *testing.T) {
	t.Parallel()
	res := run(t, newRunner(t, Options{}), "scripts/leave_behind.sh")
	if res.Failed() || res.Duration > terminated {
		t.Errorf("got %+v", res)
	}
	assertGroupGone(t, pgidOf(t, res.Stdout))
}

func TestEscapedProcessStopped(t *testing.T) {
	t.Parallel()
	res := run(t, newRunner(t, Options{}), "scripts/escape.sh")
	if res.Failed() || res.Duration > terminated {
		t.Errorf("got %+v", res)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(res.Stdout, "escaped ")))
	if err != nil {
		t.Fatalf("stdout %q: %v", res.Stdout, err)
	}
	if !supervise.Enabled() {
		// It left the group and nothing supervises it: stop it here.
		syscall.Kill(pid, syscall.SIGKILL)
		t.Skip("scripts are not supervised on this system")
	}
	if alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the process %d that left the group with setsid outlived the run", pid)
	}
}

// alive reports whether pid is a live process (not a zombie).
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	st, err := procfs.ReadStat(pid)
	if err != nil {
		return !os.IsNotExist(err)
	}
	return st.State != 'Z'
}

func TestCancel(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	started, release := filepath.Join(dir, "started"), filepath.Join(dir, "release")
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		waitForFile(t, started)
		cancel()
	}()
	res, err := newRunner(t, Options{}).Run(ctx, Request{
		SkillDir: skillDir, Script: "scripts/wait_for.sh", Args: []string{started, release},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Cancelled || !res.Failed() || res.TimedOut || res.Duration > terminated {
		t.Errorf("got %+v; want cancelled", res)
	}
	assertGroupGone(t, pgidOf(t, res.Stdout))
}

func TestConcurrencyLimit(t *testing.T) {
	t.Parallel()
	lock := filepath.Join(t.TempDir(), "lock")
	r := newRunner(t, Options{Concurrency: 1})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			res, err := r.Run(t.Context(), Request{SkillDir: skillDir, Script: "scripts/lock.sh", Args: []string{lock}})
			if err != nil || res.Stdout != "ok\n" {
				t.Errorf("got %v, %v; want ok (overlap means two ran at once)", res, err)
			}
		})
	}
	wg.Wait()
}

func TestCancelWhileWaiting(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := newRunner(t, Options{Concurrency: 1})
	startedA, startedB, release := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "release")

	doneA := make(chan *Result)
	go func() {
		res, err := r.Run(t.Context(), Request{SkillDir: skillDir, Script: "scripts/wait_for.sh", Args: []string{startedA, release}})
		if err != nil {
			t.Error(err)
		}
		doneA <- res
	}()
	waitForFile(t, startedA) // A holds the only slot until release exists

	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	res, err := r.Run(ctx, Request{SkillDir: skillDir, Script: "scripts/wait_for.sh", Args: []string{startedB, release}})
	if !errors.Is(err, context.DeadlineExceeded) || res != nil {
		t.Errorf("got %v, %v; want the wait for a slot to end with ctx", res, err)
	}
	if _, err := os.Stat(startedB); err == nil {
		t.Error("B ran while A held the only slot")
	}

	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if res := <-doneA; res == nil || res.Failed() {
		t.Errorf("A: %+v", res)
	}
	// The slot is free again.
	if res := run(t, r, "scripts/true.sh"); res.Failed() {
		t.Errorf("after A: %+v", res)
	}
}

func TestStdin(t *testing.T) {
	t.Parallel()
	r := newRunner(t, Options{})
	max := strings.Repeat("s", MaxStdin)
	sum := sha256.Sum256([]byte(max))
	tests := []struct {
		name, script, stdin, stdout string
	}{
		{"echoed", "scripts/cat.sh", "hello\nworld", "hello\nworld"},
		{"none", "scripts/cat.sh", "", ""},
		{"1MiB", "scripts/stdin.py", max, fmt.Sprintf("%d %s\n", MaxStdin, hex.EncodeToString(sum[:]))},
		{"unread", "scripts/true.sh", max, ""}, // must not block the runner
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := r.Run(t.Context(), Request{SkillDir: skillDir, Script: tt.script, Stdin: tt.stdin})
			if err != nil {
				t.Fatal(err)
			}
			if res.Failed() || res.Stdout != tt.stdout {
				t.Errorf("got %q, failed %v; want %q", res.Stdout, res.Failed(), tt.stdout)
			}
		})
	}
	t.Run("too large", func(t *testing.T) {
		t.Parallel()
		_, err := r.Run(t.Context(), Request{SkillDir: skillDir, Script: "scripts/cat.sh", Stdin: max + "!"})
		if !errors.Is(err, ErrStdinTooLarge) || !strings.Contains(err.Error(), "1 MiB") {
			t.Errorf("err = %v, want ErrStdinTooLarge", err)
		}
	})
}

func TestEnvironment(t *testing.T) {
	// Not parallel: it sets environment variables.
	t.Setenv("TOOLSEARCH_TEST_SECRET", "hunter2")
	t.Setenv("TOOLSEARCH_TEST_ALLOWED", "yes")
	t.Setenv("TOOLSEARCH_PREFIXED_ONE", "1")
	t.Setenv("LC_TOOLSEARCH_TEST", "C")
	work := t.TempDir()
	r := newRunner(t, Options{WorkDir: work, EnvAllow: []string{"TOOLSEARCH_TEST_ALLOWED", "TOOLSEARCH_PREFIXED_*"}})
	res, err := r.Run(t.Context(), Request{Skill: "demo", SkillDir: skillDir, Script: "scripts/env.js"})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Env map[string]string
		Cwd string
	}
	if err := json.Unmarshal([]byte(res.Stdout), &got); err != nil {
		t.Fatalf("stdout %q: %v", res.Stdout, err)
	}
	realSkill, _ := filepath.EvalSymlinks(skillDir)
	realSkill, _ = filepath.Abs(realSkill)
	realWork, _ := filepath.EvalSymlinks(work)
	want := map[string]string{
		"TOOLSEARCH_TEST_ALLOWED": "yes",
		"TOOLSEARCH_PREFIXED_ONE": "1",
		"LC_TOOLSEARCH_TEST":      "C",
		"PATH":                    os.Getenv("PATH"),
		"SKILL_DIR":               realSkill,
		"SKILL_NAME":              "demo",
	}
	for name, value := range want {
		if got.Env[name] != value {
			t.Errorf("$%s = %q, want %q", name, got.Env[name], value)
		}
	}
	if _, ok := got.Env["TOOLSEARCH_TEST_SECRET"]; ok {
		t.Error("the secret reached the script")
	}
	for name := range got.Env {
		if _, ok := want[name]; !ok && !slices.Contains([]string{"HOME", "LANG", "TMPDIR", "TZ"}, name) &&
			!strings.HasPrefix(name, "LC_") {
			t.Errorf("$%s is not in the allowlist", name)
		}
	}
	if got.Cwd != realWork {
		t.Errorf("working directory %q, want %q", got.Cwd, realWork)
	}
}

func TestDisabled(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"all", Options{Disabled: true}, "running skill scripts is turned off"},
		{"skill", Options{SkillDisabled: func(s string) bool { return s == "skill" }}, "scripts of this skill are turned off"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := newRunner(t, tt.opts).Run(t.Context(), Request{SkillDir: skillDir, Script: "scripts/true.sh"})
			if !errors.Is(err, ErrDisabled) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "turn") {
				t.Errorf("err = %v", err)
			}
		})
	}
	// Other skills still run.
	r := newRunner(t, Options{SkillDisabled: func(s string) bool { return s == "other" }})
	if res := run(t, r, "scripts/true.sh"); res.Failed() {
		t.Errorf("got %+v", res)
	}
}

// TestRefusals tries every way out of the skill folder. Its symbolic links
// are made here rather than kept in testdata, where they would point
// outside the repository.
func TestRefusals(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	skill, outside := filepath.Join(root, "skill"), filepath.Join(root, "outside")
	escaped := filepath.Join(root, "escaped") // made by the outside script if it ever runs
	for _, dir := range []string{filepath.Join(skill, "scripts", "dir"), outside} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		filepath.Join(skill, "scripts", "ok.sh"): "echo ok\n",
		filepath.Join(outside, "evil.sh"):        "touch " + escaped + "\n",
	}
	links := map[string]string{
		filepath.Join(skill, "inner.sh"):     "scripts/ok.sh",      // stays inside
		filepath.Join(skill, "out.sh"):       "../outside/evil.sh", // relative, out
		filepath.Join(skill, "abs.sh"):       outside + "/evil.sh", // absolute, out
		filepath.Join(skill, "lib"):          "../outside",         // a folder out
		filepath.Join(skill, "scripts/up"):   "..",                 // the skill folder itself
		filepath.Join(skill, "dangling.sh"):  "../outside/none.sh", // out, and missing
		filepath.Join(root, "skill-link"):    "skill",              // the skill folder via a link
		filepath.Join(skill, "scripts/dir2"): "dir",                // a folder inside
		filepath.Join(skill, "loop.sh"):      "loop.sh",            // a loop
	}
	for name, text := range files {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range links {
		if err := os.Symlink(target, name); err != nil {
			t.Fatal(err)
		}
	}

	r := newRunner(t, Options{})
	tests := []struct {
		dir, script string
		want        error // nil: it runs and prints ok
	}{
		{skill, "scripts/ok.sh", nil},
		{skill, "inner.sh", nil},
		{skill, "scripts/up/scripts/ok.sh", nil},
		{filepath.Join(root, "skill-link"), "scripts/ok.sh", nil},
		{skill, "", ErrBadPath},
		{skill, filepath.Join(outside, "evil.sh"), ErrBadPath},
		{skill, "/etc/passwd", ErrBadPath},
		{skill, "../outside/evil.sh", ErrBadPath},
		{skill, "scripts/../../outside/evil.sh", ErrBadPath},
		{skill, "scripts/../scripts/ok.sh", ErrBadPath}, // ".." is refused even when it stays inside
		{skill, "out.sh", ErrBadPath},
		{skill, "abs.sh", ErrBadPath},
		{skill, "lib/evil.sh", ErrBadPath},
		{skill, "loop.sh", ErrBadPath},
		{skill, "scripts/dir", ErrNotRegular},
		{skill, "scripts/dir2", ErrNotRegular},
		{skill, "scripts", ErrNotRegular},
		{skill, ".", ErrNotRegular},
		{skill, "missing.sh", fs.ErrNotExist},
		{skill, "dangling.sh", fs.ErrNotExist},
		{skill, "lib/missing.sh", fs.ErrNotExist},
		{skill, "scripts/ok.sh/x", fs.ErrNotExist},
		{filepath.Join(root, "no-such-skill"), "scripts/ok.sh", fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			t.Parallel()
			res, err := r.Run(t.Context(), Request{Skill: "s", SkillDir: tt.dir, Script: tt.script})
			if tt.want == nil {
				if err != nil || res.Stdout != "ok\n" {
					t.Errorf("got %v, %v; want it to run", res, err)
				}
				return
			}
			var e *Error
			if !errors.Is(err, tt.want) || !errors.As(err, &e) || e.Script != tt.script || e.Skill != "s" {
				t.Errorf("err = %v, want %v as an *Error", err, tt.want)
			}
		})
	}
	t.Cleanup(func() {
		if _, err := os.Stat(escaped); err == nil {
			t.Error("a script outside the skill folder ran")
		}
	})
}

func TestNoInterpreter(t *testing.T) {
	t.Parallel()
	r := newRunner(t, Options{})
	tests := []struct{ script, want string }{
		{"scripts/no_interp_env.sh", "interpreter toolsearch-no-such-interpreter, which is not installed"},
		{"scripts/no_interp_abs.py", "interpreter /nonexistent/bin/python9, which is not installed"},
		{"scripts/notes.txt", "cannot tell how to run it"},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			t.Parallel()
			_, err := r.Run(t.Context(), Request{SkillDir: skillDir, Script: tt.script})
			if !errors.Is(err, ErrNoInterpreter) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want ErrNoInterpreter saying %q", err, tt.want)
			}
		})
	}
}

func TestInterpreterNotInPath(t *testing.T) {
	// Not parallel: it sets PATH.
	t.Setenv("PATH", t.TempDir())
	r := newRunner(t, Options{})
	for _, script := range []string{"scripts/args.py", "scripts/plain.py"} {
		_, err := r.Run(t.Context(), Request{SkillDir: skillDir, Script: script})
		if !errors.Is(err, ErrNoInterpreter) || !strings.Contains(err.Error(), "python3") {
			t.Errorf("%s: err = %v, want ErrNoInterpreter naming python3", script, err)
		}
	}
}

func TestLogsStderr(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	var mu sync.Mutex
	r := New(Options{Logger: slog.New(slog.NewTextHandler(lockedWriter{&mu, &buf}, nil))})
	res := run(t, r, "scripts/status.py", "0")
	if res.Stderr != "" {
		t.Errorf("Stderr = %q, want it kept from the model on success", res.Stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, want := range []string{"skill=skill", "script=scripts/status.py", "exit_code=0", `stderr="to stderr\n"`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("log %q lacks %q", buf.String(), want)
		}
	}
}

type lockedWriter struct {
	mu  *sync.Mutex
	buf *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

func TestDefaults(t *testing.T) {
	t.Parallel()
	r := New(Options{})
	if o := r.opts; o.OutputLimit != 32<<10 || o.StderrTail != 4<<10 || o.DefaultTimeout != time.Minute ||
		o.MaxTimeout != 10*time.Minute || o.Concurrency != runtime.NumCPU() {
		t.Errorf("defaults: %+v", o)
	}
	if r := New(Options{MaxTimeout: time.Second}); r.opts.DefaultTimeout != time.Second {
		t.Errorf("DefaultTimeout %v not clamped to MaxTimeout", r.opts.DefaultTimeout)
	}
}

// startWaiting starts wait_for.sh, which waits until its release file
// exists, and returns once it runs, with the channel its result comes on.
func startWaiting(t *testing.T, r *Runner, ctx context.Context) (release string, done <-chan *Result) {
	t.Helper()
	dir := t.TempDir()
	started, release := filepath.Join(dir, "started"), filepath.Join(dir, "release")
	results := make(chan *Result, 1)
	go func() {
		res, err := r.Run(ctx, Request{SkillDir: skillDir, Script: "scripts/wait_for.sh", Args: []string{started, release}})
		if err != nil {
			t.Error(err)
		}
		results <- res
	}()
	waitForFile(t, started)
	return release, results
}

func TestShutdownLetsRunsFinish(t *testing.T) {
	t.Parallel()
	r := newRunner(t, Options{})
	release, done := startWaiting(t, r, t.Context())
	shut := make(chan error, 1)
	go func() { shut <- r.Shutdown(context.Background()) }()

	// Shutdown has begun once new runs are refused; the running one goes on.
	for {
		_, err := r.Run(t.Context(), Request{SkillDir: skillDir, Script: "scripts/true.sh"})
		if errors.Is(err, ErrShutDown) {
			if !strings.Contains(err.Error(), "shutting down") {
				t.Errorf("refusal: %v", err)
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	select {
	case err := <-shut:
		t.Fatalf("Shutdown returned %v while a script ran", err)
	default:
	}
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if res := <-done; res == nil || res.Failed() {
		t.Errorf("the running script: %+v; want it to finish", res)
	}
	if err := <-shut; err != nil {
		t.Errorf("Shutdown: %v", err)
	}
}

func TestShutdownStopsRunsAfterGrace(t *testing.T) {
	t.Parallel()
	r := newRunner(t, Options{Concurrency: 1})
	_, done := startWaiting(t, r, t.Context())
	// A second run waits for the only slot; Shutdown turns it away.
	waiting := make(chan error, 1)
	go func() {
		_, err := r.Run(t.Context(), Request{SkillDir: skillDir, Script: "scripts/true.sh"})
		waiting <- err
	}()

	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	if err := r.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Shutdown = %v; want the grace to run out", err)
	}
	res := <-done
	if res == nil || !res.Cancelled || !res.Failed() {
		t.Fatalf("the running script: %+v; want it cancelled", res)
	}
	assertGroupGone(t, pgidOf(t, res.Stdout))
	if err := <-waiting; !errors.Is(err, ErrShutDown) {
		t.Errorf("the waiting run: %v; want ErrShutDown", err)
	}
	// Once shut down, a Runner stays so, and Shutdown returns at once.
	if err := r.Shutdown(context.Background()); err != nil {
		t.Errorf("second Shutdown: %v", err)
	}
}

// TestShutdownStopsDaemons checks that stopping a script at shutdown also
// stops what it started with setsid.
func TestShutdownStopsDaemons(t *testing.T) {
	t.Parallel()
	if !supervise.Enabled() {
		t.Skip("scripts are not supervised on this system")
	}
	r := newRunner(t, Options{})
	pidFile := filepath.Join(t.TempDir(), "daemon.pid")
	done := make(chan *Result, 1)
	go func() {
		res, err := r.Run(t.Context(), Request{SkillDir: skillDir, Script: "scripts/daemon.sh", Args: []string{pidFile, "wait"}})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	waitForFile(t, pidFile)
	data, _ := os.ReadFile(pidFile)
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel() // no grace: stop at once
	r.Shutdown(ctx)
	if res := <-done; res == nil || !res.Cancelled {
		t.Errorf("got %+v; want cancelled", res)
	}
	if alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the daemon %d outlived the shutdown", pid)
	}
}

// TestRefusalLogBounded checks that a refused script path, which the model
// chose, reaches the log cut short.
func TestRefusalLogBounded(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	var mu sync.Mutex
	r := New(Options{Logger: slog.New(slog.NewTextHandler(lockedWriter{&mu, &buf}, nil))})
	long := "scripts/" + strings.Repeat("x", 1<<20)
	if _, err := r.Run(t.Context(), Request{SkillDir: skillDir, Script: long}); err == nil {
		t.Fatal("a missing script ran")
	}
	mu.Lock()
	defer mu.Unlock()
	if n := buf.Len(); n > 2048 || !strings.Contains(buf.String(), "skill script refused") {
		t.Errorf("the refusal took %d bytes of log: %.300s", n, buf.String())
	}
}

// TestNestedSkillScriptsRefused checks that a script in the folder of a
// nested skill runs only as that skill's: not through the enclosing skill,
// however the path reaches it.
func TestNestedSkillScriptsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for path, content := range map[string]string{
		"SKILL.md":                    "gamma",
		"scripts/own.sh":              "#!/bin/sh\necho gamma\n",
		"sub/inner/SKILL.md":          "inner",
		"sub/inner/scripts/x.sh":      "#!/bin/sh\necho inner\n",
		"sub/inner/deep/SKILL.md":     "deep",
		"sub/inner/deep/scripts/y.sh": "#!/bin/sh\necho deep\n",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, path)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, path), []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../sub/inner/scripts/x.sh", filepath.Join(dir, "scripts/link.sh")); err != nil {
		t.Fatal(err)
	}
	nested := map[string]string{"sub/inner": "inner", "sub/inner/deep": ""}
	r := newRunner(t, Options{})
	for _, tt := range []struct {
		script, want string
	}{
		{"sub/inner/scripts/x.sh", `scripts/x.sh belongs to the skill inner, nested in this one in sub/inner: run it as skill "inner", script "scripts/x.sh"`},
		{"scripts/link.sh", `belongs to the skill inner`},
		{"sub/inner/deep/scripts/y.sh", `nested in this one in sub/inner/deep, which is not served`},
	} {
		_, err := r.Run(t.Context(), Request{Skill: "gamma", SkillDir: dir, Script: tt.script, Nested: nested})
		if !errors.Is(err, ErrNestedSkill) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v; want ErrNestedSkill saying %q", tt.script, err, tt.want)
		}
	}
	if res, err := r.Run(t.Context(), Request{Skill: "gamma", SkillDir: dir, Script: "scripts/own.sh", Nested: nested}); err != nil || res.Stdout != "gamma\n" {
		t.Errorf("the skill's own script: %v, %v", res, err)
	}
	// The nested skill runs its own scripts.
	if res, err := r.Run(t.Context(), Request{Skill: "inner", SkillDir: filepath.Join(dir, "sub/inner"), Script: "scripts/x.sh", Nested: map[string]string{"deep": ""}}); err != nil || res.Stdout != "inner\n" {
		t.Errorf("the nested skill's own script: %v, %v", res, err)
	}
}
