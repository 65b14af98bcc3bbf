package principal

import (
	"context"
	"strings"
	"testing"
)

func TestFromDefaultsToOperator(t *testing.T) {
	ctx := context.Background()
	if got := From(ctx); got != Operator || Named(ctx) {
		t.Fatalf("From(empty) = %q, Named %v; want %q, false", got, Named(ctx), Operator)
	}
	ctx = With(ctx, "alice")
	if got := From(ctx); got != "alice" || !Named(ctx) {
		t.Fatalf("From = %q, Named %v; want alice, true", got, Named(ctx))
	}
	if got := From(With(ctx, "")); got != "alice" {
		t.Fatalf("an empty name replaced the principal: %q", got)
	}
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"alice", true},
		{"alice@example.com", true},
		{"Ada Lovelace", true},
		{"00u1abcd", true},
		{"", false},
		{strings.Repeat("a", MaxLen+1), false},
		{"bad\xff", false},
		{"al\nice", false},
		{"al\u200bice", false},
		{"al\tice", false},
	} {
		if err := Check(tc.name); (err == nil) != tc.ok {
			t.Errorf("Check(%q) = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}
