package scan

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A gatedRE is an expression with sets of words (lowercase) found from
// the expression itself: every match of it holds a word of each set, so a
// text that holds no word of one of them is not run through the
// expression. The gate is exact: it only says "no match" where the
// expression would, so no verdict changes. The scanner runs some
// expressions on every line of every skill, and most lines hold none of
// their words: the gate is what keeps a scan of a user's skills quick.
type gatedRE struct {
	*regexp.Regexp
	words []*wordSet // none: the expression may match without any word
	// cuts are the bytes a long text is cut at, each piece matched on its
	// own (nil: it is not cut); see cutsOf.
	cuts *[256]bool
}

// minCutText is how long a text must be to be cut: a short one is
// matched whole.
const minCutText = 512

// maxGateSets is how many sets a gate asks for: the ones that gate most.
const maxGateSets = 4

// mustGate compiles expr and finds its words.
func mustGate(expr string) gatedRE { return gate(regexp.MustCompile(expr)) }

// gate finds the words of a compiled expression.
func gate(re *regexp.Regexp) gatedRE {
	parsed, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return gatedRE{Regexp: re}
	}
	g := gatedRE{Regexp: re, cuts: cutsOf(parsed)}
	for _, set := range bestSets(needsOf(wordsOf(parsed.Simplify())), maxGateSets) {
		g.words = append(g.words, newWordSet(set...))
	}
	return g
}

// mayMatch reports whether s may hold a match: false only when s is ASCII
// and holds none of the words.
func (g gatedRE) mayMatch(s string) bool {
	if len(g.words) == 0 {
		return true
	}
	return g.mayMatchFolded(gateFold(s))
}

// mayMatchFolded is mayMatch for a caller that has gateFold(s) already.
func (g gatedRE) mayMatchFolded(folded string) bool {
	for _, set := range g.words {
		if !set.in(folded) {
			return false
		}
	}
	return true
}

// The expression's own methods, gated and on a long text cut. The others
// (ReplaceAllString…) are the expression's, whole.

func (g gatedRE) MatchString(s string) bool {
	if g.cuts == nil || len(s) < minCutText {
		return g.mayMatch(s) && g.Regexp.MatchString(s)
	}
	return g.findAll(s, 1, false) != nil
}

func (g gatedRE) FindStringIndex(s string) []int {
	if m := g.findAll(s, 1, false); m != nil {
		return m[0]
	}
	return nil
}

func (g gatedRE) FindAllStringIndex(s string, n int) [][]int { return g.findAll(s, n, false) }

func (g gatedRE) FindStringSubmatch(s string) []string {
	m := g.findAll(s, 1, true)
	if m == nil {
		return nil
	}
	out := make([]string, len(m[0])/2)
	for i := range out {
		if m[0][2*i] >= 0 {
			out[i] = s[m[0][2*i]:m[0][2*i+1]]
		}
	}
	return out
}

func (g gatedRE) FindStringSubmatchIndex(s string) []int {
	if m := g.findAll(s, 1, true); m != nil {
		return m[0]
	}
	return nil
}

func (g gatedRE) FindAllStringSubmatchIndex(s string, n int) [][]int { return g.findAll(s, n, true) }

// findAll is FindAllString(Submatch)Index(s, n): on s whole when it is
// short or not cut, else on each piece between cuts that passes the gate,
// its matches' offsets moved back to s's.
func (g gatedRE) findAll(s string, n int, sub bool) [][]int {
	find := g.Regexp.FindAllStringIndex
	if sub {
		find = g.Regexp.FindAllStringSubmatchIndex
	}
	if n == 0 {
		return nil
	}
	if len(g.words) == 0 && (g.cuts == nil || len(s) < minCutText) {
		return find(s, n)
	}
	folded := gateFold(s)
	if !g.mayMatchFolded(folded) {
		return nil
	}
	if g.cuts == nil || len(s) < minCutText {
		return find(s, n)
	}
	// An ASCII text folds byte for byte: a piece's fold is the text's,
	// cut where the piece is.
	aligned := len(folded) == len(s) && isASCII(s)
	var out [][]int
	for start := 0; start < len(s); {
		end := start
		for end < len(s) && !g.cuts[s[end]] {
			end++
		}
		piece := s[start:end]
		if piece != "" && (aligned && g.mayMatchFolded(folded[start:end]) || !aligned && g.mayMatch(piece)) {
			for _, m := range find(piece, n-len(out)) {
				for i := range m {
					if m[i] >= 0 {
						m[i] += start
					}
				}
				out = append(out, m)
			}
			if n > 0 && len(out) >= n {
				break
			}
		}
		start = end + 1
	}
	return out
}

// cutsOf returns the bytes at which a text may be cut and its pieces
// matched each on its own, with the same matches as the whole, or nil.
// They are the ASCII bytes no match holds that are no word's (\w): so
// no match spans a cut, and a word boundary (\b, \B) at a piece's edge
// is one in the whole text, a text's edge counting as no word. An
// expression that asserts more than word boundaries (^, $), or matches
// an empty text (whose matches depend on where the last one ended), is
// not cut.
func cutsOf(re *syntax.Regexp) *[256]bool {
	var held [utf8.RuneSelf]bool
	ok := true
	var walk func(re *syntax.Regexp)
	walk = func(re *syntax.Regexp) {
		switch re.Op {
		case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText:
			ok = false
		case syntax.OpLiteral:
			for _, r := range re.Rune {
				for f := r; ; {
					if f < utf8.RuneSelf {
						held[f] = true
					}
					if re.Flags&syntax.FoldCase == 0 {
						break
					}
					if f = unicode.SimpleFold(f); f == r {
						break
					}
				}
			}
		case syntax.OpCharClass:
			for i := 0; i+1 < len(re.Rune); i += 2 {
				for r := re.Rune[i]; r <= re.Rune[i+1] && r < utf8.RuneSelf; r++ {
					held[r] = true
				}
			}
		case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			ok = false // it holds about every byte
		}
		for _, sub := range re.Sub {
			walk(sub)
		}
	}
	walk(re)
	if !ok || minLen(re) == 0 {
		return nil
	}
	var cuts [256]bool
	any := false
	for c := range utf8.RuneSelf {
		if !held[c] && !syntax.IsWordChar(rune(c)) {
			cuts[c], any = true, true
		}
	}
	if !any {
		return nil
	}
	return &cuts
}

// minLen is the length, in runes, of the shortest text re matches.
func minLen(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return minLen(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min * minLen(re.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, sub := range re.Sub {
			n += minLen(sub)
		}
		return n
	case syntax.OpAlternate:
		n := -1
		for _, sub := range re.Sub {
			if m := minLen(sub); n < 0 || m < n {
				n = m
			}
		}
		return max(n, 0)
	}
	return 0 // empty, assertions, star, quest
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// gateFold returns s as the gate reads it: ASCII letters lowercased, and
// the only other letters (?i) folds to ASCII ones, the Kelvin sign and
// the long s (K and ſ, U+212A and U+017F), made k and s. Whatever an
// expression's ASCII literal matches in s is then that literal,
// lowercased, in the folded text.
func gateFold(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.Map(func(r rune) rune {
				switch {
				case r < utf8.RuneSelf:
					return unicode.ToLower(r)
				case r == '\u212A':
					return 'k'
				case r == '\u017F':
					return 's'
				}
				return r
			}, s)
		}
	}
	return strings.ToLower(s)
}

// exprWords is what wordsOf finds of an expression. exact, when not nil,
// is every text the expression matches (lowercase); each of needs is a
// set of texts of which every match holds one.
type exprWords struct {
	exact []string
	needs [][]string
}

// maxExact bounds the texts an exact set may hold: past it, it is dropped.
const maxExact = 64

// wordsOf finds the words of a parsed expression, lowercased as gateFold
// folds a text: a match's text, folded, holds its ASCII literals
// lowercased. A literal or a class with other letters is no word.
func wordsOf(re *syntax.Regexp) exprWords {
	switch re.Op {
	case syntax.OpLiteral:
		var b strings.Builder
		for _, r := range re.Rune {
			if r >= utf8.RuneSelf {
				return exprWords{}
			}
			b.WriteRune(unicode.ToLower(r))
		}
		return exprWords{exact: []string{b.String()}}
	case syntax.OpCharClass:
		// A small class is its letters or signs, (?i)'s K and ſ being
		// k and s, as gateFold makes them.
		var set []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				switch {
				case r == '\u212A':
					r = 'k'
				case r == '\u017F':
					r = 's'
				case r >= utf8.RuneSelf:
					return exprWords{}
				}
				if s := string(unicode.ToLower(r)); !slices.Contains(set, s) {
					set = append(set, s)
				}
				if len(set) > 10 {
					return exprWords{}
				}
			}
		}
		if len(set) == 0 {
			return exprWords{}
		}
		return exprWords{exact: set}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return exprWords{exact: []string{""}}
	case syntax.OpCapture:
		return wordsOf(re.Sub[0])
	case syntax.OpPlus:
		return exprWords{needs: needsOf(wordsOf(re.Sub[0]))}
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return exprWords{needs: needsOf(wordsOf(re.Sub[0]))}
		}
		return exprWords{}
	case syntax.OpQuest:
		if sub := wordsOf(re.Sub[0]); sub.exact != nil && len(sub.exact) < maxExact {
			return exprWords{exact: union(sub.exact, []string{""})}
		}
		return exprWords{}
	case syntax.OpAlternate:
		// A match is one branch's: it holds a word of the union of
		// each branch's best set.
		var exact, need []string
		open := false // a branch holds no word
		for i, sub := range re.Sub {
			w := wordsOf(sub)
			if i == 0 {
				exact = w.exact
			} else if exact != nil && w.exact != nil && len(exact)+len(w.exact) <= maxExact {
				exact = union(exact, w.exact)
			} else {
				exact = nil
			}
			if best := bestSets(needsOf(w), 1); len(best) == 0 {
				open = true
			} else {
				need = union(need, best[0])
			}
		}
		if open {
			return exprWords{exact: exact}
		}
		return exprWords{exact: exact, needs: [][]string{need}}
	case syntax.OpConcat:
		// Every child's sets are the concatenation's; runs of children
		// with exact texts are joined first (\bid_(?:rsa|dsa) is id_rsa
		// or id_dsa).
		var needs [][]string
		consider := func(sets ...[]string) {
			for _, set := range sets {
				if useful(set) {
					needs = append(needs, set)
				}
			}
		}
		run, all := []string{""}, []string{""}
		for _, sub := range re.Sub {
			w := wordsOf(sub)
			all = cross(all, w.exact)
			if w.exact == nil {
				consider(run)
				run = []string{""}
				consider(w.needs...)
				continue
			}
			if joined := cross(run, w.exact); joined != nil {
				run = joined
			} else {
				consider(run)
				run = w.exact
			}
		}
		consider(run)
		return exprWords{exact: all, needs: bestSets(needs, maxGateSets)}
	}
	return exprWords{}
}

// needsOf is the sets of which every match holds a word: the exact texts
// are one when none is empty.
func needsOf(w exprWords) [][]string {
	if useful(w.exact) {
		return append(slices.Clone(w.needs), w.exact)
	}
	return w.needs
}

// bestSets returns the n sets that gate most, best first.
func bestSets(sets [][]string, n int) [][]string {
	var distinct [][]string
	for _, set := range sets {
		if !slices.ContainsFunc(distinct, func(d []string) bool { return slices.Equal(d, set) }) {
			distinct = append(distinct, set)
		}
	}
	sets = distinct
	slices.SortStableFunc(sets, func(a, b []string) int {
		if better(a, b) {
			return -1
		}
		if better(b, a) {
			return 1
		}
		return 0
	})
	return sets[:min(n, len(sets))]
}

// cross is every text of a followed by one of b, or nil past maxExact.
func cross(a, b []string) []string {
	if a == nil || b == nil || len(a)*len(b) > maxExact {
		return nil
	}
	var out []string
	for _, x := range a {
		for _, y := range b {
			if s := x + y; !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// useful reports whether words say something: none is empty.
func useful(words []string) bool {
	return len(words) > 0 && !slices.Contains(words, "")
}

// better reports whether words a gate more than b: their shortest is
// longer, or as long and they are fewer.
func better(a, b []string) bool {
	ma, mb := shortest(a), shortest(b)
	return ma > mb || ma == mb && len(a) < len(b)
}

func shortest(words []string) int {
	n := -1
	for _, w := range words {
		if n < 0 || len(w) < n {
			n = len(w)
		}
	}
	return n
}
