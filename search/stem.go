package search

// stem reduces an English word to its Porter stem (M. F. Porter, "An algorithm for suffix
// stripping", 1980). Porter is old, small and predictable: it conflates the inflections and
// derivations that tool descriptions and user requests mix freely ("calculate",
// "calculation", "calculating") without a dictionary. Input must be lower-case ASCII; other
// words are returned unchanged.
func stem(w string) string {
	if len(w) <= 2 {
		return w
	}
	if s, ok := stemExceptions[w]; ok {
		return s
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return w
		}
	}
	s := porter{b: []byte(w)}
	s.step1ab()
	s.step1c()
	s.step2()
	s.step3()
	s.step4()
	s.step5()
	return string(s.b)
}

// stemExceptions are words that Porter stems into a different common word of tool
// catalogs, with the stems Porter2 (Snowball's English stemmer) gives them: "news" is not
// "new", a member of the create synonyms, and "general" and "generic" are not "generate".
var stemExceptions = map[string]string{
	"news": "news", "general": "general", "generally": "general", "generic": "generic",
	"generics": "generic",
}

// porter holds the word being stemmed; j marks the end of the stem while a suffix is tested.
type porter struct {
	b []byte
	j int
}

// cons reports whether b[i] is a consonant ('y' is one unless it follows a consonant).
func (p *porter) cons(i int) bool {
	switch p.b[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !p.cons(i-1)
	}
	return true
}

// m counts the vowel-consonant sequences in b[0:j] (Porter's "measure").
func (p *porter) m() int {
	n, i := 0, 0
	for ; i < p.j && p.cons(i); i++ {
	}
	for i < p.j {
		for ; i < p.j && !p.cons(i); i++ {
		}
		if i >= p.j {
			break
		}
		n++
		for ; i < p.j && p.cons(i); i++ {
		}
	}
	return n
}

// vowelInStem reports whether b[0:j] contains a vowel.
func (p *porter) vowelInStem() bool {
	for i := 0; i < p.j; i++ {
		if !p.cons(i) {
			return true
		}
	}
	return false
}

// doubleCons reports whether b[i-1:i+1] is a double consonant.
func (p *porter) doubleCons(i int) bool {
	return i >= 1 && p.b[i] == p.b[i-1] && p.cons(i)
}

// cvc reports whether b[i-2:i+1] is consonant-vowel-consonant with the last not w, x or y
// ("hop" but not "snow").
func (p *porter) cvc(i int) bool {
	if i < 2 || !p.cons(i) || p.cons(i-1) || !p.cons(i-2) {
		return false
	}
	switch p.b[i] {
	case 'w', 'x', 'y':
		return false
	}
	return true
}

// ends reports whether the word ends with s and, if so, sets j to the stem's length.
func (p *porter) ends(s string) bool {
	if len(s) > len(p.b) || string(p.b[len(p.b)-len(s):]) != s {
		return false
	}
	p.j = len(p.b) - len(s)
	return true
}

// setTo replaces the suffix after j with s.
func (p *porter) setTo(s string) { p.b = append(p.b[:p.j], s...) }

// replace replaces the suffix with s when the stem's measure is positive.
func (p *porter) replace(s string) {
	if p.m() > 0 {
		p.setTo(s)
	}
}

func (p *porter) step1ab() {
	if p.b[len(p.b)-1] == 's' {
		switch {
		case p.ends("sses"):
			p.b = p.b[:len(p.b)-2]
		case p.ends("ies"):
			p.setTo("i")
		case len(p.b) >= 2 && p.b[len(p.b)-2] != 's':
			p.b = p.b[:len(p.b)-1]
		}
	}
	if p.ends("eed") {
		if p.m() > 0 {
			p.b = p.b[:len(p.b)-1]
		}
		return
	}
	if (p.ends("ed") || p.ends("ing")) && p.vowelInStem() {
		p.b = p.b[:p.j]
		switch {
		case p.ends("at"):
			p.setTo("ate")
		case p.ends("bl"):
			p.setTo("ble")
		case p.ends("iz"):
			p.setTo("ize")
		case p.doubleCons(len(p.b) - 1):
			// A stem of three letters keeps its double: "added" and "adding" must meet
			// "add", which has no suffix to undo (Porter gives "ad"; "egg", "err" alike).
			switch p.b[len(p.b)-1] {
			case 'l', 's', 'z':
			default:
				if len(p.b) > 3 {
					p.b = p.b[:len(p.b)-1]
				}
			}
		default:
			p.j = len(p.b)
			if p.m() == 1 && p.cvc(len(p.b)-1) {
				p.b = append(p.b, 'e')
			}
		}
	}
}

// step1c turns a final y into i when the stem has a vowel ("happy" -> "happi").
func (p *porter) step1c() {
	if p.ends("y") && p.vowelInStem() {
		p.b[len(p.b)-1] = 'i'
	}
}

// step2 maps double suffixes to single ones ("-ization" -> "-ize").
func (p *porter) step2() {
	if len(p.b) < 3 {
		return
	}
	for _, r := range step2Rules[p.b[len(p.b)-2]] {
		if p.ends(r[0]) {
			p.replace(r[1])
			return
		}
	}
}

var step2Rules = map[byte][][2]string{
	'a': {{"ational", "ate"}, {"tional", "tion"}},
	'c': {{"enci", "ence"}, {"anci", "ance"}},
	'e': {{"izer", "ize"}},
	'l': {{"bli", "ble"}, {"alli", "al"}, {"entli", "ent"}, {"eli", "e"}, {"ousli", "ous"}},
	'o': {{"ization", "ize"}, {"ation", "ate"}, {"ator", "ate"}},
	's': {{"alism", "al"}, {"iveness", "ive"}, {"fulness", "ful"}, {"ousness", "ous"}},
	't': {{"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"}},
	'g': {{"logi", "log"}},
}

// step3 removes -ic-, -full, -ness and the like.
func (p *porter) step3() {
	for _, r := range [][2]string{
		{"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"},
		{"ical", "ic"}, {"ful", ""}, {"ness", ""},
	} {
		if p.ends(r[0]) {
			p.replace(r[1])
			return
		}
	}
}

// step4 removes -ant, -ence and the like when the stem is long enough (measure > 1).
func (p *porter) step4() {
	for _, s := range []string{
		"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
		"ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize",
	} {
		if !p.ends(s) {
			continue
		}
		if s == "ion" && (p.j == 0 || (p.b[p.j-1] != 's' && p.b[p.j-1] != 't')) {
			return
		}
		if p.m() > 1 {
			p.b = p.b[:p.j]
		}
		return
	}
}

// step5 removes a final -e and reduces -ll to -l when the stem is long enough.
func (p *porter) step5() {
	p.j = len(p.b)
	if p.b[len(p.b)-1] == 'e' {
		p.j = len(p.b) - 1
		if a := p.m(); a > 1 || a == 1 && !p.cvc(len(p.b)-2) {
			p.b = p.b[:len(p.b)-1]
		}
	}
	p.j = len(p.b)
	if p.b[len(p.b)-1] == 'l' && p.doubleCons(len(p.b)-1) && p.m() > 1 {
		p.b = p.b[:len(p.b)-1]
	}
}
