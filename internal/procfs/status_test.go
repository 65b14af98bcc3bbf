package procfs

import (
	"os"
	"testing"
)

func TestParseStatusKB(t *testing.T) {
	status := "Name:\tsleep\nVmPeak:\t    8468 kB\nVmHWM:\t     1024 kB\nVmRSS:\t      996 kB\nThreads:\t1\n"
	tests := []struct {
		field string
		want  int64
		ok    bool
	}{
		{"VmHWM", 1024, true},
		{"VmRSS", 996, true},
		{"VmPeak", 8468, true},
		{"Threads", 0, false}, // not in kB
		{"VmSwap", 0, false},  // absent
		{"Vm", 0, false},      // a prefix of a field is not the field
	}
	for _, tt := range tests {
		got, err := parseStatusKB([]byte(status), tt.field)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("parseStatusKB(%s) = %d, %v; want %d, ok %v", tt.field, got, err, tt.want, tt.ok)
		}
	}
}

func TestStatusKBSelf(t *testing.T) {
	needProc(t)
	rss, err := StatusKB(os.Getpid(), "VmRSS")
	if err != nil || rss <= 0 {
		t.Errorf("StatusKB(self, VmRSS) = %d, %v; want a positive figure", rss, err)
	}
}

func TestRollupKBSelf(t *testing.T) {
	needProc(t)
	if _, err := os.Stat("/proc/self/smaps_rollup"); err != nil {
		t.Skip("no smaps_rollup (Linux before 4.14)")
	}
	pss, err := RollupKB(os.Getpid(), "Pss")
	if err != nil || pss <= 0 {
		t.Errorf("RollupKB(self, Pss) = %d, %v; want a positive figure", pss, err)
	}
}
