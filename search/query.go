package search

import (
	"strings"
	"unicode"
)

// Query is one search request. Its Text takes three forms:
//
//   - plain words rank documents: an exact name (Name, ID or an alternative name, ignoring
//     case; the whole query or a word written like an identifier) comes first, then names
//     that start with the query, then the rest by text relevance;
//   - "+word" makes a word required: documents without it are dropped, but it adds almost
//     nothing to the score, so the other words decide the order;
//   - "select:a,b" returns exactly the named documents in the order given (no ranking, no
//     limit), reporting names that match nothing or several documents.
//
// An empty query returns no hits; any other query returns at least one while the index
// holds a document of the kind asked for: when no document has every "+word", the best
// matches of all the words (Result.Relaxed); when nothing matches at all, a few entries
// to start from (MatchBrowse).
type Query struct {
	Text  string // raw user query: plain words, "select:a,b", "+term"
	Limit int    // <=0 means DefaultLimit
	Kind  string // "" or "any" = all kinds, else "tool"/"skill"
}

// DefaultLimit is the number of hits returned when Query.Limit is not positive; five is what
// Claude Code and the Anthropic API return.
const DefaultLimit = 5

// selectPrefix starts a query that fetches documents by name instead of ranking them.
const selectPrefix = "select:"

// parsedQuery is a query split into its parts.
type parsedQuery struct {
	text     string   // the whole query, trimmed
	selected []string // names after "select:", in order, without duplicates
	isSelect bool
	required []string // words that were written "+word", without the plus
	words    []string // the other words
	// quoted and openers mark the words that are quoted values (quotedWords) and
	// conversational openers (openerWords), set by rank for both stages.
	quoted, openers []bool
}

// parseQuery splits a query. "select:" (any case) makes the rest a list of names separated
// by commas or spaces. Otherwise words are split at white space and a word starting with
// "+" is required.
func parseQuery(text string) parsedQuery {
	p := parsedQuery{text: strings.TrimSpace(text)}
	if len(p.text) >= len(selectPrefix) && strings.EqualFold(p.text[:len(selectPrefix)], selectPrefix) {
		p.isSelect = true
		seen := map[string]bool{}
		for _, n := range strings.FieldsFunc(p.text[len(selectPrefix):], isListSeparator) {
			if k := strings.ToLower(n); !seen[k] {
				seen[k] = true
				p.selected = append(p.selected, n)
			}
		}
		return p
	}
	for _, w := range strings.Fields(p.text) {
		if r, ok := strings.CutPrefix(w, "+"); ok {
			if r = strings.TrimLeft(r, "+"); r != "" {
				p.required = append(p.required, r)
			}
			continue
		}
		p.words = append(p.words, w)
	}
	return p
}

// minWordsOutsideQuotes is how many words a request needs outside quotations for the words
// inside to be taken as values rather than as the search itself.
const minWordsOutsideQuotes = 10

// quotedWords marks the words of a request that stand inside quotation marks: the values
// it hands to a tool, such as a message to post, a file's name or content, a title ("tweet
// 'Back from Rome, the hotel was great!'", "write it to 'trip_report.txt'"). Their words
// say what the tool is to act on, not which tool, and often name something else (a hotel,
// a report). Value hints and exact names still see them ("trip_report.txt" asks for a
// file). In a short query the quotation is the search ("find 'github' issues"), so only
// requests with at least minWordsOutsideQuotes other words are marked; a request quoted
// whole has none.
func quotedWords(words []string) []bool {
	marks := make([]bool, len(words))
	open, start, outside := byte(0), 0, 0
	for i, w := range words {
		if open == 0 {
			if c := w[0]; c != '\'' && c != '"' && c != '`' {
				outside++
				continue
			}
			open, start, w = w[0], i, w[1:]
		}
		if t := strings.TrimRight(w, ".,;:!?)]"); t != "" && t[len(t)-1] == open {
			for j := start; j <= i; j++ {
				marks[j] = true
			}
			open = 0
		}
	}
	if open != 0 {
		outside += len(words) - start // an unclosed quotation is no quotation
	}
	if outside < minWordsOutsideQuotes {
		clear(marks)
	}
	return marks
}

func isListSeparator(r rune) bool { return r == ',' || unicode.IsSpace(r) }

// Match says why a hit matched.
type Match int

// Kinds of match. Exact name matches always rank first, then prefix matches, then the rest
// by score. The zero Match is no match at all.
const (
	MatchExact  Match = iota + 1 // the query (or a word of it) is the document's name
	MatchPrefix                  // the query starts the document's name
	MatchText                    // the words matched the document's text
	MatchBrowse                  // nothing matched: an entry to start from, one per server first
)

func (m Match) String() string {
	switch m {
	case MatchExact:
		return "exact"
	case MatchPrefix:
		return "prefix"
	case MatchText:
		return "text"
	case MatchBrowse:
		return "browse"
	}
	return "unknown"
}

// MarshalText makes a Match read as its name in JSON.
func (m Match) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// Hit is one ranked document.
type Hit struct {
	ID    string  `json:"id"`
	Score float64 `json:"score"` // higher is better; stable across runs
	Match Match   `json:"match"`
}

// Result is the answer to a Query.
type Result struct {
	Hits      []Hit               `json:"hits"`
	Total     int                 `json:"total"`               // how many documents matched at all (before Limit)
	Selected  bool                `json:"selected,omitempty"`  // the query was a select: query
	Unknown   []string            `json:"unknown,omitempty"`   // select: names that matched nothing
	Ambiguous map[string][]string `json:"ambiguous,omitempty"` // select: names matching several docs -> candidate IDs (sorted)
	Required  []string            `json:"required,omitempty"`  // the +terms, as parsed
	// Relaxed reports that no document had every +term, so the hits are the best matches
	// of all the words, +terms as plain words.
	Relaxed bool `json:"relaxed,omitempty"`
}

// openerVerbs are the verbs of conversational openers: "help me plan a trip", "show me
// my resource groups", "tell me the weather", "give me a list". Followed by "me" or
// "us" they carry no need; counted, they matched tools named for them (help_me, a
// "show" of one service) rather than what is asked. Other verbs that take "me" are
// needs ("find me a hotel", "get me the weather" ask to find and get).
var openerVerbs = language.set("openers")

// openerWords marks the words of a request that are conversational openers (see
// openerVerbs).
func openerWords(words []string) []bool {
	marks := make([]bool, len(words))
	for i := 0; i+1 < len(words); i++ {
		if !isLetters(words[i]) || !openerVerbs[strings.ToLower(words[i])] {
			continue
		}
		if next := strings.ToLower(strings.TrimRight(words[i+1], ".,;:!?")); next == "me" || next == "us" {
			marks[i] = true
		}
	}
	return marks
}
