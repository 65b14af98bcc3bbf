package server

import (
	"strings"
	"testing"
)

func TestQuoteName(t *testing.T) {
	long := strings.Repeat("a", maxEchoed) + "tail"
	for _, tt := range []struct{ in, want string }{
		{"short", `"short"`},
		{`with "quotes"`, `"with \"quotes\""`},
		{strings.Repeat("a", maxEchoed), `"` + strings.Repeat("a", maxEchoed) + `"`},
		{long, `"` + strings.Repeat("a", maxEchoed) + `"… (132 bytes, cut short here)`},
		{strings.Repeat("é", maxEchoed), `"` + strings.Repeat("é", maxEchoed/2) + `"… (256 bytes, cut short here)`},
		{strings.Repeat("a", maxEchoed-1) + "é", `"` + strings.Repeat("a", maxEchoed-1) + `"… (129 bytes, cut short here)`}, // never half a character
	} {
		if got := quoteName(tt.in); got != tt.want {
			t.Errorf("quoteName(%.40q…) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
