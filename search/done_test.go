package search

import (
	"slices"
	"strings"
	"testing"
)

func TestPastForms(t *testing.T) {
	for _, tc := range []struct {
		verb string
		want []string
	}{
		{"send", []string{"sent"}},
		{"register", []string{"registerred", "registered"}}, // stress is not written: both
		{"stop", []string{"stopped", "stoped"}},
		{"create", []string{"created"}},
		{"copy", []string{"copied"}},
		{"play", []string{"played"}}, // a vowel before y keeps it
		{"write", []string{"wrote", "written"}},
		{"to", nil}, // too short to read as a verb
		{"v2", nil}, // not a word
	} {
		if got := pastForms(tc.verb); !slices.Equal(got, tc.want) {
			t.Errorf("pastForms(%q) = %v, want %v", tc.verb, got, tc.want)
		}
	}
}

func TestDoneInName(t *testing.T) {
	for _, tc := range []struct {
		request, name string
		want          bool
	}{
		{"review the messages I've sent this week", "send_message", true},
		{"send a message to Ann", "send_message", false},
		{"I sent Ann a message; now send one to Bob", "send_message", false}, // a present form asks for it too
		{"the credit card I registered is about to expire", "mail__register_card", true},
		{"after sorting the list, count its lines", "sort_list", true},          // a gerund after "after" is done
		{"start sorting the list", "sort_list", false},                          // elsewhere it is asked for
		{"show the files I created with 'send_message'", "send_message", false}, // quoted values do not count
		{"list my registered cards", "list_cards", false},                       // only the name's words count
	} {
		words := strings.Fields(tc.request)
		done := doneWords(requestTokens(words, quotedWords(words)))
		if got := doneInName(tc.name, done); got != tc.want {
			t.Errorf("doneInName(%q, doneWords(%q)) = %v, want %v", tc.name, tc.request, got, tc.want)
		}
	}
}

// A request that tells what was done before what it wants ranks the tool that did it
// below its near duplicate, where the words they share made them tie.
func TestDoneToolLosesTheRequest(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		Document{ID: "send_message", Name: "send_message", Kind: KindTool, Description: "A message of a user."},
		Document{ID: "view_message", Name: "view_message", Kind: KindTool, Description: "A message of a user."},
	)
	checkRanked(t, ix, []rankCase{
		{"after sending the message, view the user's message", "view_message", ""},
		{"send the message I viewed to the user", "send_message", ""},
	})
}
