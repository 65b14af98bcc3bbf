package problem

import (
	"fmt"
	"strings"
)

// Severity says what a problem means for loading.
type Severity int

const (
	// SeverityHint marks advice from the Agent Skills guidance (body length,
	// angle brackets in a description): never a reason to refuse anything.
	SeverityHint Severity = iota
	// SeverityWarning marks a broken rule that hosts tolerate: the skill
	// loads, but `toolsearch skills validate` fails on it.
	SeverityWarning
	// SeverityError marks a problem that keeps the skill (or tool) out of
	// the catalog.
	SeverityError
)

func (s Severity) String() string {
	switch s {
	case SeverityHint:
		return "hint"
	case SeverityWarning:
		return "warning"
	default:
		return "error"
	}
}

// MarshalText lets reports carry the severity as a word.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// A Problem is one thing wrong with a source file, located precisely enough
// for an author to fix it.
type Problem struct {
	File     string   `json:"file"`
	Line     int      `json:"line,omitempty"`   // 1-based; 0 when the problem concerns the whole file
	Column   int      `json:"column,omitempty"` // 1-based, in characters; 0 when only the line is known
	Field    string   `json:"field,omitempty"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
}

// String formats the problem as file:line:column: severity: message, the
// form editors and CI logs can jump to.
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
		if p.Column > 0 {
			fmt.Fprintf(&b, ":%d", p.Column)
		}
	}
	fmt.Fprintf(&b, ": %s: %s", p.Severity, p.Message)
	return b.String()
}

// Problems is a list of problems with helpers to ask about severities.
type Problems []Problem

// Worst returns the highest severity present, or -1 when there are none.
func (ps Problems) Worst() Severity {
	worst := Severity(-1)
	for _, p := range ps {
		worst = max(worst, p.Severity)
	}
	return worst
}

// Err returns the problems of at least the given severity as one error, or
// nil when there are none.
func (ps Problems) Err(min Severity) error {
	var lines []string
	for _, p := range ps {
		if p.Severity >= min {
			lines = append(lines, p.String())
		}
	}
	if len(lines) == 0 {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(lines, "\n"))
}

// Errors returns the problems of severity error.
func (ps Problems) Errors() Problems {
	var out Problems
	for _, p := range ps {
		if p.Severity >= SeverityError {
			out = append(out, p)
		}
	}
	return out
}
