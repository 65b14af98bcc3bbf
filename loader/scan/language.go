package scan

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The rules read English, and of the other languages skill authors write
// in only the words harvest_languages.go lists: a text in another
// language is read in part, and is reported as such, since a directive
// phrased beyond those words passes them.
//
// What marks a text as another language is evidence of that language, not
// a lack of English: reference files of headings, tables and identifiers
// hold few English function words, and they are English all the same.
// The evidence is half its words in another script (each CJK ideograph
// counting as a word, a lone Greek letter of a formula not at all), or
// more function words of another Latin-script language than of English.
// A paragraph is judged as well as the whole text, so a foreign paragraph
// in an English skill is reported.
const (
	minLanguageWords = 12   // shorter texts are not judged
	minFunctionShare = 0.06 // of words that are function words of the language
)

func functionWords(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

var englishWords = functionWords("the a an of to in on for with and or is are be by this that it its as at from you your use uses used when if not no can will should must do does all any each which what how then than into only more also may one per see set get returns return file files name data list new id")

// The function words of the Latin-script languages skill authors write in
// most besides English (Spanish, Portuguese, French, German, Italian,
// Dutch, Indonesian), leaving out those English uses too ("die", "so",
// "as"), those of "et al." and "MIT", and single letters English text is
// full of ("e.g.", "x, y").
var otherLatinWords = functionWords(`
	el la los las que del por para con una unos unas se es lo como más pero sus está son este esta
	um não da dos das em na nas pelo pela você é são uma ao
	le les des est une pour dans pas qui sur au du ne ce cette sont avec vous nous leur
	der das und ist nicht ein eine zu den von sich auf für dem im auch oder werden wird sie du bist wir
	il di che sono della delle gli nel alla anche questo
	het een van op dat zijn niet voor je
	yang dan untuk dengan ini itu dari ke tidak`)

// scanLanguage reports the texts of fields of prose (not a schema's
// strings) written in a language the rules read only in part.
func scanLanguage(fs *findings, prose string) {
	for _, p := range fs.d.pieces {
		if p.field != "" && p.end <= len(prose) {
			languageOf(fs, prose[p.start:p.end], p.start)
		}
	}
}

// languageOf reports text in another language, at its first foreign
// paragraph when it has one: one finding per text is enough to tell the
// reader it went unread.
func languageOf(fs *findings, text string, off int) {
	at := -1
	var whole wordCounts
	whole.firstWord = -1
	for start := 0; start < len(text); {
		end := paragraphEnd(text, start)
		c := countWords(text[start:end])
		if at < 0 && c.foreign() {
			at = start + c.firstWord
		}
		if whole.firstWord < 0 && c.firstWord >= 0 {
			whole.firstWord = start + c.firstWord
		}
		whole.words += c.words
		whole.english += c.english
		whole.otherLatin += c.otherLatin
		whole.otherScript += c.otherScript
		start = end + 2
	}
	if at < 0 && whole.foreign() {
		at = whole.firstWord
	}
	if at < 0 {
		return
	}
	end := at
	for n := 0; end < len(text) && n < maxSpanRunes; n++ {
		end++
	}
	for end < len(text) && text[end]&0xC0 == 0x80 {
		end++
	}
	fs.add(RuleUnscanned, SeverityWarn, off+at, off+end, "text in a language the rules read only in part")
}

// wordCounts is what languageOf weighs: how many words a text has, how
// many are English or another Latin-script language's function words, and
// how many are in another script.
type wordCounts struct {
	words, english, otherLatin, otherScript int
	firstWord                               int
}

func (c wordCounts) foreign() bool {
	if c.words < minLanguageWords {
		return false
	}
	if c.otherScript*2 >= c.words {
		return true
	}
	return c.otherLatin > c.english && c.otherLatin >= 3 && float64(c.otherLatin) >= minFunctionShare*float64(c.words)
}

func countWords(text string) wordCounts {
	c := wordCounts{firstWord: -1}
	start := -1
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
			c.words++
			if c.firstWord < 0 {
				c.firstWord = start
			}
			switch {
			case inIdentifier(text, start, i):
			case englishWords[w]:
				c.english++
			case otherLatinWords[w]:
				c.otherLatin++
			}
			if utf8.RuneCountInString(w) > 1 && strings.IndexFunc(w, func(r rune) bool { return r > 0x24F }) >= 0 {
				c.otherScript++
			}
			start = -1
		}
		if cjk {
			c.words++
			c.otherScript++
			if c.firstWord < 0 {
				c.firstWord = i
			}
		}
	}
	return c
}

// inIdentifier reports whether the word text[start:end] is part of an
// identifier, an address or a flag ("mwt-le", "License-MIT", "cryo-EM"):
// such words say nothing of the language around them.
func inIdentifier(text string, start, end int) bool {
	if start > 0 && strings.IndexByte("-_/.=@", text[start-1]) >= 0 {
		return true
	}
	if end < len(text) && strings.IndexByte("-_/=@", text[end]) >= 0 {
		return true
	}
	return end+1 < len(text) && text[end] == '.' && text[end+1] > ' '
}
