package contain

import "testing"

// containCase is one question asked of Within and Inside.
type containCase struct {
	dir, path      string
	within, inside bool
}

// checkCases asks each case's question of both functions.
func checkCases(t *testing.T, cases []containCase) {
	t.Helper()
	for _, c := range cases {
		if got := Within(c.dir, c.path); got != c.within {
			t.Errorf("Within(%q, %q) = %v, want %v", c.dir, c.path, got, c.within)
		}
		if got := Inside(c.dir, c.path); got != c.inside {
			t.Errorf("Inside(%q, %q) = %v, want %v", c.dir, c.path, got, c.inside)
		}
	}
}
