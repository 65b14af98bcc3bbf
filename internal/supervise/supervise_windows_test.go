package supervise

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/windows"

	"github.com/toolsearch/toolsearch/internal/atomicfile/atomicfiletest"
)

// The test binary plays the command (SUPERVISE_TEST_CHILD: start a
// grandchild, write its pid to the file named, and wait) and the
// grandchild (SUPERVISE_TEST_SLEEP: wait).
func TestMain(m *testing.M) {
	Init()
	if pidFile := os.Getenv("SUPERVISE_TEST_CHILD"); pidFile != "" {
		exe, _ := os.Executable()
		g := exec.Command(exe)
		g.Env = append(os.Environ(), "SUPERVISE_TEST_CHILD=", "SUPERVISE_TEST_SLEEP=1")
		if err := g.Start(); err != nil {
			panic(err)
		}
		os.WriteFile(pidFile+".tmp", []byte(strconv.Itoa(g.Process.Pid)), 0o644)
		os.Rename(pidFile+".tmp", pidFile)
		time.Sleep(time.Hour)
	}
	if os.Getenv("SUPERVISE_TEST_SLEEP") != "" {
		time.Sleep(time.Hour)
	}
	os.Exit(m.Run())
}

// running reports whether pid is a process that has not exited.
func running(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	return windows.GetExitCodeProcess(h, &code) == nil && code == 259 // STILL_ACTIVE
}

// What the command started is in its job and ends with it, whether it is
// stopped, cleaned up after, or killed.
func TestJobEndsGrandchild(t *testing.T) {
	for _, end := range []string{"stop", "cleanup", "kill"} {
		t.Run(end, func(t *testing.T) {
			pidFile := filepath.Join(atomicfiletest.TempDir(t), "pid")
			exe, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(exe)
			cmd.Env = append(os.Environ(), "SUPERVISE_TEST_CHILD="+pidFile)
			sup, err := Wrap(cmd, Options{})
			if err != nil {
				t.Fatal(err)
			}
			err = cmd.Start()
			if serr := sup.Started(); err == nil {
				err = serr
			}
			if err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			var pid int
			for deadline := time.Now().Add(30 * time.Second); pid == 0; time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					sup.Kill()
					t.Fatal("the command never started its grandchild")
				}
				b, _ := os.ReadFile(pidFile)
				pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			}
			if !running(pid) {
				// Else the check below could not fail: running is false too for a
				// process it cannot open.
				sup.Kill()
				t.Fatalf("the grandchild %d is not seen running before its job ends", pid)
			}
			switch end {
			case "stop":
				sup.Stop(exited)
			case "cleanup":
				cmd.Process.Kill()
				<-exited
				sup.Cleanup()
			case "kill":
				sup.Kill()
				<-exited
			}
			for deadline := time.Now().Add(30 * time.Second); running(pid); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the grandchild %d outlived its job", pid)
				}
			}
		})
	}
}

// A command started with Start is in a job too, and Kill ends what it
// started.
func TestJobEndsGrandchildOfProcess(t *testing.T) {
	pidFile := filepath.Join(atomicfiletest.TempDir(t), "pid")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "SUPERVISE_TEST_CHILD="+pidFile)
	p, err := Start(cmd, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	for deadline := time.Now().Add(30 * time.Second); pid == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			p.Kill()
			t.Fatal("the command never started its grandchild")
		}
		b, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	if !running(pid) {
		p.Kill()
		t.Fatalf("the grandchild %d is not seen running before its job ends", pid)
	}
	if err := p.Terminate(); err == nil {
		t.Error("Terminate succeeded: Windows has no SIGTERM")
	}
	p.Kill()
	p.Wait()
	for deadline := time.Now().Add(30 * time.Second); running(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the grandchild %d outlived its job", pid)
		}
	}
}
