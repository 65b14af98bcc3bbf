package procfs

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// StatusKB reads a figure given in kB from /proc/PID/status, such as VmRSS
// (the resident memory now) or VmHWM (its peak), for the benchmarks that
// report a process's memory.
func StatusKB(pid int, field string) (int64, error) {
	return fileKB("/proc/"+strconv.Itoa(pid)+"/status", field)
}

// fileKB reads the "Field: N kB" line of a /proc file.
func fileKB(name, field string) (int64, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return 0, err
	}
	kb, err := parseStatusKB(b, field)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	return kb, nil
}

// parseStatusKB finds the line "FIELD:   1234 kB" of a status file.
func parseStatusKB(b []byte, field string) (int64, error) {
	for line := range bytes.Lines(b) {
		v, ok := bytes.CutPrefix(line, []byte(field+":"))
		if !ok {
			continue
		}
		v, ok = bytes.CutSuffix(bytes.TrimSpace(v), []byte(" kB"))
		if !ok {
			return 0, fmt.Errorf("%s is not in kB", field)
		}
		return strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
	}
	return 0, fmt.Errorf("no %s", field)
}

// RollupKB reads a figure given in kB from /proc/PID/smaps_rollup, such as
// Pss (the resident memory with each shared page divided among the
// processes that map it), for the benchmarks that add up a process tree.
func RollupKB(pid int, field string) (int64, error) {
	return fileKB("/proc/"+strconv.Itoa(pid)+"/smaps_rollup", field)
}
