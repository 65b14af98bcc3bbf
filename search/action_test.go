package search

import (
	"strings"
	"testing"
)

func TestRequestAction(t *testing.T) {
	for _, tc := range []struct {
		request string
		want    actionClass
	}{
		{"Show me the secrets in my vault", actionRead},
		{"What keys are in the key vault?", actionRead},
		{"List all storage accounts", actionRead},
		{"Get all the load test runs", actionRead}, // the leading verb counts, not the noun "runs"
		{"Update secret s1 to value v in the key vault", actionChange},
		{"Can you please create a storage container", actionChange},
		{"Could we eliminate BDX from my list?", actionNone},    // "list" after "my" is a noun
		{"Could you retract that message, please?", actionNone}, // "?" alone does not ask
		{"After a detailed inspection of the order, cancel it", actionChange},
		{"Tweet 'show me the money' from our team account now please, and thanks to all of you", actionNone}, // quoted values
		{"email John the report", actionNone},
		{"copied the files yesterday, now stopping the server", actionChange},
	} {
		words := strings.Fields(tc.request)
		if got := requestAction(words, quotedWords(words), openerWords(words)); got != tc.want {
			t.Errorf("requestAction(%q) = %d, want %d", tc.request, got, tc.want)
		}
	}
}

func TestNameAction(t *testing.T) {
	for _, tc := range []struct {
		name string
		want actionClass
	}{
		{"keyvault_secret_create", actionChange},
		{"keyvault_secret_list", actionRead},
		{"get_or_create_user", actionChange},
		{"SyntheticSettingsApi_get_locations", actionRead}, // "Settings" is no "set"
		{"github__getIssue", actionRead},
		{"delete__list_files", actionRead}, // the server's part does not count
		{"play_song", actionNone},
		{"GorillaFileSystem__rm", actionChange}, // abbreviations spelled out, as the index reads them
		{"fs__ls", actionRead},
	} {
		if got := verbsOfName(tc.name).action(); got != tc.want {
			t.Errorf("verbsOfName(%q).action() = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestVerbForms(t *testing.T) {
	forms := verbForms(strings.Fields("create copy set push list"))
	for _, w := range []string{"create", "creates", "created", "creating", "copies", "copied", "copying",
		"sets", "setting", "pushes", "pushed", "pushing", "lists", "listed", "listing"} {
		if !forms[w] {
			t.Errorf("verbForms lacks %q", w)
		}
	}
	for _, w := range []string{"creation", "settings", "copier", "listings"} {
		if forms[w] {
			t.Errorf("verbForms has the noun %q", w)
		}
	}
}

// Among one resource's tools, a request that only asks prefers the one that reads.
func TestChangeToolLosesAQuestion(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		Document{ID: "secret_create", Name: "secret_create", Kind: KindTool,
			Description: "Create a secret in a vault. The secret gets a name, a value and tags; the secret is stored in the vault."},
		Document{ID: "secret_list", Name: "secret_list", Kind: KindTool, Description: "Enumerate the entries of a vault, by name."},
	)
	checkRanked(t, ix, []rankCase{
		{"what secrets are in my vault", "secret_list", ""},
		{"show me the secrets of the vault", "secret_list", ""},
		{"create a secret named s1 in my vault", "secret_create", ""},
	})
}

func TestListsPlural(t *testing.T) {
	for _, tc := range []struct {
		request, name string
		want          bool
	}{
		{"show me the secrets in my vault", "keyvault_secret_list", true},
		{"show me the secret s1 in my vault", "keyvault_secret_list", false},                                           // the singular asks for one
		{"show me the secrets in my vault", "keyvault_secret_get", false},                                              // a get is no list
		{"what files are in /tmp", "fs__ls", false},                                                                    // "ls" lists, but the name names no files
		{"what files are in /tmp", "ls_files", true},                                                                   // "ls" spelled out is list
		{"show the host pools of my desktop", "virtualdesktop_hostpool_list", true},                                    // a compound's part
		{"check the status of my analysis", "status_list", false},                                                      // "status", "analysis" are no plurals
		{"post 'new secrets for all teams' to the team channel of our company right now please", "secret_list", false}, // quoted values
	} {
		ix := NewIndex()
		ix.Add(Document{ID: tc.name, Name: tc.name, Kind: KindTool, Description: tc.request})
		words := strings.Fields(tc.request)
		if got := ix.listsPlural(0, ix.pluralTerms(words, quotedWords(words))); got != tc.want {
			t.Errorf("listsPlural(%q, %q) = %v, want %v", tc.name, tc.request, got, tc.want)
		}
	}
}
