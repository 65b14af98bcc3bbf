package scan

import (
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/text/unicode/norm"
)

// The rules read a normalized form of the text, so that a directive
// written in look-alike letters (Cyrillic "іgnоre"), fullwidth forms
// ("ｉｇｎｏｒｅ"), with invisible characters inside its words, or spelled
// in tag characters reads as the directive it is. Each character outside
// ASCII is brought to its NFKC form, lowercased, and then to its UTS #39
// confusable skeleton when that is ASCII; ASCII itself is left as written
// (the skeleton maps "I" and "1" to "l" and would garble plain English).
// Invisible characters are dropped, and tag characters become the ASCII
// they mirror. Offsets of findings are mapped back to the text as written.

// A normalized text, with where each of its bytes came from.
type normalized struct {
	text string
	// from and to are, for each byte of text, the span of the text as
	// written that produced it; nil when text is the text as written.
	from, to []int32
}

// back maps a span of the normalized text to the text as written.
func (n *normalized) back(start, end int) (int, int) {
	if n.from == nil {
		return start, end
	}
	if start >= len(n.from) {
		last := int(n.to[len(n.to)-1])
		return last, last
	}
	if end <= start {
		return int(n.from[start]), int(n.from[start])
	}
	return int(n.from[start]), int(n.to[end-1])
}

// normalize returns the normalized form of s. Text of printable ASCII and
// line breaks, most of it, is returned as it is.
func normalize(s string) normalized { return normalizeOffsets(s, true) }

// normalizedText is the normalized form of s without the offsets that map
// it back, which take eight bytes for each byte of the text.
func normalizedText(s string) string { return normalizeOffsets(s, false).text }

func normalizeOffsets(s string, offsets bool) normalized {
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
			plain = false
			break
		}
	}
	if plain {
		return normalized{text: s}
	}
	var b strings.Builder
	b.Grow(len(s))
	var from, to []int32
	if offsets {
		from, to = make([]int32, 0, len(s)), make([]int32, 0, len(s))
	}
	emit := func(out string, start, end int) {
		b.WriteString(out)
		if offsets {
			for range len(out) {
				from, to = append(from, int32(start)), append(to, int32(end))
			}
		}
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r < 0x80 && !invisibleRune(r):
			emit(s[i:i+size], i, i+size)
		case isTag(r) && r >= 0xE0020 && r <= 0xE007E:
			emit(string(r-0xE0000), i, i+size)
		case invisibleRune(r):
			// dropped: it joins what it split
		default:
			emit(foldRune(r), i, i+size)
		}
		i += size
	}
	return normalized{text: b.String(), from: from, to: to}
}

// folded caches foldRune: a text outside ASCII repeats its few characters,
// and the skeleton of each costs allocations.
// Its size is bounded: a hostile text may use every code point.
var (
	folded      sync.Map // rune -> string
	foldedCount atomic.Int32
)

const maxFolded = 8192

// foldRune is a character outside ASCII in the form the rules read.
func foldRune(r rune) string {
	if s, ok := folded.Load(r); ok {
		return s.(string)
	}
	s := foldRuneUncached(r)
	if foldedCount.Load() < maxFolded {
		foldedCount.Add(1)
		folded.Store(r, s)
	}
	return s
}

func foldRuneUncached(r rune) string {
	if q, ok := typographicQuotes[r]; ok {
		return q
	}
	k := norm.NFKC.String(string(r))
	var out strings.Builder
	for _, c := range k {
		if c < 0x80 {
			out.WriteRune(c)
			continue
		}
		c = unicode.ToLower(c)
		if sk := asciiSkeleton(c); sk != "" {
			out.WriteString(sk)
			continue
		}
		out.WriteRune(c)
	}
	return out.String()
}

// typographicQuotes are the apostrophes and quotation marks editors put in
// for ASCII ones: the rules are written with ASCII ("don't", "the key"),
// and a text typed on a phone or pasted from a document would read as
// other words ("Don’t attach secrets" as no negation at all).
var typographicQuotes = map[rune]string{
	'\u2018': "'", '\u2019': "'", '\u201A': "'", '\u201B': "'", '\u02BC': "'", '\u2032': "'",
	'\u201C': `"`, '\u201D': `"`, '\u201E': `"`, '\u201F': `"`, '\u2033': `"`,
}

// asciiSkeleton is the UTS #39 skeleton of a character when it is ASCII
// letters: what the character is confusable with in English text.
func asciiSkeleton(r rune) string {
	if !unicode.IsLetter(r) {
		return ""
	}
	sk := confusables.Skeleton(string(r))
	if sk == "" || sk == string(r) {
		return ""
	}
	for i := 0; i < len(sk); i++ {
		if c := sk[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return ""
		}
	}
	return strings.ToLower(sk)
}

// scanMixedScripts reports words that mix Latin letters with look-alike
// letters of another script ("pаssword" with a Cyrillic а): real words are
// written in one script, and the mix is how a phrase hides from a filter
// that reads it as written.
func scanMixedScripts(fs *findings, s string) {
	plain := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			plain = false
			break
		}
	}
	if plain {
		return
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(r) {
			i += size
			continue
		}
		start, latin, lookalike := i, 0, false
		for i < len(s) {
			r, size = utf8.DecodeRuneInString(s[i:])
			if !unicode.IsLetter(r) && !unicode.Is(unicode.Mn, r) && !invisibleRune(r) {
				break
			}
			switch {
			case unicode.Is(unicode.Lm, r):
				// a modifier letter (ₖ, ʲ) is notation's subscript
			case r < 0x80 || unicode.Is(unicode.Latin, r):
				latin++
			case unicode.IsLetter(r) && asciiSkeleton(unicode.ToLower(r)) != "":
				lookalike = true
			}
			i += size
		}
		// One Latin letter beside a Greek one is notation (Cα, xβ), not a
		// word written to pass for another.
		if latin >= 2 && lookalike {
			sev := SeverityWithhold
			if fs.kind&(kindSkill|kindCode) != 0 && quotedAt(s, start) {
				sev = SeverityWarn
			}
			fs.add(RuleDisguise, sev, start, i, "a word mixing Latin letters with look-alike letters of another script")
			if fs.full() {
				return
			}
		}
	}
}
