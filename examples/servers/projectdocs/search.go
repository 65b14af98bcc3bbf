package main

import (
	"cmp"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// match is one ranked search hit: a section of a doc.
type match struct {
	Project string
	Path    string // relative to the project, slash-separated
	Title   string // the doc's title
	Heading string // the matching section's heading; "" for the preamble
	Line    int    // 1-based line of the first hit
	Offset  int    // byte offset of the section, for project_doc_read
	Snippet string
	score   int
}

// searchTerms splits a query into distinct lower-case words.
func searchTerms(query string) []string {
	words := strings.FieldsFunc(strings.ToLower(query), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	slices.Sort(words)
	return slices.Compact(words)
}

// search ranks the sections of every doc (of one project, or of all) against
// the query words. Words match as case-insensitive substrings, so "install"
// also finds "Installation".
//
// A section scores, for each word it contains, the word's count in the body
// (capped, so one repetitive section cannot dominate) plus bonuses when the
// word is in its heading, the doc title or the path. The sum is multiplied by
// the number of distinct words found, so sections covering more of the query
// rank first.
func (l *library) search(query, project string) ([]match, error) {
	terms := searchTerms(query)
	if len(terms) == 0 {
		return nil, nil
	}
	quoted := make([]string, len(terms))
	for i, t := range terms {
		quoted[i] = regexp.QuoteMeta(t)
	}
	// Locates the first hit in the original text (lower-casing can change
	// byte offsets, so the snippet is cut from the original).
	firstHit := regexp.MustCompile(`(?i)` + strings.Join(quoted, "|"))

	projects := []string{project}
	if project == "" {
		var err error
		if projects, err = l.projects(); err != nil {
			return nil, err
		}
	} else if _, err := l.projectDir(project); err != nil {
		return nil, err
	}

	var matches []match
	for _, p := range projects {
		docs, err := l.docs(p)
		if err != nil {
			return nil, err
		}
		for _, docPath := range docs {
			text, err := l.readWhole(p, docPath)
			if err != nil {
				continue // vanished or unreadable since listing; not worth failing the search
			}
			doc := parseMarkdown(text)
			title := cmp.Or(doc.Title, path.Base(docPath))
			for _, s := range doc.Sections {
				if m, ok := scoreSection(terms, firstHit, s, strings.ToLower(title), strings.ToLower(docPath)); ok {
					m.Project, m.Path, m.Title = p, docPath, title
					matches = append(matches, m)
				}
			}
		}
	}

	slices.SortStableFunc(matches, func(a, b match) int {
		return cmp.Or(
			cmp.Compare(b.score, a.score),
			cmp.Compare(a.Project, b.Project),
			cmp.Compare(a.Path, b.Path),
			cmp.Compare(a.Line, b.Line),
		)
	})
	return matches, nil
}

func scoreSection(terms []string, firstHit *regexp.Regexp, s section, title, docPath string) (match, bool) {
	body, heading := strings.ToLower(s.Body), strings.ToLower(s.Heading)
	score, found := 0, 0
	for _, t := range terms {
		n, inHeading := strings.Count(body, t), strings.Contains(heading, t)
		// A section must contain the word itself; title and path only boost
		// it, or every section of a doc named "deploy.md" would match "deploy".
		if n == 0 && !inHeading {
			continue
		}
		found++
		score += min(n, 5)
		if inHeading {
			score += 4
		}
		if strings.Contains(title, t) {
			score += 2
		}
		if strings.Contains(docPath, t) {
			score++
		}
	}
	if found == 0 {
		return match{}, false
	}

	m := match{Heading: s.Heading, Line: s.Line, Offset: s.Offset, score: score * found}
	if loc := firstHit.FindStringIndex(s.Body); loc != nil {
		// The body starts on the line after the heading (the preamble has no
		// heading line).
		m.Line += strings.Count(s.Body[:loc[0]], "\n")
		if s.Level > 0 {
			m.Line++
		}
		m.Snippet = snippet(s.Body, loc[0], loc[1])
	} else {
		m.Snippet = snippet(s.Body, 0, 0)
	}
	return m, true
}

// snippet returns about 200 characters of text around text[start:end] on one
// line, with "…" where it was cut.
func snippet(text string, start, end int) string {
	const before, after = 60, 140
	from, to := max(0, start-before), min(len(text), end+after)
	// Move the cut points onto word boundaries so no word or UTF-8 sequence is split.
	if from > 0 {
		if i := strings.IndexAny(text[from:start], " \t\n"); i >= 0 {
			from += i + 1
		} else {
			from = start
		}
	}
	if to < len(text) {
		if i := strings.LastIndexAny(text[end:to], " \t\n"); i >= 0 {
			to = end + i
		} else {
			to = end
		}
	}
	s := strings.Join(strings.Fields(text[from:to]), " ")
	if from > 0 && s != "" {
		s = "…" + s
	}
	if to < len(text) && strings.TrimSpace(text[to:]) != "" && s != "" {
		s += "…"
	}
	return s
}
