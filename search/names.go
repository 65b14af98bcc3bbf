package search

import (
	"slices"
	"strings"
	"unicode/utf8"
)

const (
	// minPrefixLen is the shortest query that is taken as a name prefix.
	minPrefixLen = 2
)

// nameTiers finds the documents whose name the query is (tierExact) or starts (tierPrefix)
// and records them in sc.tiers. The whole query counts, and so does every word written
// like an identifier; plain English words inside a sentence do not, or a tool named
// "search" would win every query that says "search".
func (ix *Index) nameTiers(sc *scratch, p parsedQuery, kind int) {
	var written []string // the names as the query writes them
	if len(p.required) == 0 && len(p.words) > 0 {
		written = append(written, p.text)
	}
	if len(p.words) > 1 {
		for _, w := range p.words {
			if looksLikeIdentifier(w) {
				written = append(written, trimQuoting(w))
			}
		}
	}
	mark := func(s int32, tier int) {
		if ix.kindOK(s, kind) && tier > sc.tiers[s] {
			sc.tiers[s] = tier
			sc.touch(s)
		}
	}
	var prefixes []string
	for _, n := range written {
		k := strings.ToLower(n)
		names, alts := ix.byName.get(k), ix.byAlt.get(k)
		// Names are case-sensitive: where names differ only in case, the one
		// written exactly is the exact match, and the others come next.
		exactOnly := len(names)+len(alts) > 1 && ix.anyNamedExactly(n, names, alts)
		for _, ss := range [][]int32{names, alts} {
			for _, s := range ss {
				if !exactOnly || ix.namedExactly(s, n) {
					mark(s, tierExact)
				} else {
					mark(s, tierPrefix)
				}
			}
		}
		if len(k) >= minPrefixLen && !strings.ContainsAny(k, " \t\r\n") {
			prefixes = append(prefixes, k)
		}
	}
	if len(prefixes) == 0 {
		return
	}
	// A scan of all names: only one-word queries and identifiers get here, and comparing
	// short strings is cheaper than keeping a sorted name list up to date on every Add.
	for s := range ix.slots {
		if !ix.stats[s].live {
			continue
		}
		for _, k := range prefixes {
			if ix.slots[s].hasNamePrefix(k) {
				mark(int32(s), tierPrefix)
				break
			}
		}
	}
}

// hasNamePrefix reports whether one of the slot's names (see altKeys) starts with k,
// ignoring case. Names are compared in place rather than kept lower-cased: that would cost
// a copy of every name.
func (sl *slot) hasNamePrefix(k string) bool {
	name := sl.name
	if hasPrefixFold(name, k) || sl.short > 0 && hasPrefixFold(name[sl.short:], k) {
		return true
	}
	for _, a := range sl.alt {
		if hasPrefixFold(a, k) {
			return true
		}
	}
	return false
}

// hasPrefixFold reports whether s starts with prefix (lower-case), ignoring case. It is
// called for every name on one-word queries, so ASCII takes a fast path.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || prefix[i] >= utf8.RuneSelf {
			return strings.EqualFold(s[:len(prefix)], prefix)
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// selectNames answers a "select:" query: the named documents in the order given. A name
// matches an ID or Name (ignoring case); failing that, an alternative name that exactly one
// document has.
func (ix *Index) selectNames(names []string, kind int) Result {
	res := Result{Selected: true}
	var added []int32
	for _, n := range names {
		k := strings.ToLower(n)
		found := ix.ofKind(ix.byName.get(k), kind)
		if len(found) == 0 {
			found = ix.ofKind(ix.byAlt.get(k), kind)
		}
		if len(found) > 1 {
			// Names are case-sensitive: of names that differ only in case, the
			// one written exactly is meant.
			exact := slices.DeleteFunc(slices.Clone(found), func(s int32) bool { return !ix.namedExactly(s, n) })
			if len(exact) == 1 {
				found = exact
			}
		}
		switch {
		case len(found) == 0:
			res.Unknown = append(res.Unknown, n)
		case len(found) > 1:
			ids := make([]string, len(found))
			for i, s := range found {
				ids[i] = ix.slots[s].id
			}
			slices.Sort(ids)
			if res.Ambiguous == nil {
				res.Ambiguous = map[string][]string{}
			}
			res.Ambiguous[n] = ids
		case !slices.Contains(added, found[0]):
			added = append(added, found[0])
			res.Hits = append(res.Hits, Hit{ID: ix.slots[found[0]].id, Score: tierExact, Match: MatchExact})
		}
	}
	res.Total = len(res.Hits)
	return res
}

// namedExactly reports whether the slot's ID, name or an alternative name is n.
func (ix *Index) namedExactly(s int32, n string) bool {
	sl := &ix.slots[s]
	return sl.id == n || sl.name == n || slices.Contains(sl.alt, n)
}

// anyNamedExactly reports whether a slot of the lists is named n exactly.
func (ix *Index) anyNamedExactly(n string, lists ...[]int32) bool {
	for _, ss := range lists {
		if slices.ContainsFunc(ss, func(s int32) bool { return ix.namedExactly(s, n) }) {
			return true
		}
	}
	return false
}

func (ix *Index) ofKind(ss []int32, kind int) []int32 {
	var out []int32
	for _, s := range ss {
		if ix.kindOK(s, kind) {
			out = append(out, s)
		}
	}
	return out
}
