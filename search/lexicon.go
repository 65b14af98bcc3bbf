package search

import "slices"

// stopWords are dropped from documents and queries alike (language.txt, [stop]).
var stopWords = language.set("stop")

// abbreviations maps short forms that are common in tool names and parameters to the word a
// user would type (possibly several words), on both the document and the query side
// (language.txt, [abbreviations]).
var abbreviations = language.pairs("abbreviations")

// synonymGroups are words that tool descriptions and requests use interchangeably
// (language.txt, [synonyms]). A query word also searches for the other members of its
// group, at a lower weight.
var synonymGroups = language.entries("synonyms")

// synonyms maps a term to the other terms of its groups, built from synonymGroups.
var synonyms = buildSynonyms(synonymGroups)

func buildSynonyms(groups [][]string) map[string][]string {
	m := map[string][]string{}
	for _, g := range groups {
		var ts []string
		for _, w := range g {
			if t := normalize(w); t != "" {
				ts = append(ts, t)
			}
		}
		for _, t := range ts {
			for _, u := range ts {
				if u != t && !slices.Contains(m[t], u) {
					m[t] = append(m[t], u)
				}
			}
		}
	}
	return m
}
