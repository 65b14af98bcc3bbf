package main

import (
	"bufio"
	"errors"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/loader/scan"
)

// TestFlaggedConsent: what approve does with a definition the scanner
// flagged, by whether a person is at a terminal, what they type and
// whether --yes-flagged was given. A definition not flagged is approved
// as before, unasked.
func TestFlaggedConsent(t *testing.T) {
	flagged := pending{Name: "calc__add", Kind: "tool", Reason: "flagged by the scanner",
		Found: []scan.Finding{{Rule: "secret-path", Field: "description", Message: "a reference to SSH keys", Span: `"~/.ssh/id_rsa"`}}}
	clean := pending{Name: "calc__sub", Kind: "tool", Reason: "new"}
	for _, tc := range []struct {
		name      string
		yes, tty  bool
		typed     string
		approved  string
		refusal   string
		questions int
	}{
		{"no terminal", false, false, "calc__add\n", "calc__sub", "calc__add was flagged by the scanner (secret-path) and is not approved: read `toolsearch review calc__add`, then approve it from a terminal, which asks you to confirm, or add --yes-flagged", 0},
		{"no terminal, --yes-flagged", true, false, "", "calc__add calc__sub", "", 0},
		{"a terminal, the name typed", false, true, "calc__add\n", "calc__add calc__sub", "", 1},
		{"a terminal, yes typed", false, true, "y\n", "calc__sub", "its name was not typed", 1},
		{"a terminal, nothing typed", false, true, "", "calc__sub", "its name was not typed", 1},
		{"a terminal that never ends a line", false, true, strings.Repeat("x", 3*maxAnswer) + "calc__add\n", "calc__sub", "its name was not typed", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var prompt strings.Builder
			c := flaggedConsent{yes: tc.yes, terminal: tc.tty, in: bufio.NewReader(strings.NewReader(tc.typed)), prompt: &prompt,
				diff: func(pending) string { return "+  \"description\": \"Read ~/.ssh/id_rsa\"\n" }}
			ok, refused := c.screen([]pending{flagged, clean})
			var names []string
			for _, p := range ok {
				names = append(names, p.Name)
			}
			if got := strings.Join(names, " "); got != tc.approved {
				t.Errorf("approved %q, want %q", got, tc.approved)
			}
			if err := errors.Join(refused...); tc.refusal == "" && err != nil || tc.refusal != "" && (err == nil || !strings.Contains(err.Error(), tc.refusal)) {
				t.Errorf("refused: %v, want %q", err, tc.refusal)
			}
			asked := strings.Count(prompt.String(), "Type calc__add to approve it anyway")
			if asked != tc.questions {
				t.Errorf("asked %d times, want %d:\n%s", asked, tc.questions, prompt.String())
			}
			if asked > 0 && (!strings.Contains(prompt.String(), `secret-path: a reference to SSH keys: "~/.ssh/id_rsa"`) || !strings.Contains(prompt.String(), "Read ~/.ssh/id_rsa")) {
				t.Errorf("the question comes without the findings and the change:\n%s", prompt.String())
			}
		})
	}
}
