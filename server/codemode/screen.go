package codemode

import (
	"strings"

	"github.com/toolsearch/toolsearch/loader/scan"
)

// withheldOutput stands for printed text the scanner flags.
const withheldOutput = "(the script's output is left out: the scanner flags it as addressed to the model (%s). Print only the fields you need, not text a tool returned whole.)"

// Text is the result as the model reads it, screened as upstream text is:
// what the script printed carries tools' text, so every character that
// hides text is dropped (scan.DropHidden, which keeps the lines a script
// prints, where scan.Screen would make them one) and output the scanner
// flags as instructions to the model (scan.Text, scan.Withholds) is left
// out with a note. Its last newline goes (each print ends in one; at the
// end it tells the model nothing, and costs a token). Then, when the
// script ended early, why.
func (r Result) Text() string {
	var b strings.Builder
	b.WriteString(strings.TrimRight(screen("output", r.Output), "\n"))
	if r.Error != "" {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteString("\n")
		}
		if r.Output != "" {
			b.WriteString("[the script stopped; what it printed before is above] ")
		}
		b.WriteString(screen("error", r.Error))
	}
	return b.String()
}

// screen is text fit to show the model: its hidden characters dropped, or
// withheld.
func screen(field, text string) string {
	text = scan.DropHidden(text)
	if fs := scan.Text(field, text); scan.Withholds(fs) {
		rules := map[string]bool{}
		var names []string
		for _, f := range fs {
			if r := string(f.Rule); !rules[r] {
				rules[r] = true
				names = append(names, r)
			}
		}
		return strings.Replace(withheldOutput, "%s", strings.Join(names, ", "), 1)
	}
	return text
}
