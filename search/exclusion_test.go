package search

import "testing"

func TestAffirmative(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"List all keys in a vault. Not for fetching a single key.", "List all keys in a vault. "},
		{"Gets a container's properties. Do not use this tool to list blobs in a container.", "Gets a container's properties. "},
		{"Query one workspace.\r\nWhen NOT to use: the user names a resource - use resource log query instead.\r\nRequires a workspace.",
			"Query one workspace.\r\n \r\nRequires a workspace."},
		{"Gets one run. For a list of runs use testrun list command instead.", "Gets one run. "},
		{"Works on files; don't call it for folders; returns bytes.", "Works on files;  returns bytes."},
		// What the tool is for stays: it is recommended over another, or a "not" that
		// excludes nothing.
		{"Lists a directory. Use this instead of 'execute_command' with ls.", "Lists a directory. Use this instead of 'execute_command' with ls."},
		{"If a name is not provided, returns every account.", "If a name is not provided, returns every account."},
		{"Returns a dummy timeout instead when shutting down.", "Returns a dummy timeout instead when shutting down."},
		{"Now frobnicates instead.", "Now frobnicates instead."},
		{"Gets a run. Instead, use runs_list for many.", "Gets a run. "},
		{"Searches notes, e.g. not for drafts. Fast.", "  Fast."}, // "e.g." ends no sentence
		{"", ""},
	} {
		if got := affirmative(tc.in); got != tc.want {
			t.Errorf("affirmative(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// A tool that says it is not for listing must not win "list the keys" from the one that
// lists them.
func TestExcludedUseDoesNotMatch(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		Document{ID: "key_get", Name: "key_get", Kind: KindTool, Description: "Get details for a single key in a vault. Not for listing multiple keys or listing key versions."},
		Document{ID: "keys_all", Name: "keys_all", Kind: KindTool, Description: "Returns all keys of a vault."},
	)
	checkRanked(t, ix, []rankCase{{"listing keys", "keys_all", ""}})
}

// mayExclude must pass every description that exclusionCue matches.
func TestMayExcludeCoversTheCue(t *testing.T) {
	for _, s := range []string{
		"Not for listing.", "NOT TO BE USED for x.", "Do not use this.", "Don't call it.", "DON'T USE it.",
		"Never use it.", "When NOT to use: x.", "Should not be used for x.", "Use X instead.", "Instead, use y.",
		"must not call z.", "not suitable for y", "Not meant for z.", "not intended for z",
	} {
		if exclusionCue.MatchString(s) && !mayExclude(s) {
			t.Errorf("mayExclude(%q) = false, but the cue matches", s)
		}
		if !exclusionCue.MatchString(s) {
			t.Errorf("the cue does not match %q", s)
		}
	}
	for _, s := range []string{"Notes every nothing; cannot however.", "Lists invoices."} {
		if mayExclude(s) {
			t.Errorf("mayExclude(%q) = true", s)
		}
	}
}
