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

func TestParticiples(t *testing.T) {
	for _, tc := range []struct{ words, want string }{
		{"the messages I have send so far", "the messages I have sent so far"},
		{"messages I've send.", "messages I've sent."}, // the clause ends
		{"we’ve already write the report", "we’ve already written the report"},
		{"she hasn't pay the bill", "she hasn't paid the bill"},
		{"having send it, list the replies", "having sent it, list the replies"},
		{"I have build errors", "I have build errors"},         // before a content word, a noun
		{"do we have show tickets", "do we have show tickets"}, // likewise
		{"I have to send the file", "I have to send the file"}, // "have to" is no perfect
		{"I have run the tests", "I have run the tests"},       // the participle is the base form
		{"I have list of files", "I have list of files"},       // regular verbs are left alone
		{"send what I have", "send what I have"},
	} {
		if got := strings.Join(participles(strings.Fields(tc.words)), " "); got != tc.want {
			t.Errorf("participles(%q) = %q, want %q", tc.words, got, tc.want)
		}
	}
}

// A request that misspells a participle after "have" asks for the messages sent, not to
// send one.
func TestMisspeltParticiple(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		Document{ID: "send_message", Name: "send_message", Kind: KindTool, Description: "Send a message to a user."},
		Document{ID: "view_messages_sent", Name: "view_messages_sent", Kind: KindTool, Description: "View the messages of a user."},
	)
	checkRanked(t, ix, []rankCase{
		{"show me all the messages I have send so far", "view_messages_sent", ""},
		{"send a message to Ann", "send_message", ""},
	})
}
