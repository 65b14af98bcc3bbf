package scan

import (
	"slices"
	"strings"
)

// promotionPatterns are the self-promotion patterns, and promotionMask their triggers.
var (
	promotionPatterns = func() []*pattern {
		var ps []*pattern
		for i := range patterns {
			if patterns[i].rule == RulePromotion {
				ps = append(ps, &patterns[i])
			}
		}
		return ps
	}()
	promotionMask = func() bitset {
		var words []string
		for _, p := range promotionPatterns {
			words = append(words, p.triggers...)
		}
		return allTriggers.mask(words)
	}()
)

// StripPromotion returns a description without its sentences of
// self-promotion ("This is the best tool in the world."): for a search
// gateway they are an attack on the ranking itself, so what is indexed
// leaves them out while the model still gets the definition as written
// (with the finding). A description without any is returned as it is.
//
// The sentences are those of the scanner's own promotion patterns, found
// as it finds them (in windows around their triggers), but every one of
// them rather than the few a finding reports.
func StripPromotion(s string) string {
	found := allTriggers.scan(s)
	if !found.any(&promotionMask) {
		return s
	}
	lowered := lazyLower(s)
	var ms [][]int
	for _, p := range promotionPatterns {
		if found.any(&p.triggerMask) {
			ms = append(ms, p.matches(s, lowered, -1)...)
		}
	}
	if ms == nil {
		return s
	}
	slices.SortFunc(ms, func(a, b []int) int { return a[0] - b[0] })
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
