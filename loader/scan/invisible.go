package scan

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// invisibleRune reports whether r renders as nothing (or moves text
// around) while still reaching the model: the characters of
// invisible-character, before the exceptions that legitimate text needs.
func invisibleRune(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\t' && r != '\n' && r != '\r'
	case r < 0x7f:
		return false
	case r <= 0x9f: // DEL and the C1 controls
		return true
	}
	switch r {
	case 0x00AD, // soft hyphen
		0x034F,                 // combining grapheme joiner
		0x115F, 0x1160, 0x3164, // Hangul fillers
		0xFFA0,         // halfwidth Hangul filler
		0x17B4, 0x17B5, // Khmer inherent vowels
		0x180E,                 // Mongolian vowel separator
		0x200B, 0x200C, 0x200D, // zero-width space, non-joiner, joiner
		0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xFEFF, // word joiner, invisible operators, zero-width no-break space
		0xFFF9, 0xFFFA, 0xFFFB: // interlinear annotation
		return true
	}
	return isBidiControl(r) || isTag(r) || isVariationSelector(r)
}

// isBidiControl reports the embeddings, overrides and isolates that reorder
// how text displays (the "Trojan Source" characters). The plain marks
// (U+200E, U+200F, U+061C) only nudge neutral characters and are left alone:
// right-to-left text uses them.
func isBidiControl(r rune) bool {
	return 0x202A <= r && r <= 0x202E || 0x2066 <= r && r <= 0x2069
}

// isTag reports the Unicode tag block, whose characters mirror ASCII
// invisibly: a model reads "U+E0049 U+E0067..." as text a person never sees.
func isTag(r rune) bool { return 0xE0000 <= r && r <= 0xE007F }

func isVariationSelector(r rune) bool {
	return 0xFE00 <= r && r <= 0xFE0F || 0xE0100 <= r && r <= 0xE01EF
}

// scanInvisible reports runs of invisible characters. Text that is all
// printable ASCII is passed over in one loop over its bytes.
func scanInvisible(fs *findings, s string) {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f || c == '\t' || c == '\n' || c == '\r' {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !invisibleRune(r) || allowedInContext(s, i, r, size) {
			i += size
			continue
		}
		start := i
		for i < len(s) {
			r, size := utf8.DecodeRuneInString(s[i:])
			if !invisibleRune(r) || allowedInContext(s, i, r, size) {
				break
			}
			i += size
		}
		fs.add(RuleInvisible, invisibleSeverity(s[start:i]), start, i, describeInvisible(s[start:i]))
		if fs.full() {
			return
		}
	}
}

// invisibleSeverity is strong for what only hides or moves text (tag
// characters, control characters and ANSI escapes, bidirectional
// overrides, variation selectors that carry a byte each) and for a run
// of zero-width characters long enough to spell a letter. The six
// zero-width characters below and the two presentation selectors, eight
// symbols, carry three bits each, so it takes three to spell one byte:
// a shorter run (a stray zero-width space from a copy and paste, U+FE0F
// twice after an emoji) hides no letter, and neither does a stray
// control character that moves nothing (a page break of a text taken
// from a PDF, a byte of a broken emoji). Those warn.
func invisibleSeverity(run string) Severity {
	if r, size := utf8.DecodeRuneInString(run); size == len(run) && inertControl(r) {
		return SeverityWarn
	}
	n := 0
	for _, r := range run {
		switch r {
		case 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD, 0xFE0E, 0xFE0F:
			n++
		default:
			return SeverityWithhold
		}
	}
	if n >= minSpellingRun {
		return SeverityWithhold
	}
	return SeverityWarn
}

// minSpellingRun is the shortest run of zero-width characters that can
// spell a byte.
const minSpellingRun = 3

// inertControl reports a control character that neither erases nor
// moves a line's text: not a backspace, an escape (ANSI sequences), the
// next-line control or the C1 sequence introducer. A form feed or a
// vertical tab starts a page or a line, as a text taken from a PDF does
// at each page.
func inertControl(r rune) bool {
	switch r {
	case 0x08, 0x1B, 0x7F, 0x85, 0x9B:
		return false
	}
	return r < 0x20 || r >= 0x80 && r <= 0x9f
}

// allowedInContext lets through the invisible characters that real text
// needs: a joiner or non-joiner between letters of the scripts that use
// them (Arabic, Persian, Indic) or inside an emoji sequence, one variation
// selector after the character it selects for, and a byte order mark at
// the very start.
func allowedInContext(s string, i int, r rune, size int) bool {
	prev, _ := utf8.DecodeLastRuneInString(s[:i])
	next, _ := utf8.DecodeRuneInString(s[i+size:])
	switch {
	case r == 0xFEFF:
		return i == 0
	case r == 0x200C || r == 0x200D:
		return (joiningScript(prev) && joiningScript(next)) || (pictograph(prev) && (pictograph(next) || next == 0x2640 || next == 0x2642))
	case 0xFE00 <= r && r <= 0xFE0F:
		// One selector after a visible character (❤️, ✔︎, the 1 of 1️⃣);
		// a second one in a row selects nothing and can only carry data.
		return i > 0 && !invisibleRune(prev) && !isVariationSelector(next)
	case 0xE0100 <= r && r <= 0xE01EF:
		// Ideographic variation sequences follow a Han character.
		return unicode.Is(unicode.Han, prev) && !isVariationSelector(next)
	}
	return false
}

// joiningScript reports letters of scripts in which zero-width joiners and
// non-joiners are part of correct spelling.
func joiningScript(r rune) bool {
	return unicode.IsLetter(r) && r > 0x024F && !unicode.Is(unicode.Latin, r) ||
		unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)
}

// pictograph reports characters that take part in emoji sequences.
func pictograph(r rune) bool {
	return r >= 0x1F000 && r <= 0x1FAFF || r >= 0x2600 && r <= 0x27BF ||
		r >= 0x1F3FB && r <= 0x1F3FF || isVariationSelector(r) || r == 0x20E3
}

// describeInvisible says what a run of invisible characters holds, and
// spells out what tag characters hide.
func describeInvisible(run string) string {
	var names []string
	seen := map[string]bool{}
	var hidden strings.Builder
	n := 0
	for _, r := range run {
		n++
		if isTag(r) && r >= 0xE0020 && r <= 0xE007E {
			hidden.WriteRune(r - 0xE0000)
		}
		name := invisibleName(r)
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	msg := fmt.Sprintf("%d invisible %s (%s)", n, pluralWord(n, "character"), strings.Join(names, ", "))
	if hidden.Len() > 0 {
		text := hidden.String()
		if len(text) > 2*maxSpanRunes {
			text = text[:2*maxSpanRunes] + "…"
		}
		msg += fmt.Sprintf(" spelling the hidden text %q", text)
	}
	return msg
}

func invisibleName(r rune) string {
	switch {
	case isTag(r):
		return "Unicode tag characters"
	case isBidiControl(r):
		return "bidirectional override"
	case isVariationSelector(r):
		return "variation selectors"
	case r == 0x1B:
		return "ANSI escape"
	case r < 0x20 || r >= 0x7f && r <= 0x9f:
		return "control characters"
	case r == 0x200B, r == 0x200C, r == 0x200D, r == 0x2060, r == 0xFEFF, r == 0x180E:
		return "zero-width characters"
	}
	return fmt.Sprintf("U+%04X", r)
}

func pluralWord(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
