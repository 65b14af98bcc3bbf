package utf8cut

import (
	"testing"
	"unicode/utf8"
)

func TestPrefix(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exact", 5, "exact"},
		{"abcdef", 3, "abc"},
		{"aé", 2, "a"},   // é is two bytes: not split
		{"a€b", 3, "a"},  // € is three
		{"a€b", 4, "a€"}, // the cut falls after it
		{"😀x", 3, ""},    // four bytes, nothing of it fits
		{"", 0, ""},
		{"abc", 0, ""},
	}
	for _, tt := range tests {
		got := Prefix(tt.s, tt.n)
		if got != tt.want {
			t.Errorf("Prefix(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("Prefix(%q, %d) = %q is not valid UTF-8", tt.s, tt.n, got)
		}
		if b := Prefix([]byte(tt.s), tt.n); string(b) != tt.want {
			t.Errorf("Prefix([]byte(%q), %d) = %q, want %q", tt.s, tt.n, b, tt.want)
		}
	}
}
