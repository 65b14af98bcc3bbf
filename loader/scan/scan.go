package scan

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// A Rule names what a finding is about.
type Rule string

// The rules, described in the package documentation.
const (
	RuleInvisible  Rule = "invisible-character"
	RuleHidden     Rule = "hidden-markup"
	RuleDirective  Rule = "model-directive"
	RuleSecretPath Rule = "secret-path"
	RuleExfiltrate Rule = "exfiltration"
	RuleShadowing  Rule = "shadowing"
	RuleDisguise   Rule = "disguise"
	RulePromotion  Rule = "self-promotion"
	RuleUnscanned  Rule = "unscanned"
	// RuleResemblance is a definition that, read as a whole, resembles
	// the corpora's attacks (resemblance.go).
	RuleResemblance Rule = "resemblance"
)

// A Severity says what a finding means for its definition: strong signals
// withhold it until a person approves it, weak ones alone only annotate it.
// Withholding on every signal made users approve everything.
type Severity string

const (
	SeverityWithhold Severity = "withhold"
	SeverityWarn     Severity = "warn"
)

// Withholds reports whether any finding is a strong signal.
func Withholds(fs []Finding) bool {
	for _, f := range fs {
		if f.Severity != SeverityWarn {
			return true
		}
	}
	return false
}

// Bounds on what a scan reports: a definition that trips a rule a hundred
// times needs review as much as one that trips it once.
const (
	maxSpanRunes = 80 // of the offending text shown in a finding
	maxPerField  = 4  // findings kept per rule and field
	maxPerText   = 32 // findings kept per definition
)

// Version numbers the rules: it changes whenever a rule does, so that what
// an earlier version found clean is scanned again.
const Version = 27

// Rules lists every rule, in the order findings are reported.
var Rules = []Rule{RuleInvisible, RuleHidden, RuleDirective, RuleSecretPath, RuleExfiltrate, RuleShadowing, RuleDisguise, RulePromotion, RuleUnscanned, RuleResemblance}

// A Finding is one thing a rule flagged.
type Finding struct {
	Rule Rule `json:"rule"`
	// Severity is withhold for a strong signal, warn for a weak one.
	Severity Severity `json:"severity"`
	// Field is where the text sits in its definition: "description",
	// "inputSchema.properties.note.description", "arguments[0].description",
	// or a file name for a skill.
	Field string `json:"field"`
	// Line is the 1-based line of a file, for skills; 0 otherwise.
	Line int `json:"line,omitempty"`
	// Start and End are byte offsets of the offending span in the field's
	// text (in the file, for skills).
	Start int `json:"start"`
	End   int `json:"end"`
	// Span is the offending text, quoted so that invisible characters show
	// as escapes, and cut short when long.
	Span string `json:"span"`
	// Message says what the span is, in a sentence.
	Message string `json:"message"`

	bufStart, bufEnd int // the span in the scanned buffer
}

// String formats the finding as field[start:end]: rule: message: span,
// or file:line: rule: message: span for a file.
func (f Finding) String() string {
	where := fmt.Sprintf("%s[%d:%d]", f.Field, f.Start, f.End)
	if f.Line > 0 {
		where = fmt.Sprintf("%s:%d", f.Field, f.Line)
	}
	if f.Severity == SeverityWarn {
		return fmt.Sprintf("%s: %s (warning): %s: %s", where, f.Rule, f.Message, f.Span)
	}
	return fmt.Sprintf("%s: %s: %s: %s", where, f.Rule, f.Message, f.Span)
}

// Text scans one piece of text with every rule but shadowing. field names
// it in the findings.
func Text(field, text string) []Finding {
	d := &doc{}
	d.add(field, text)
	return d.scan(nil, kindText)
}

// escapeRune writes r as a Go escape.
func escapeRune(r rune) string {
	if r > 0xFFFF {
		return fmt.Sprintf(`\U%08X`, r)
	}
	return fmt.Sprintf(`\u%04X`, r)
}

// Reveal returns s with every character a reader would not see (controls
// other than tab and line breaks, format characters, the tag block) written
// as a \u or \U escape, so that text from a definition can be shown on a
// terminal or a page without hiding anything or moving the cursor.
func Reveal(s string) string {
	if strings.IndexFunc(s, unseen) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unseen(r) {
			b.WriteString(escapeRune(r))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// unseen reports the characters Reveal escapes.
func unseen(r rune) bool {
	return r != '\n' && r != '\t' && (invisibleRune(r) || r == utf8.RuneError)
}
