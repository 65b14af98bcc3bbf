package search

import (
	"slices"
	"strings"
)

// A converter's name says its direction: gallon_to_liter takes gallons and gives liters.
// Catalogs often hold both directions in the same words, which a bag of words cannot
// tell apart: "I've filled up with 13.2 gallons; how much is that in liters?" found
// liter_to_gallon as often as gallon_to_liter. The request says its direction in a few
// plain cues, the amount it has ("13.2 gallons", "from gallons", "gallons to") and the
// unit it wants ("to liters", "into", "in liters"); a converter the cues say is the wrong
// way round is contradicted (see reranker.contradicted).

// conversionSides returns the two sides of a name that reads "a_to_b" (gallon_to_liter,
// html_to_markdown), its abbreviations spelled out if abbrev (speech_tts: text to speech),
// stemmed, or ok false.
func conversionSides(name string, abbrev bool) (a, b string, ok bool) {
	_, short := splitQualified(name)
	if !mayConvert(short, abbrev) {
		return "", "", false // the common case, without splitting the name
	}
	var ws []string
	splitWords(short, func(w []byte) {
		if abbrev {
			ws = append(ws, spelledOut(string(w))...)
		} else {
			ws = append(ws, string(w))
		}
	}, nil) // lower-cased
	for i := 1; i+1 < len(ws); i++ {
		if a := ws[i-1]; ws[i] == "to" && isLetters(a) && isLetters(ws[i+1]) && a != ws[i+1] && !changeVerbs[a] && !readVerbs[a] {
			return stem(ws[i-1]), stem(ws[i+1]), true
		}
	}
	return "", "", false
}

// converterAbbreviations are the abbreviations whose words have "to" in them ("tts": text
// to speech): conversionSides looks for them in a name besides "to".
var converterAbbreviations = func() []string {
	var out []string
	for short, long := range abbreviations {
		if slices.Contains(strings.Fields(long), "to") {
			out = append(out, short)
		}
	}
	slices.Sort(out)
	return out
}()

// mayConvert reports whether a name may read "a_to_b", without splitting it: whether "to"
// or, if abbrev, one of converterAbbreviations is in it, in any case.
func mayConvert(name string, abbrev bool) bool {
	if containsFold(name, "to") {
		return true
	}
	if !abbrev {
		return false
	}
	for _, a := range converterAbbreviations {
		if containsFold(name, a) {
			return true
		}
	}
	return false
}

// containsFold reports whether sub, in lower case, is within s in any case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if hasPrefixFold(s[i:], sub) {
			return true
		}
	}
	return false
}

// sideCues reports what the request's words say of a side: that it is what the request
// has (a number before it, "from" before it, or "it to/into"), or what it wants ("to",
// "into" or "in" before it).
func sideCues(toks, stems []string, side string) (from, to bool) {
	for i, s := range stems {
		if s != side {
			continue
		}
		if i > 0 {
			switch p := toks[i-1]; {
			case isNumber(p), p == "from":
				from = true
			case p == "to", p == "into", p == "in":
				to = true
			}
		}
		if i+1 < len(toks) && (toks[i+1] == "to" || toks[i+1] == "into") {
			from = true
		}
	}
	return from, to
}

// reversed reports whether a converter from a to b (conversionSides) goes the other way
// round than the request asks: the request has b or wants a, and says neither that it has
// a nor wants b.
func reversed(a, b string, toks, stems []string) bool {
	aFrom, aTo := sideCues(toks, stems, a)
	bFrom, bTo := sideCues(toks, stems, b)
	return (bFrom || aTo) && !(aFrom || bTo)
}
