package search

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseQuery(t *testing.T) {
	tests := []struct {
		in   string
		want parsedQuery
	}{
		{"", parsedQuery{}},
		{"  send slack message ", parsedQuery{text: "send slack message", words: []string{"send", "slack", "message"}}},
		{"+slack send", parsedQuery{text: "+slack send", required: []string{"slack"}, words: []string{"send"}}},
		{"+ send ++x", parsedQuery{text: "+ send ++x", required: []string{"x"}, words: []string{"send"}}},
		{"select:a,b", parsedQuery{text: "select:a,b", isSelect: true, selected: []string{"a", "b"}}},
		{"SELECT: Read, Edit,,Read grep", parsedQuery{text: "SELECT: Read, Edit,,Read grep", isSelect: true, selected: []string{"Read", "Edit", "grep"}}},
		{"select:", parsedQuery{text: "select:", isSelect: true}},
		{"selection of tools", parsedQuery{text: "selection of tools", words: []string{"selection", "of", "tools"}}},
	}
	for _, tt := range tests {
		if got := parseQuery(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseQuery(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestSplitWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"github__create_issue", []string{"github", "create", "createissue", "issue"}},
		{"getHTTPResponse", []string{"get", "http", "response", "gethttp", "httpresponse"}},
		{"GorillaFileSystem.ls", []string{"gorilla", "file", "system", "gorillafile", "filesystem", "ls"}},
		{"mcp-server-chart/base64 v2", []string{"mcp", "mcpserver", "server", "serverchart", "chart", "base64", "v2"}},
		{"北京天气", []string{"北", "北京", "京", "京天", "天", "天气", "气"}},
		{"ÉtatCivil naïveCase", []string{"état", "civil", "étatcivil", "naïve", "case", "naïvecase"}},
		{"user's e-mail", []string{"user", "s", "e", "email", "mail"}},
		{"3D 2FA Http2Server", []string{"3d", "2fa", "http2", "server", "http2server"}},
		{"get_weather_v2", []string{"get", "getweather", "weather", "v2"}},
	}
	for _, tt := range tests {
		var got []string
		emit := func(w []byte) { got = append(got, string(w)) }
		splitWords(tt.in, emit, emit)
		if !slices.Equal(got, tt.want) {
			t.Errorf("splitWords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStem(t *testing.T) {
	for in, want := range map[string]string{
		"caresses": "caress", "ponies": "poni", "cats": "cat", "agreed": "agre",
		"hopping": "hop", "filing": "file", "happy": "happi", "relational": "relat",
		"calculation": "calcul", "calculate": "calcul", "calculating": "calcul",
		"generalization": "gener", "files": "file", "is": "is", "état": "état",
		"added": "add", "adding": "add", "add": "add",
		"news": "news", "new": "new", "general": "general", "generate": "gener",
	} {
		if got := stem(in); got != want {
			t.Errorf("stem(%q) = %q, want %q", in, got, want)
		}
	}
}

// testDocs is a small catalog with name clashes and one-letter names.
func testDocs() []Document {
	return []Document{
		ToolDocument("github__create_issue", "github__create_issue", "Create a new issue in a GitHub repository.",
			[]byte(`{"type":"object","properties":{"repo":{"type":"string","description":"Repository as owner/name"},"title":{"type":"string"}}}`)),
		ToolDocument("github__list_issues", "github__list_issues", "List issues of a GitHub repository, filtered by state.",
			[]byte(`{"properties":{"state":{"enum":["open","closed"]}}}`)),
		ToolDocument("gitlab__create_issue", "gitlab__create_issue", "Open an issue in a GitLab project.", nil),
		ToolDocument("slack__send_message", "slack__send_message", "Send a message to a Slack channel.",
			[]byte(`{"properties":{"channel":{"type":"string","description":"Channel name"},"text":{"type":"string"}}}`)),
		ToolDocument("slack__list_channels", "slack__list_channels", "List the channels of a Slack workspace.", nil),
		{ID: "issue", Name: "issue", Kind: KindTool, Description: "Report the weather."},
		{ID: "a", Name: "a", Kind: KindTool, Description: "The first letter tool."},
		{ID: "b", Name: "b", Kind: KindTool, Description: "The second letter tool."},
		{ID: "jira__new_ticket", Name: "jira__new_ticket", AltNames: []string{"create_ticket"}, Kind: KindTool, Description: "Create a Jira ticket (an issue) in a project."},
		SkillDocument("release-notes", "Write release notes from merged pull requests.", "# Release notes\n\n## Gather issues\nList the closed issues.\n"),
	}
}

func testIndex() *Index {
	ix := NewIndex()
	ix.Add(testDocs()...)
	return ix
}

func hitIDs(r Result) []string {
	ids := make([]string, len(r.Hits))
	for i, h := range r.Hits {
		ids[i] = h.ID
	}
	return ids
}

func TestRankingInvariants(t *testing.T) {
	ix := testIndex()
	tests := []struct {
		name      string
		q         Query
		wantFirst []string // the hits must start with these, in order
		firstSet  []string // the hits must start with these, in any order
		wantMatch Match    // Match of the first hit
		only      []string // if set, the hits must be exactly these, in any order
	}{
		{name: "exact name beats text", q: Query{Text: "issue"}, wantFirst: []string{"issue"}, wantMatch: MatchExact},
		{name: "exact name ignores case", q: Query{Text: "Slack__Send_Message"}, wantFirst: []string{"slack__send_message"}, wantMatch: MatchExact},
		{name: "bare upstream name is exact", q: Query{Text: "create_ticket"}, wantFirst: []string{"jira__new_ticket"}, wantMatch: MatchExact},
		{name: "identifier inside a sentence is exact", q: Query{Text: "please call slack__list_channels now"}, wantFirst: []string{"slack__list_channels"}, wantMatch: MatchExact},
		{name: "prefix before text", q: Query{Text: "slack__", Limit: 10}, only: []string{"slack__list_channels", "slack__send_message"}, wantMatch: MatchPrefix},
		{name: "prefix ranks above text", q: Query{Text: "github", Limit: 10}, firstSet: []string{"github__create_issue", "github__list_issues"}, wantMatch: MatchPrefix},
		{name: "text", q: Query{Text: "post a message to a channel"}, wantFirst: []string{"slack__send_message"}, wantMatch: MatchText},
		{name: "parameter words count", q: Query{Text: "closed"}, wantFirst: []string{"github__list_issues"}},
		{name: "required filters", q: Query{Text: "+slack list", Limit: 10}, only: []string{"slack__list_channels", "slack__send_message"}},
		{name: "required does not dominate", q: Query{Text: "+slack channels list", Limit: 10}, wantFirst: []string{"slack__list_channels"}},
		{name: "required only", q: Query{Text: "+gitlab"}, only: []string{"gitlab__create_issue"}},
		{name: "kind filter", q: Query{Text: "issues", Kind: KindSkill, Limit: 10}, only: []string{"release-notes"}},
		{name: "empty query", q: Query{Text: "   "}, only: []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ix.Search(tt.q)
			got := hitIDs(r)
			if tt.only != nil {
				if !sameSet(got, tt.only) {
					t.Fatalf("hits = %q, want exactly %q", got, tt.only)
				}
			}
			if len(got) < len(tt.wantFirst) || !slices.Equal(got[:len(tt.wantFirst)], tt.wantFirst) {
				t.Fatalf("hits = %q, want them to start with %q", got, tt.wantFirst)
			}
			if len(got) < len(tt.firstSet) || !sameSet(got[:len(tt.firstSet)], tt.firstSet) {
				t.Fatalf("hits = %q, want them to start with %q in any order", got, tt.firstSet)
			}
			if tt.wantMatch != 0 && r.Hits[0].Match != tt.wantMatch {
				t.Errorf("first hit match = %v, want %v", r.Hits[0].Match, tt.wantMatch)
			}
			for i := 1; i < len(r.Hits); i++ {
				if a, b := r.Hits[i-1], r.Hits[i]; a.Score < b.Score || a.Score == b.Score && a.ID > b.ID {
					t.Errorf("hits out of order at %d: %+v", i, r.Hits)
				}
			}
		})
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func TestSearchTotalsAndLimit(t *testing.T) {
	ix := testIndex()
	r := ix.Search(Query{Text: "issue", Limit: 2})
	if len(r.Hits) != 2 {
		t.Fatalf("got %d hits, want 2", len(r.Hits))
	}
	if r.Total < 5 {
		t.Errorf("Total = %d, want every document mentioning issues (>= 5)", r.Total)
	}
	if r := ix.Search(Query{Text: "issue"}); len(r.Hits) != DefaultLimit {
		t.Errorf("default limit gave %d hits, want %d", len(r.Hits), DefaultLimit)
	}
	if r := ix.Search(Query{Text: "+slack +channel send"}); !slices.Equal(r.Required, []string{"slack", "channel"}) {
		t.Errorf("Required = %q", r.Required)
	}
}

func TestSearchDeterministic(t *testing.T) {
	// Identical documents under different IDs tie on score and must come out by ID.
	var docs []Document
	for _, id := range []string{"d", "b", "e", "a", "c"} {
		docs = append(docs, Document{ID: id + "_tool", Name: id + "_tool", Kind: KindTool, Description: "Convert currency amounts."})
	}
	ix := NewIndex()
	ix.Add(docs...)
	want := []string{"a_tool", "b_tool", "c_tool", "d_tool", "e_tool"}
	for range 20 {
		if got := hitIDs(ix.Search(Query{Text: "convert currency", Limit: 10})); !slices.Equal(got, want) {
			t.Fatalf("hits = %q, want %q", got, want)
		}
	}
}

func TestSelect(t *testing.T) {
	ix := testIndex()
	tests := []struct {
		q         string
		kind      string
		want      []string
		unknown   []string
		ambiguous map[string][]string
	}{
		{q: "select:b,a", want: []string{"b", "a"}},
		{q: "select:A", want: []string{"a"}},
		{q: "select:slack__send_message, GITHUB__LIST_ISSUES", want: []string{"slack__send_message", "github__list_issues"}},
		{q: "select:send_message", want: []string{"slack__send_message"}},
		{q: "select:create_ticket,a", want: []string{"jira__new_ticket", "a"}},
		{q: "select:a,nope,b", want: []string{"a", "b"}, unknown: []string{"nope"}},
		{q: "select:create_issue,b", want: []string{"b"},
			ambiguous: map[string][]string{"create_issue": {"github__create_issue", "gitlab__create_issue"}}},
		{q: "select:a,release-notes", kind: KindSkill, want: []string{"release-notes"}, unknown: []string{"a"}},
		{q: "select:", want: []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			r := ix.Search(Query{Text: tt.q, Limit: 1, Kind: tt.kind})
			if !r.Selected {
				t.Error("Selected = false")
			}
			if got := hitIDs(r); !slices.Equal(got, tt.want) {
				t.Errorf("hits = %q, want %q", got, tt.want)
			}
			if !slices.Equal(r.Unknown, tt.unknown) {
				t.Errorf("Unknown = %q, want %q", r.Unknown, tt.unknown)
			}
			if !reflect.DeepEqual(r.Ambiguous, tt.ambiguous) {
				t.Errorf("Ambiguous = %q, want %q", r.Ambiguous, tt.ambiguous)
			}
			if r.Total != len(tt.want) {
				t.Errorf("Total = %d, want %d", r.Total, len(tt.want))
			}
			for _, h := range r.Hits {
				if h.Match != MatchExact {
					t.Errorf("hit %s match = %v, want exact", h.ID, h.Match)
				}
			}
		})
	}
}

// Names are case-sensitive, as MCP's are: of two names that differ only in case,
// select: takes the one written exactly, and asks which is meant when neither is.
func TestSelectCaseVariants(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		Document{ID: "calculate_bmi", Name: "calculate_bmi", Kind: KindTool, Description: "Body mass index."},
		Document{ID: "calculate_BMI", Name: "calculate_BMI", Kind: KindTool, Description: "Body mass index, metric."},
	)
	tests := []struct {
		q         string
		want      []string
		ambiguous map[string][]string
	}{
		{q: "select:calculate_bmi", want: []string{"calculate_bmi"}},
		{q: "select:calculate_BMI", want: []string{"calculate_BMI"}},
		{q: "select:Calculate_Bmi", want: []string{},
			ambiguous: map[string][]string{"Calculate_Bmi": {"calculate_BMI", "calculate_bmi"}}},
	}
	for _, tt := range tests {
		r := ix.Search(Query{Text: tt.q})
		if got := hitIDs(r); !slices.Equal(got, tt.want) {
			t.Errorf("%s: hits = %q, want %q", tt.q, got, tt.want)
		}
		if !reflect.DeepEqual(r.Ambiguous, tt.ambiguous) {
			t.Errorf("%s: Ambiguous = %q, want %q", tt.q, r.Ambiguous, tt.ambiguous)
		}
	}
	// A ranked query for a name finds the name written exactly first, the one
	// that differs from it in case next; in another case, both are exact.
	for _, tt := range []struct {
		q       string
		want    []string
		matches []Match
	}{
		{"calculate_bmi", []string{"calculate_bmi", "calculate_BMI"}, []Match{MatchExact, MatchPrefix}},
		{"calculate_BMI", []string{"calculate_BMI", "calculate_bmi"}, []Match{MatchExact, MatchPrefix}},
		{"Calculate_Bmi", []string{"calculate_BMI", "calculate_bmi"}, []Match{MatchExact, MatchExact}},
	} {
		r := ix.Search(Query{Text: tt.q})
		var matches []Match
		for _, h := range r.Hits {
			matches = append(matches, h.Match)
		}
		if got := hitIDs(r); !slices.Equal(got, tt.want) || !slices.Equal(matches, tt.matches) {
			t.Errorf("%s: hits = %q %v, want %q %v", tt.q, got, matches, tt.want, tt.matches)
		}
	}
}

func TestToolDocument(t *testing.T) {
	schema := `{"type":"object","properties":{
		"unit":{"type":"string","description":"Temperature unit.","enum":["celsius","fahrenheit"]},
		"filter":{"type":"object","properties":{"status":{"type":"string","description":"Issue state"}}},
		"tags":{"type":"array","items":{"type":"object","properties":{"name":{"description":"Tag name"}}}},
		"count":{"type":"integer","description":42}
	}}`
	d := ToolDocument("w__get", "w__get", "Get weather.", []byte(schema))
	want := []Param{
		{Name: "unit", Description: "Temperature unit.", Enum: []string{"celsius", "fahrenheit"}},
		{Name: "filter"},
		{Name: "filter.status", Description: "Issue state"},
		{Name: "tags"},
		{Name: "tags[].name", Description: "Tag name"},
		{Name: "count"},
	}
	if !reflect.DeepEqual(d.Params, want) {
		t.Errorf("Params = %+v,\nwant %+v", d.Params, want)
	}
	if d.Kind != KindTool || d.ID != "w__get" || d.Description != "Get weather." {
		t.Errorf("document = %+v", d)
	}
	for _, bad := range []string{"", "null", "{", `"x"`, `{"properties":[1,2]}`} {
		if d := ToolDocument("x", "x", "", []byte(bad)); len(d.Params) != 0 {
			t.Errorf("schema %q gave params %+v", bad, d.Params)
		}
	}
}

func TestSkillDocument(t *testing.T) {
	body := "---\nname: x\n---\n# Title\ntext\n```\n# not a heading\n```\n##Nope\n## Steps ##\n    # indented code\n"
	d := SkillDocument("x", "Does x.", body)
	if want := []string{"Title", "Steps"}; !slices.Equal(d.Headings, want) {
		t.Errorf("Headings = %q, want %q", d.Headings, want)
	}
	if d.Kind != KindSkill || strings.Contains(d.Body, "name: x") {
		t.Errorf("document = %+v", d)
	}
}

func TestMatchString(t *testing.T) {
	for m, want := range map[Match]string{MatchExact: "exact", MatchPrefix: "prefix", MatchText: "text", MatchBrowse: "browse", 0: "unknown"} {
		if got := m.String(); got != want {
			t.Errorf("Match(%d).String() = %q, want %q", int(m), got, want)
		}
	}
}

// TestIncremental checks that an index changed by Add and Remove answers exactly like a
// fresh index built from the same final documents.
func TestIncremental(t *testing.T) {
	docs := testDocs()
	var more []Document
	for i := range 40 {
		more = append(more, Document{
			ID: fmt.Sprintf("filler_%02d", i), Name: fmt.Sprintf("filler_%02d", i), Kind: KindTool,
			Description: fmt.Sprintf("Filler tool number %d that lists issues and sends messages %d times.", i, i%7),
		})
	}
	changed := NewIndex()
	changed.Add(docs...)
	changed.Add(more...)
	// Trimmed lists must grow again without running over each other.
	changed.Trim()
	// Replace some documents, remove others, add some back: enough churn to compact postings
	// and reuse slots.
	for round := range 3 {
		if round == 1 {
			changed.Trim()
		}
		for i := range more {
			if i%3 == round {
				changed.Remove(more[i].ID)
			}
		}
		changed.Remove("slack__send_message", "does-not-exist")
		for i := range more {
			if i%3 == round {
				more[i].Description = fmt.Sprintf("Replaced tool %d of round %d: creates channels.", i, round)
				changed.Add(more[i])
			}
		}
	}
	replaced := docs[0]
	replaced.Description = "Create a new bug report in a GitHub repository."
	changed.Add(replaced)
	changed.Remove("a")

	fresh := NewIndex()
	var final []Document
	for _, d := range append(slices.Clone(docs), more...) {
		switch d.ID {
		case "slack__send_message", "a":
			continue
		case replaced.ID:
			d = replaced
		}
		final = append(final, d)
	}
	fresh.Add(final...)

	if changed.Len() != fresh.Len() {
		t.Fatalf("Len = %d, want %d", changed.Len(), fresh.Len())
	}
	if r := changed.Search(Query{Text: "select:a"}); len(r.Hits) != 0 {
		t.Error("removed document still there")
	}
	// Every term must count the same live documents as in a fresh build: removal finds a
	// document's terms from what the slot kept, not from the document.
	for term, id := range fresh.termIDs {
		if cid, ok := changed.termIDs[term]; !ok || changed.terms[cid].df != fresh.terms[id].df {
			t.Errorf("term %q: df differs from a fresh build", term)
		}
	}
	for term, id := range changed.termIDs {
		if _, ok := fresh.termIDs[term]; !ok && changed.terms[id].df != 0 {
			t.Errorf("term %q: df %d, not in a fresh build", term, changed.terms[id].df)
		}
	}
	for _, q := range []string{"issue", "bug report", "create channels", "send message", "slack", "filler", "+issues list",
		"select:a,b,send_message", "round 2", "gh_create_isue", "github", "a", "tool"} {
		a := changed.Search(Query{Text: q, Limit: 20})
		b := fresh.Search(Query{Text: q, Limit: 20})
		if !reflect.DeepEqual(a, b) {
			t.Errorf("query %q:\nchanged %+v\nfresh   %+v", q, a, b)
		}
	}
}
