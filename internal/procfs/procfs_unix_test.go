//go:build unix

package procfs

import (
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
