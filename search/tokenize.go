package search

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// splitWords calls emit with each lower-cased word of s. Words are runs of letters and
// digits; identifiers are also split at camelCase humps ("getHTTPResponse" -> get, http,
// response), because tool names are written in every convention and users type them as
// separate words. Digits stay with their letters ("base64", "mp3"), and so do combining
// marks (the vowel signs of Devanagari or Thai). Scripts that do not separate words with
// spaces (Han, Hiragana, Katakana, Hangul, whose words also run into their particles,
// and Thai, Lao, Khmer, Myanmar) are cut into overlapping pairs of characters, as
// Lucene's CJK analyzer does: "天气预报" gives 天气, 气预, 预报, so a query shares a
// word's pair with any text that has the word, wherever the word boundaries are. A Han,
// Kana or Hangul character is also a word of its own (many are one-character words); a
// Thai character only when it stands alone. When a run is split at humps, joined (if not
// nil) also receives each two neighbouring pieces as one word ("FileSystem" ->
// "filesystem"), so a user who writes the compound as one word still matches; so do two
// pieces on either side of one "_" or "-" ("file_system", "e-mail"), since names are
// written in both conventions, unless one has a digit (a version or a variant:
// "get_weather_v2").
//
// The byte slices passed to emit and joined are only valid during the call.
func splitWords(s string, emit, joined func([]byte)) {
	var buf []byte
	var cuts []int // piece boundaries within the current run
	start := -1    // start of the current run in s
	last := ""     // the last piece of the previous run, if it may start a compound
	lastEnd := -2  // where the previous run ended in s
	flush := func(end int) {
		if start < 0 {
			return
		}
		run := s[start:end]
		cuts = camelCuts(run, cuts[:0])
		if joined != nil {
			first, final := run[:cuts[1]], run[cuts[len(cuts)-2]:]
			if last != "" && start == lastEnd+1 && (s[lastEnd] == '_' || s[lastEnd] == '-') && !hasDigit(first) {
				buf = appendLower(appendLower(buf[:0], last), first)
				joined(buf)
			}
			last, lastEnd = final, end
			if hasDigit(final) {
				last = ""
			}
		}
		start = -1
		for i := 0; i+1 < len(cuts); i++ {
			buf = appendLower(buf[:0], run[cuts[i]:cuts[i+1]])
			emit(buf)
		}
		if joined != nil {
			for i := 0; i+2 < len(cuts); i++ {
				buf = appendLower(buf[:0], run[cuts[i]:cuts[i+2]])
				joined(buf)
			}
		}
	}
	// The run of unspaced script being cut into pairs: chars[k] is where its k-th
	// character (with its combining marks) starts in s.
	var chars []int
	unspacedEnd := -1
	for i, r := range s {
		switch {
		case r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'):
			if len(chars) > 0 {
				buf, chars = emitPairs(s, chars, unspacedEnd, buf, emit)
			}
			if start < 0 {
				start = i
			}
		case r < utf8.RuneSelf:
			if len(chars) > 0 {
				buf, chars = emitPairs(s, chars, unspacedEnd, buf, emit)
			}
			flush(i)
		case isUnspaced(r):
			flush(i)
			chars = append(chars, i)
			unspacedEnd = i + utf8.RuneLen(r)
		case unicode.IsMark(r) && len(chars) > 0 && unspacedEnd == i:
			unspacedEnd = i + utf8.RuneLen(r) // a vowel sign or tone mark of the last character
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			if len(chars) > 0 {
				buf, chars = emitPairs(s, chars, unspacedEnd, buf, emit)
			}
			if start < 0 {
				start = i
			}
		default:
			if len(chars) > 0 {
				buf, chars = emitPairs(s, chars, unspacedEnd, buf, emit)
			}
			flush(i)
		}
	}
	if len(chars) > 0 {
		buf, _ = emitPairs(s, chars, unspacedEnd, buf, emit)
	}
	flush(len(s))
}

// emitPairs emits the words of a run of unspaced script that ends at end, whose characters
// start at chars (see splitWords), and returns buf and chars for reuse.
func emitPairs(s string, chars []int, end int, buf []byte, emit func([]byte)) ([]byte, []int) {
	chars = append(chars, end)
	n := len(chars) - 1
	for k := range n {
		r, _ := utf8.DecodeRuneInString(s[chars[k]:])
		if n == 1 || isIdeograph(r) {
			buf = append(buf[:0], s[chars[k]:chars[k+1]]...)
			emit(buf)
		}
		if k+1 < n {
			buf = append(buf[:0], s[chars[k]:chars[k+2]]...)
			emit(buf)
		}
	}
	return buf, chars[:0]
}

// camelCuts appends to cuts the byte offsets where the run's camelCase pieces start, and
// its length: a cut goes before an upper-case letter that follows a lower-case one, and
// before a capital that starts a new word after a digit or an acronym ("Http2Server" ->
// Http2, Server; "HTTPServer" -> HTTP, Server). A digit followed by capitals alone is one
// word ("3D", "2FA"): cut, it would leave a lone letter and lose the word.
func camelCuts(run string, cuts []int) []int {
	cuts = append(cuts, 0)
	var prev rune
	for i, r := range run {
		if i > 0 && unicode.IsUpper(r) {
			switch {
			case unicode.IsLower(prev):
				cuts = append(cuts, i)
			case unicode.IsDigit(prev) || unicode.IsUpper(prev):
				if next, _ := utf8.DecodeRuneInString(run[i+utf8.RuneLen(r):]); unicode.IsLower(next) {
					cuts = append(cuts, i)
				}
			}
		}
		prev = r
	}
	return append(cuts, len(run))
}

// appendLower appends s lower-cased to dst, without allocating for ASCII.
func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return append(dst[:len(dst)-i], strings.ToLower(s)...)
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// isIdeograph reports whether r is a Han, Kana or Hangul character, which is often a word
// by itself.
func isIdeograph(r rune) bool {
	return r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r))
}

// isUnspaced reports whether r is a letter of a script whose words are not separated by
// spaces, or run into their particles (Korean).
func isUnspaced(r rune) bool {
	if r < 0x0E00 {
		return false
	}
	return isIdeograph(r) || unicode.IsLetter(r) && (unicode.Is(unicode.Thai, r) || unicode.Is(unicode.Lao, r) ||
		unicode.Is(unicode.Khmer, r) || unicode.Is(unicode.Myanmar, r))
}

// normalize turns one lower-cased word into an index term: "" for stop words and lone
// letters, otherwise the word's stem. Words that are not plain ASCII are kept as they are.
func normalize(w string) string {
	if stopWords[w] {
		return ""
	}
	if len(w) == 1 && w[0] >= 'a' && w[0] <= 'z' {
		return ""
	}
	return stem(w)
}

// wordTerms returns the index terms of one lower-cased word: none for a stop word, several
// for an abbreviation that stands for several words, else its stem.
func wordTerms(w string) []string {
	if long, ok := abbreviations[w]; ok {
		var ts []string
		for _, w := range strings.Fields(long) {
			if t := normalize(w); t != "" {
				ts = append(ts, t)
			}
		}
		return ts
	}
	if t := normalize(w); t != "" {
		return []string{t}
	}
	return nil
}

// termCache remembers wordTerms, which is pure: the same few thousand words make up most
// catalogs and queries, and stemming them again dominated indexing time. Its size is
// bounded so that a stream of unique words (ids, numbers) cannot grow it without end.
var termCache = struct {
	sync.RWMutex
	m map[string][]string
}{m: map[string][]string{}}

const maxTermCache = 1 << 17

func cachedWordTerms(w []byte) []string {
	termCache.RLock()
	ts, ok := termCache.m[string(w)]
	termCache.RUnlock()
	if ok {
		return ts
	}
	word := string(w)
	ts = wordTerms(word)
	termCache.Lock()
	if len(termCache.m) < maxTermCache {
		termCache.m[word] = ts
	}
	termCache.Unlock()
	return ts
}

// terms appends the index terms of s to dst. Compounds (see splitWords) are added as well
// when withJoined is set; they are only worth it for names.
func terms(dst []string, s string, withJoined bool) []string {
	emit := func(w []byte) { dst = append(dst, cachedWordTerms(w)...) }
	var joined func([]byte)
	if withJoined {
		joined = emit
	}
	splitWords(s, emit, joined)
	return dst
}

// looksLikeIdentifier reports whether a query word is written like a tool name rather than
// an English word: it has a separator inside or a capital after a lower-case letter. The
// punctuation around a word does not count: "to:'?" ending a quoted sentence and "move.\""
// before a closing quote are English words, not names (such a "to" made every tool named
// "to..." a prefix match of a long request).
func looksLikeIdentifier(w string) bool {
	w = trimQuoting(w)
	if strings.ContainsAny(strings.Trim(w, "_-./:"), "_-./:") {
		return true
	}
	lower := false
	for _, r := range w {
		if unicode.IsUpper(r) && lower {
			return true
		}
		lower = unicode.IsLower(r)
	}
	return false
}

// trimQuoting removes the quotes, brackets and sentence punctuation around a query word.
func trimQuoting(w string) string { return strings.Trim(w, "\"'.,;:!?()[]{}`") }
