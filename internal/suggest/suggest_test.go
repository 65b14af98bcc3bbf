package suggest

import "testing"

func TestClosest(t *testing.T) {
	keys := []string{"type", "command", "args", "env", "cwd", "url", "headers"}
	commands := []string{"init", "serve", "search", "skills", "scan", "catalog", "call"}
	tests := []struct {
		word       string
		candidates []string
		want       string // "" for no suggestion
	}{
		{"comand", keys, "command"},
		{"commnad", keys, "command"}, // two letters swapped
		{"Command", keys, "command"}, // case alone
		{"header", keys, "headers"},
		{"envs", keys, "env"},
		{"urls", keys, "url"},
		{"serch", commands, "search"},
		{"catalgo", commands, "catalog"},
		{"sever", commands, "serve"},
		{"xyz", keys, ""},                      // nothing near
		{"ab", keys, ""},                       // a short word: one edit is half of it
		{"timeout", keys, ""},                  // a real word of another vocabulary
		{"", keys, ""},                         // nothing typed
		{"comand", nil, ""},                    // nothing to suggest from
		{string(make([]byte, 1000)), keys, ""}, // not a typo, and not compared
	}
	for _, tt := range tests {
		got, ok := Closest(tt.word, tt.candidates)
		if tt.want == "" && ok {
			t.Errorf("Closest(%q) = %q, want no suggestion", tt.word, got)
		}
		if tt.want != "" && (!ok || got != tt.want) {
			t.Errorf("Closest(%q) = %q, %v; want %q", tt.word, got, ok, tt.want)
		}
	}
}

func TestHint(t *testing.T) {
	if got := Hint("serch", []string{"search"}); got != ` (did you mean "search"?)` {
		t.Errorf("Hint = %q", got)
	}
	if got := Hint("zzzzzz", []string{"search"}); got != "" {
		t.Errorf("Hint = %q, want none", got)
	}
}
