package main

import (
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/loader/problem"
	"github.com/toolsearch/toolsearch/loader/trust"
)

// TestUnknownCommandSuggests: a command one typo away from one is named,
// instead of the whole usage.
func TestUnknownCommandSuggests(t *testing.T) {
	tests := []struct{ arg, want, not string }{
		{"serch", `toolsearch: unknown command "serch": did you mean toolsearch search?`, "Usage:"},
		{"catalgo", "did you mean toolsearch catalog?", "Usage:"},
		{"frobnicate", `toolsearch: unknown command "frobnicate"`, "did you mean"},
	}
	for _, tt := range tests {
		var out, errOut strings.Builder
		code := run(t.Context(), []string{tt.arg, "x"}, &out, &errOut)
		if code != 2 || !strings.Contains(errOut.String(), tt.want) || strings.Contains(errOut.String(), tt.not) {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant exit 2 and %q, without %q", tt.arg, code, errOut.String(), tt.want, tt.not)
		}
	}
}

// TestValidationSummary: a skill with warnings only is counted as one that
// loads but breaks a rule, not as invalid.
func TestValidationSummary(t *testing.T) {
	warn := problem.Problem{File: "a/SKILL.md", Severity: problem.SeverityWarning, Message: "w"}
	errp := problem.Problem{File: "b/SKILL.md", Severity: problem.SeverityError, Message: "e"}
	hint := problem.Problem{File: "c/SKILL.md", Severity: problem.SeverityHint, Message: "h"}
	tests := []struct {
		v    validation
		want string
	}{
		{validation{checked: 3}, "3 skills checked: 3 valid; 0 errors, 0 warnings, 0 hints"},
		{validation{checked: 3, warned: 1, probs: problem.Problems{warn, hint}}, "3 skills checked: 2 valid, 1 with warnings (they load, but break a rule of the Agent Skills format); 0 errors, 1 warning, 1 hint"},
		{validation{checked: 2, warned: 1, invalid: 1, probs: problem.Problems{warn, errp}}, "2 skills checked: 0 valid, 1 with warnings (they load, but break a rule of the Agent Skills format), 1 invalid (not loaded); 1 error, 1 warning, 0 hints"},
	}
	for _, tt := range tests {
		if got := tt.v.summary(); got != tt.want {
			t.Errorf("summary = %q\nwant      %q", got, tt.want)
		}
	}
}

// TestOneShotMessages: approve and scan say what happened.
func TestOneShotMessages(t *testing.T) {
	digest := strings.Repeat("ab", 32)
	tests := []struct{ got, want string }{
		{approvedLine(pending{Name: "remote__echo", Kind: "tool", Digest: digest, Reason: trust.ReasonUnapproved}),
			"approved remote__echo@" + digest[:shortDigest] + ": the model can use this tool now (it waited because it was not approved yet: every definition"},
		{approvedLine(pending{Name: "skills/pdf", Kind: "skill", Digest: digest, Reason: trust.ReasonFlagged}),
			"approved skills/pdf@" + digest[:shortDigest] + ": the model can use this skill now (it waited because it was flagged by the scanner)"},
		{scanSummary(ScanReport{Scanned: 6}), "6 definitions scanned: nothing found"},
		{scanSummary(ScanReport{Scanned: 6, Flagged: 1, Findings: make([]ScanFinding, 2)}), "6 definitions scanned: 1 definition flagged, with 2 findings"},
	}
	for _, tt := range tests {
		if !strings.HasPrefix(tt.got, tt.want) {
			t.Errorf("got  %q\nwant %q…", tt.got, tt.want)
		}
	}
}
