package procfs

import (
	"os"
	"testing"
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
