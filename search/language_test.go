package search

import (
	"slices"
	"testing"
)

func TestParseLanguage(t *testing.T) {
	d := parseLanguage("# a comment\n[words]\na b # c\n  d\n\n[entries]\nafter that\nfirst\n")
	if got := d.words("words"); !slices.Equal(got, []string{"a", "b", "d"}) {
		t.Errorf("words = %q", got)
	}
	if got := d.entries("entries"); len(got) != 2 || !slices.Equal(got[0], []string{"after", "that"}) {
		t.Errorf("entries = %q", got)
	}
	for _, bad := range []string{"a b\n[words]\n", "[w]\na\n[w]\nb\n"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("parseLanguage(%q) took it", bad)
				}
			}()
			parseLanguage(bad)
		}()
	}
}

// TestLanguageSections: every list the rules read is in language.txt, and not empty.
func TestLanguageSections(t *testing.T) {
	for _, s := range []string{"stop", "abbreviations", "synonyms", "change-verbs", "read-verbs", "list-verbs",
		"question-words", "determiners", "openers", "enumerators", "currencies", "place-leads"} {
		if len(language.entries(s)) == 0 {
			t.Errorf("language.txt: [%s] is empty", s)
		}
	}
	if abbreviations["ls"] != "list" || !stopWords["please"] || !changeVerbs["deleted"] || !openerVerbs["show"] {
		t.Error("language.txt's lists do not reach the rules")
	}
}
