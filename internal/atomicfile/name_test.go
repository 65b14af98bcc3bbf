package atomicfile

import "testing"

func TestNamePart(t *testing.T) {
	tests := map[string]string{
		"github":       "github",
		"my.server-1_": "my.server-1_",
		"a/b\\c":       "a_b_c",
		"a*b?[c]":      "a_b__c_",
		"café":         "caf_",
		"":             "",
	}
	for in, want := range tests {
		if got := NamePart(in); got != want {
			t.Errorf("NamePart(%q) = %q, want %q", in, got, want)
		}
	}
}
