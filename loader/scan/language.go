package scan

import (
	"strings"
	"unicode"
)

// The rules read English. A text in a language they cannot read is not
// clean but unscanned, and is reported as such: a directive in Spanish or
// Chinese passes every English phrase. A text is taken for English when
// enough of its words are English function words, which every English
// sentence is full of and technical prose too.
const (
	minLanguageWords = 12   // shorter texts are not judged
	minEnglishShare  = 0.06 // of words that are function words
)

var englishWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("the a an of to in on for with and or is are be by this that it its as at from you your use uses used when if not no can will should must do does all any each which what how then than into only more also may one per see set get returns return file files name data list new id") {
		m[w] = true
	}
	return m
}()

// scanLanguage reports the texts of fields of prose (not a schema's
// strings) of which too few words are English.
func scanLanguage(fs *findings, prose string) {
	for _, p := range fs.d.pieces {
		if p.field != "" && p.end <= len(prose) {
			languageOf(fs, prose[p.start:p.end], p.start)
		}
	}
}

func languageOf(fs *findings, text string, off int) {
	words, english, foreign := 0, 0, 0
	start, firstWord := -1, -1
	for i, r := range text + " " {
		// CJK text has no spaces: each ideograph counts as a word.
		cjk := unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
		if !cjk && (unicode.IsLetter(r) || r == '\'' && start >= 0) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			w := strings.ToLower(text[start:i])
			words++
			if firstWord < 0 {
				firstWord = start
			}
			if englishWords[w] {
				english++
			}
			for _, c := range w {
				if c > 0x24F {
					foreign++
					break
				}
			}
			start = -1
		}
		if cjk {
			words++
			foreign++
			if firstWord < 0 {
				firstWord = i
			}
		}
	}
	if words < minLanguageWords || float64(english) >= minEnglishShare*float64(words) {
		return
	}
	if foreign*4 < words && english > 0 && words < 4*minLanguageWords {
		return // short technical text of identifiers and a few words
	}
	end := firstWord
	for n := 0; end < len(text) && n < maxSpanRunes; n++ {
		end++
	}
	for end < len(text) && text[end]&0xC0 == 0x80 {
		end++
	}
	fs.add(RuleUnscanned, SeverityWarn, off+max(firstWord, 0), off+end, "text in a language the rules cannot read, left unscanned")
}
