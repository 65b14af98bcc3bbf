//go:build unix

package procfs

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

func TestReadStatSelf(t *testing.T) {
	needProc(t)
	st, err := ReadStat(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if st.PPID != os.Getppid() || st.PGRP != syscall.Getpgrp() || !st.Live() {
		t.Errorf("ReadStat(self) = %+v; want parent %d, group %d, live", st, os.Getppid(), syscall.Getpgrp())
	}
	pids, err := PIDs()
	if err != nil || !slices.Contains(pids, os.Getpid()) {
		t.Errorf("PIDs() = %d pids, %v; want this process among them", len(pids), err)
	}
	if _, err := ReadStat(1 << 30); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadStat of no process: %v; want fs.ErrNotExist", err)
	}
}

// TestReadStatChild reads a child whose command name holds ") (" and
// spaces, while it runs and once it is a zombie.
func TestReadStatChild(t *testing.T) {
	needProc(t)
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip(err)
	}
	data, err := os.ReadFile(sleep)
	if err != nil {
		t.Fatal(err)
	}
	odd := filepath.Join(t.TempDir(), "a) S 1 (b")
	if err := os.WriteFile(odd, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(odd, "0.3")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	pid := cmd.Process.Pid
	st, err := ReadStat(pid)
	if err != nil || st.PPID != os.Getpid() || st.PGRP != pid || !st.Live() {
		t.Errorf("ReadStat(child) = %+v, %v; want parent %d, group %d, live", st, err, os.Getpid(), pid)
	}
	// Not waited for, it stays a zombie once it exits.
	for deadline := time.Now().Add(10 * time.Second); st.Live() && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if st, err = ReadStat(pid); err != nil {
			t.Fatal(err)
		}
	}
	if st.State != 'Z' || st.Live() {
		t.Errorf("the exited child: %+v; want a zombie, not live", st)
	}
}

// TestArgv0: a child started under another name is seen under that name.
func TestArgv0(t *testing.T) {
	needProc(t)
	cmd := exec.Command("/bin/sh", "-c", "echo ready; read x")
	cmd.Args[0] = "named-otherwise"
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Wait() }()
	// Until the child has run its program, its command line is ours.
	if _, err := bufio.NewReader(stdout).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	if got, err := Argv0(cmd.Process.Pid); err != nil || got != "named-otherwise" {
		t.Errorf("Argv0 = %q, %v; want named-otherwise", got, err)
	}
	if _, err := Argv0(1 << 30); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Argv0 of no process: %v, want fs.ErrNotExist", err)
	}
}
