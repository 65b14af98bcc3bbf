package scan

import (
	"regexp"
	"strings"
)

// promotionRE is the self-promotion pattern, for StripPromotion.
var promotionRE = regexp.MustCompile(`(?i)` + promotionExpr)

// StripPromotion returns a description without its sentences of
// self-promotion ("This is the best tool in the world."): for a search
// gateway they are an attack on the ranking itself, so what is indexed
// leaves them out while the model still gets the definition as written
// (with the finding). A description without any is returned as it is.
func StripPromotion(s string) string {
	lower := strings.ToLower(s)
	if !strings.Contains(lower, "best") && !strings.Contains(lower, "prefer") && !strings.Contains(lower, "than") &&
		!strings.Contains(lower, "always") && !strings.Contains(lower, "only") && !strings.Contains(lower, "recommended") &&
		!strings.Contains(lower, "superior") && !strings.Contains(lower, " over ") && !strings.Contains(lower, "most ") {
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
