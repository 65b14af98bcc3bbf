package main

import "testing"

func TestGCPercent(t *testing.T) {
	const mb = 1 << 20
	tests := []struct {
		live uint64
		want int
	}{
		{0, 100},
		{20 * mb, 100},  // a usual catalog: Go's default
		{64 * mb, 100},  // the headroom exactly
		{128 * mb, 50},  // twice the headroom: half the default
		{160 * mb, 40},  // 100,000 tools
		{1024 * mb, 25}, // the floor: still in proportion
		{1 << 40, 25},   // no overflow
	}
	for _, tt := range tests {
		if got := gcPercent(tt.live); got != tt.want {
			t.Errorf("gcPercent(%d MB) = %d, want %d", tt.live/mb, got, tt.want)
		}
	}
}
