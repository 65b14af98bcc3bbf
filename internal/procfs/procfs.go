// Package procfs reads what toolsearch needs of Linux's /proc to stop
// processes: which processes there are, and of each its state, parent and
// process group; and, for the benchmarks, a process's memory figures.
// Where there is no /proc its functions return errors, and callers fall
// back on what kill(2) tells them.
package procfs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
)

// A Stat is the part of /proc/PID/stat that says where a process stands.
type Stat struct {
	State byte // R running, S sleeping, D waiting on the disk, Z zombie, X dead, …
	PPID  int  // its parent
	PGRP  int  // its process group
}

// Live reports whether the process runs: it is neither a zombie nor dead.
// kill(2) counts zombies too, and where PID 1 does not reap orphans (some
// containers) a process that has died stays a zombie for good.
func (s Stat) Live() bool { return s.State != 'Z' && s.State != 'X' }

// ReadStat reads /proc/PID/stat. An error that wraps fs.ErrNotExist means
// there is no such process, or no /proc.
func ReadStat(pid int) (Stat, error) {
	name := "/proc/" + strconv.Itoa(pid) + "/stat"
	b, err := os.ReadFile(name)
	if err != nil {
		return Stat{}, err
	}
	st, err := parseStat(b)
	if err != nil {
		return Stat{}, fmt.Errorf("%s: %w", name, err)
	}
	return st, nil
}

// parseStat reads the fields of Stat from the text of a stat file.
func parseStat(b []byte) (Stat, error) {
	// The command name, in parentheses, may itself hold spaces and ")":
	// the fields that follow start after the last ")".
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return Stat{}, errors.New("no command name")
	}
	f := bytes.Fields(b[i+1:]) // state, ppid, pgrp, ...
	if len(f) < 3 || len(f[0]) != 1 {
		return Stat{}, errors.New("too few fields after the command name")
	}
	ppid, err := strconv.Atoi(string(f[1]))
	if err != nil {
		return Stat{}, fmt.Errorf("parent: %w", err)
	}
	pgrp, err := strconv.Atoi(string(f[2]))
	if err != nil {
		return Stat{}, fmt.Errorf("process group: %w", err)
	}
	return Stat{State: f[0][0], PPID: ppid, PGRP: pgrp}, nil
}

// PIDs lists the processes in /proc.
func PIDs() ([]int, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	pids := make([]int, 0, len(entries))
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids, nil
}
