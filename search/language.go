package search

import (
	_ "embed"
	"fmt"
	"strings"
)

// The English word lists that ranking reads (stop words, abbreviations, synonyms, verb
// classes, openers, …) are data, not code: one file, language.txt, whose comments say
// why each list holds what it holds. Changing a list is then a change of data that the
// evaluation measures (`toolsearch eval --ablate`), not a new rule.

//go:embed language.txt
var languageText string

// language is language.txt by section.
var language = parseLanguage(languageText)

// languageData maps a section's name to its entries: the words of each non-blank line,
// comments left out.
type languageData map[string][][]string

// parseLanguage reads the sections of a language file. It panics on a word before the
// first section or a section named twice: the file is embedded, so a test finds either.
func parseLanguage(text string) languageData {
	d := languageData{}
	section := ""
	for n, line := range strings.Split(text, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		switch {
		case line == "":
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = line[1 : len(line)-1]
			if _, dup := d[section]; dup {
				panic(fmt.Sprintf("language.txt:%d: section [%s] again", n+1, section))
			}
			d[section] = nil
		case section == "":
			panic(fmt.Sprintf("language.txt:%d: words before the first section", n+1))
		default:
			d[section] = append(d[section], strings.Fields(line))
		}
	}
	return d
}

// entries returns a section's entries, panicking if the file has no such section.
func (d languageData) entries(section string) [][]string {
	es, ok := d[section]
	if !ok {
		panic("language.txt has no section [" + section + "]")
	}
	return es
}

// words returns every word of a section.
func (d languageData) words(section string) []string {
	var out []string
	for _, e := range d.entries(section) {
		out = append(out, e...)
	}
	return out
}

// set returns the words of a section as a set.
func (d languageData) set(section string) map[string]bool {
	m := map[string]bool{}
	for _, w := range d.words(section) {
		m[w] = true
	}
	return m
}

// pairs maps each entry's first word to the rest of it, joined by spaces.
func (d languageData) pairs(section string) map[string]string {
	m := map[string]string{}
	for _, e := range d.entries(section) {
		if len(e) > 1 {
			m[e[0]] = strings.Join(e[1:], " ")
		}
	}
	return m
}
