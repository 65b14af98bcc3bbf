package main

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/toolsearch/toolsearch/loader/scan"
)

// yesFlaggedFlag approves what the scanner flagged without asking. Its
// name is long on purpose: a person types it, having read the review; a
// model told by a poisoned server to run `toolsearch approve` from a shell
// without a terminal is refused without it.
const yesFlaggedFlag = "yes-flagged"

// flaggedConsent decides which of the definitions chosen for approval may
// be approved when the scanner flagged them: on a terminal the person is
// shown the findings and the change and types the name of each; without
// one, only --yes-flagged approves them. Definitions not flagged pass.
type flaggedConsent struct {
	yes      bool                 // --yes-flagged
	terminal bool                 // stdin is a terminal: ask
	in       *bufio.Reader        // the person's answers
	prompt   io.Writer            // the findings, the change and the question: stderr
	diff     func(pending) string // a held tool's change
}

// maxAnswer bounds what is read of one answer: a name, typed.
const maxAnswer = 4 << 10

// screen returns the definitions of chosen that may be approved, and why
// each of the others is not.
func (c flaggedConsent) screen(chosen []pending) ([]pending, []error) {
	var ok []pending
	var refused []error
	for _, p := range chosen {
		switch {
		case len(p.Found) == 0 || c.yes:
			ok = append(ok, p)
		case !c.terminal:
			refused = append(refused, fmt.Errorf("%s was flagged by the scanner (%s) and is not approved: read `toolsearch review %s`, then approve it from a terminal, which asks you to confirm, or add --%s", p.Name, findingRules(p.Found), p.Name, yesFlaggedFlag))
		case c.ask(p):
			ok = append(ok, p)
		default:
			refused = append(refused, fmt.Errorf("%s was flagged by the scanner and is not approved: its name was not typed", p.Name))
		}
	}
	return ok, refused
}

// ask shows the person what the scanner found in p and its change, and
// reports whether they typed its name to approve it.
func (c flaggedConsent) ask(p pending) bool {
	fmt.Fprintf(c.prompt, "%s (%s) was flagged by the scanner: %s\n", p.Name, p.Kind, p.Reason)
	for _, f := range p.Found {
		fmt.Fprintf(c.prompt, "  %s\n", scan.Reveal(f.String()))
	}
	if d := c.diff(p); d != "" {
		fmt.Fprint(c.prompt, d)
	}
	fmt.Fprintf(c.prompt, "Type %s to approve it anyway (anything else leaves it held): ", p.Name)
	return readAnswer(c.in) == p.Name
}

// readAnswer reads one line, at most maxAnswer bytes of it: stdin may be
// a device that never ends a line.
func readAnswer(r *bufio.Reader) string {
	var b []byte
	for len(b) < maxAnswer {
		ch, err := r.ReadByte()
		if err != nil || ch == '\n' {
			break
		}
		b = append(b, ch)
	}
	return strings.TrimSpace(string(b))
}

// findingRules names the rules of findings, each once.
func findingRules(found []scan.Finding) string {
	var rules []string
	for _, f := range found {
		if r := string(f.Rule); !slices.Contains(rules, r) {
			rules = append(rules, r)
		}
	}
	return strings.Join(rules, ", ")
}
