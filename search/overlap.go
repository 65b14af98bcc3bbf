package search

// Overlap reports how many distinct terms of query occur in text, and how
// many distinct terms query has, both analyzed as the index analyzes them:
// stop words dropped, words stemmed, abbreviations spelled out, and a
// synonym counting as the word. A caller can tell with it whether a hit
// matched the query where it matters (its name or description) or only in
// weaker fields.
func Overlap(query, text string) (matched, total int) {
	have := map[string]bool{}
	for _, t := range terms(nil, text, true) {
		have[t] = true
	}
	seen := map[string]bool{}
	for _, t := range terms(nil, query, false) {
		if seen[t] {
			continue
		}
		seen[t] = true
		total++
		if have[t] {
			matched++
			continue
		}
		for _, s := range synonyms[t] {
			if have[s] {
				matched++
				break
			}
		}
	}
	return matched, total
}
