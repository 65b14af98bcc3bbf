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

func TestParseStat(t *testing.T) {
	tests := []struct {
		stat string
		want Stat
		ok   bool
	}{
		{"4242 (sleep) S 4200 4242 4200 0 -1 4194304 95 0 0 0\n", Stat{'S', 4200, 4242}, true},
		// A command named "a) S 1 1 (b": only the last ")" ends it.
		{"77 (a) S 1 1 (b) Z 12 34 34 0\n", Stat{'Z', 12, 34}, true},
		{"5 (with space) R 1 5 5", Stat{'R', 1, 5}, true},
		{"5 no name R 1 5 5", Stat{}, false},
		{"5 (x) R 1", Stat{}, false},
		{"5 (x) RS 1 5", Stat{}, false},
		{"5 (x) R one 5", Stat{}, false},
		{"5 (x) R 1 five", Stat{}, false},
		{"", Stat{}, false},
	}
	for _, tt := range tests {
		got, err := parseStat([]byte(tt.stat))
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("parseStat(%q) = %+v, %v; want %+v, ok %v", tt.stat, got, err, tt.want, tt.ok)
		}
	}
}

// needProc skips tests that need Linux's /proc.
func needProc(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skipf("no /proc: %v", err)
	}
}

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
