package scan

import (
	"regexp"
	"strings"
)

// promotionRE is the self-promotion pattern, for StripPromotion, and
// promotionMask its patterns' triggers.
var (
	promotionRE   = regexp.MustCompile(`(?i)` + promotionExpr)
	promotionMask = func() bitset {
		var words []string
		for _, p := range patterns {
			if p.rule == RulePromotion {
				words = append(words, p.triggers...)
			}
		}
		return allTriggers.mask(words)
	}()
)

// StripPromotion returns a description without its sentences of
// self-promotion ("This is the best tool in the world."): for a search
// gateway they are an attack on the ranking itself, so what is indexed
// leaves them out while the model still gets the definition as written
// (with the finding). A description without any is returned as it is.
func StripPromotion(s string) string {
	// Clean text costs one pass of the trigger automaton, gated by the
	// promotion patterns' own triggers so that whatever they flag is
	// stripped too.
	if found := allTriggers.scan(s); !found.any(&promotionMask) {
		return s
	}
	ms := promotionRE.FindAllStringIndex(s, -1)
	if ms == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		if strings.Contains(strings.ToLower(s[m[0]:m[1]]), "always") && conditionalUse(s[m[1]:]) {
			continue
		}
		start, end := sentenceAt(s, m[0])
		if start < last {
			start = last
		}
		b.WriteString(s[last:start])
		last = max(end, start)
	}
	b.WriteString(s[last:])
	return strings.TrimSpace(strings.Join(strings.Fields(b.String()), " "))
}
