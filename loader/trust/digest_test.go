package trust

import "testing"

func TestMatchDigest(t *testing.T) {
	const d = "9f2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c0b2d4f6e8a1c3e5b7d9f1a3c5e7b9d1f"
	for _, tc := range []struct {
		given      string
		match, err bool
	}{
		{"9", false, true},
		{"9f2c4e6a8b0d", false, true}, // 48 bits: what the CLI took before
		{"9f2c4e6a8b0d1f3", false, true},
		{"9f2c4e6a8b0d1f3e", true, false},
		{"9F2C4E6A8B0D1F3E", true, false},
		{"9f2c4e6a8b0d1f3f", false, false},
		{d, true, false},
		{d + "0", false, false},
	} {
		ok, err := MatchDigest(d, tc.given)
		if ok != tc.match || (err != nil) != tc.err {
			t.Errorf("MatchDigest(%q) = %v, %v; want %v, error %v", tc.given, ok, err, tc.match, tc.err)
		}
	}
	// A digest shorter than the minimum (a test's) matches whole.
	if ok, err := MatchDigest("abc", "abc"); !ok || err != nil {
		t.Errorf("short digest whole: %v, %v", ok, err)
	}
}
