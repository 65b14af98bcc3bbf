package scan

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Every text an upstream controls that may reach the model (a server's
// instructions, its error messages, names and titles) goes through one
// screening path before it is shown: Screen. The definitions the scanner
// reads in full (tools, prompts, skills) are scanned where they are loaded
// and held by package loader/trust; what is screened here is shown inline,
// in a result or a note, where there is no one to approve it first.

// A Screened text is an upstream's text made fit to show the model.
type Screened struct {
	// Text is the text normalized (NFKC), with every character that hides
	// or moves text dropped (controls, format characters such as
	// zero-width spaces and bidirectional overrides, tag characters,
	// variation selectors, private use), whitespace runs made one space,
	// and clipped at the byte bound, marked " […]" where it was cut.
	Text string
	// Findings are the scanner's on Text, what would be shown: the
	// hidden characters dropped carry nothing to the model, so they do
	// not count (a definition held for review is scanned as received,
	// where they do). Withholds(Findings) says Text must not be shown.
	Findings []Finding
	// Clipped reports that the text was longer than the bound.
	Clipped bool
}

// Withheld reports whether the scanner found a strong signal in the text.
func (s Screened) Withheld() bool { return Withholds(s.Findings) }

// screenRead bounds how much of a text is read, in multiples of the bound
// shown: a server may send megabytes of spaces or hidden characters before
// its words, and every result that shows the text reads it again.
const screenRead = 16

// clipMark ends a clipped text.
const clipMark = " […]"

// Screen makes text fit to show the model, at most maxBytes bytes, and
// scans it: see Screened. field names the text in the findings.
func Screen(field, text string, maxBytes int) Screened {
	prefix := prefixOf(text, screenRead*maxBytes)
	var s Screened
	s.Text, s.Clipped = clean(prefix, maxBytes)
	s.Clipped = s.Clipped || len(prefix) < len(text)
	s.Findings = Text(field, s.Text)
	return s
}

// Clean is Screen's cleaning alone, for text that is shown but not judged
// (a name, a title): normalized, hidden characters dropped, whitespace
// collapsed, clipped at maxBytes.
func Clean(text string, maxBytes int) string {
	out, clipped := clean(prefixOf(text, screenRead*maxBytes), maxBytes)
	if !clipped && out != "" && len(text) > screenRead*maxBytes {
		out = strings.TrimRightFunc(utf8Prefix(out, maxBytes), unicode.IsSpace) + clipMark
	}
	return out
}

// clean does the cleaning of text already bounded, and reports whether it
// clipped.
func clean(text string, maxBytes int) (string, bool) {
	if !norm.NFKC.IsNormalString(text) {
		text = norm.NFKC.String(text)
	}
	var b strings.Builder
	b.Grow(min(len(text), maxBytes+len(clipMark)))
	space := false
	for _, r := range text {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case Hidden(r):
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
		if b.Len() > maxBytes {
			break
		}
	}
	out := b.String()
	if len(out) <= maxBytes {
		return out, false
	}
	return strings.TrimRightFunc(utf8Prefix(out, maxBytes), unicode.IsSpace) + clipMark, true
}

// Hidden reports the characters screening drops: every character the
// invisible-character rule names (tag characters, variation selectors,
// zero-width characters, bidirectional controls), and every other control,
// format or private-use character, and the replacement character. The
// contexts in which the scanner lets some of them pass (a joiner inside an
// emoji) do not count here: what is shown loses nothing a model needs.
func Hidden(r rune) bool {
	return invisibleRune(r) || r == utf8.RuneError || unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co)
}

// prefixOf is the longest prefix of s of at most n bytes that ends between
// characters.
func prefixOf(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return utf8Prefix(s, n)
}

func utf8Prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// DropHidden returns text without the characters Hidden reports, and
// otherwise as written: for a definition's text shown in full (a tool's
// description), whose line breaks and layout mean something, after the
// scanner judged it. Text without them is returned as it is.
func DropHidden(text string) string {
	plain := true
	for i := 0; i < len(text); i++ {
		if c := text[i]; c >= 0x7f || c < 0x20 && c != '\n' && c != '\t' && c != '\r' {
			plain = false
			break
		}
	}
	if plain || strings.IndexFunc(text, hiddenInText) < 0 {
		return text
	}
	return strings.Map(func(r rune) rune {
		if hiddenInText(r) {
			return -1
		}
		return r
	}, text)
}

// hiddenInText is Hidden but for the line breaks and tabs of a layout.
func hiddenInText(r rune) bool { return r != '\n' && r != '\t' && r != '\r' && Hidden(r) }
