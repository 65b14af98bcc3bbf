package catalog

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func tool(name string) *mcp.Tool {
	return &mcp.Tool{Name: name, Description: "Does " + name + ".", InputSchema: map[string]any{"type": "object"}}
}

func TestCatalogCollisionsAndReserved(t *testing.T) {
	c := New("tool_search")
	c.Put(&Source{Name: "a", Kind: SourceTools, Entries: []*Entry{NewToolEntry("a", "echo", tool("echo")), NewToolEntry("a", "tool_search", tool("tool_search"))}})
	c.Put(&Source{Name: "b", Kind: SourceTools, Entries: []*Entry{
		NewToolEntry("b", "ECHO", tool("ECHO")), NewToolEntry("b", "echo", tool("echo")), NewToolEntry("b", "b__x", tool("x")),
		NewToolEntry("b", "Tool_Search", tool("Tool_Search")),
	}})
	snap := c.Snapshot()
	var names []string
	for _, e := range snap.Entries {
		names = append(names, e.Source+":"+e.Name)
	}
	// Names are case-sensitive, as MCP's are: ECHO is a tool of its own, and
	// only the same name again collides. The reserved name is reserved in any case.
	if got := strings.Join(names, " "); got != "a:echo b:ECHO b:b__x" {
		t.Errorf("entries = %s", got)
	}
	var reasons []string
	for _, r := range snap.Refused {
		reasons = append(reasons, r.Entry.Source+":"+r.Entry.Name+": "+r.Reason)
	}
	want := []string{`a:tool_search: "tool_search" is reserved`, "b:Tool_Search: \"Tool_Search\" is reserved", "b:echo: name collides with echo from a"}
	slices.Sort(reasons)
	if len(reasons) != len(want) {
		t.Errorf("refused = %q, want %q", reasons, want)
	}
	for i, w := range want {
		if i >= len(reasons) || !strings.HasPrefix(reasons[i], w) {
			t.Errorf("refused = %q, want %q", reasons, want)
			break
		}
	}
	for _, tc := range []struct{ name, want string }{
		{"echo", "a:echo"},
		{"ECHO", "b:ECHO"},
		{"Echo", ""}, // two names differ from it only in case: which is meant?
		{"b__x", "b:b__x"},
		{"B__X", "b:b__x"}, // one name differs only in case: that one
		{"nothing", ""},
	} {
		got := ""
		if e, ok := snap.Lookup(tc.name); ok {
			got = e.Source + ":" + e.Name
		}
		if got != tc.want {
			t.Errorf("Lookup(%s) = %q, want %q", tc.name, got, tc.want)
		}
	}
	var variants []string
	for _, e := range snap.CaseVariants("Echo") {
		variants = append(variants, e.Source+":"+e.Name)
	}
	if got := strings.Join(variants, " "); got != "b:ECHO a:echo" {
		t.Errorf("CaseVariants(Echo) = %s", got)
	}
	if vs := snap.CaseVariants("b__X"); vs != nil {
		t.Errorf("CaseVariants(b__X) = %v, want none: its name is alone", vs)
	}
	// Removing the winner lets the other claimant in, and its case variant
	// is then alone.
	c.Remove("a")
	snap = c.Snapshot()
	if e, ok := snap.Lookup("echo"); !ok || e.Source != "b" || e.Name != "echo" {
		t.Errorf("after removing a, echo = %v, %v", e, ok)
	}
	if e, ok := snap.Lookup("ECHO"); !ok || e.Name != "ECHO" {
		t.Errorf("after removing a, ECHO = %v, %v", e, ok)
	}
}

func TestCatalogSubscribeSeesEveryChangeInOrder(t *testing.T) {
	c := New()
	var versions []uint64
	cancel := c.Subscribe(func(old, new *Snapshot) {
		if new.Version != old.Version+1 {
			t.Errorf("version %d after %d", new.Version, old.Version)
		}
		versions = append(versions, new.Version)
	})
	c.Put(&Source{Name: "a"})
	c.Put(&Source{Name: "b"})
	cancel()
	c.Put(&Source{Name: "c"})
	if len(versions) != 2 || versions[0] != 1 || versions[1] != 2 {
		t.Errorf("versions = %v", versions)
	}
}

func TestSummarize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Get the weather. Supports cities.", "Get the weather."},
		{"  Multi\n line\tdescription  ", "Multi line description"},
		{"Uses e.g. names. Then more.", "Uses e.g. names."},
		{"Version 1.2 of the tool. More.", "Version 1.2 of the tool."},
		{"Is it? Yes.", "Is it?"},
		{strings.Repeat("word ", 40), strings.TrimSpace(strings.Repeat("word ", 23)) + "…"},
	}
	for _, tt := range tests {
		if got := Summarize(tt.in); got != tt.want {
			t.Errorf("Summarize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Prompt names are case-sensitive, as tools' are: two prompts whose names differ
// only in case are both served, each by its own name, and a name in another case
// finds neither, since case cannot say which is meant.
func TestCatalogPromptCaseVariants(t *testing.T) {
	c := New("tool_search")
	c.Put(&Source{Name: "a", Kind: SourceServer, Entries: []*Entry{
		NewPromptEntry("a", "a__review", &mcp.Prompt{Name: "review"}),
		NewPromptEntry("a", "a__Review", &mcp.Prompt{Name: "Review"}),
		NewPromptEntry("a", "a__plan", &mcp.Prompt{Name: "plan"}),
	}})
	c.Put(&Source{Name: "b", Kind: SourceServer, Entries: []*Entry{
		NewPromptEntry("b", "a__review", &mcp.Prompt{Name: "a__review"}), // the same name again
	}})
	snap := c.Snapshot()
	if len(snap.Refused) != 1 || snap.Refused[0].Entry.Source != "b" || !strings.Contains(snap.Refused[0].Reason, "collides with the prompt a__review from a") {
		t.Errorf("refused = %+v, want b's a__review", snap.Refused)
	}
	for _, tc := range []struct{ name, want string }{
		{"a__review", "review"}, {"a__Review", "Review"}, {"A__REVIEW", ""}, {"A__PLAN", "plan"},
	} {
		got := ""
		if e, ok := snap.Prompt(tc.name); ok {
			got = e.Upstream
		}
		if got != tc.want {
			t.Errorf("Prompt(%s) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestCatalogPromptsAndResourcesHaveTheirOwnNameSpaces(t *testing.T) {
	c := New("tool_search")
	c.Put(&Source{Name: "a", Kind: SourceServer, Entries: []*Entry{
		NewToolEntry("a", "a__review", tool("review")),
		NewPromptEntry("a", "a__review", &mcp.Prompt{Name: "review", Description: "Review code."}),
		NewPromptEntry("a", "tool_search", &mcp.Prompt{Name: "tool_search"}), // reserved only among tools
		NewResourceEntry("a", &mcp.Resource{URI: "file:///README.md", Name: "readme"}),
		NewTemplateEntry("a", &mcp.ResourceTemplate{URITemplate: "file:///{path}", Name: "file"}),
	}})
	snap := c.Snapshot()
	if len(snap.Refused) != 0 {
		t.Fatalf("refused: %+v", snap.Refused)
	}
	if e, ok := snap.Lookup("a__review"); !ok || e.Kind != KindTool {
		t.Errorf("Lookup(a__review) = %+v, want the tool", e)
	}
	if e, ok := snap.Prompt("A__Review"); !ok || e.Kind != KindPrompt || e.Upstream != "review" || e.Prompt.Name != "a__review" {
		t.Errorf("Prompt(A__Review) = %+v", e)
	}
	if _, ok := snap.Lookup("file:///README.md"); ok {
		t.Error("Lookup found a resource: it is for tools and skills")
	}
	if e, ok := snap.Resource("file:///README.md"); !ok || e.Summary != "readme" {
		t.Errorf("Resource = %+v", e)
	}
	if _, ok := snap.Resource("file:///readme.md"); ok {
		t.Error("URIs are case-sensitive")
	}
	if e, ok := snap.ResourceTemplate("file:///{path}"); !ok || e.Template == nil {
		t.Errorf("ResourceTemplate = %+v", e)
	}
	var kinds []Kind
	for _, e := range snap.Entries {
		kinds = append(kinds, e.Kind)
	}
	if want := []Kind{KindTool, KindPrompt, KindPrompt, KindResource, KindResource}; !slices.Equal(kinds, want) {
		t.Errorf("entries by kind = %v, want %v", kinds, want)
	}
}

func TestCatalogRefusesAURIThatTwoServersClaim(t *testing.T) {
	res := func(src, uri string) *Entry { return NewResourceEntry(src, &mcp.Resource{URI: uri, Name: uri}) }
	tmpl := func(src, uri string) *Entry {
		return NewTemplateEntry(src, &mcp.ResourceTemplate{URITemplate: uri, Name: uri})
	}
	tests := []struct {
		name       string
		a, b       []*Entry
		served     []string // source:uri
		refused    []string // source:uri
		reasonPart string
	}{
		{
			name:       "both claims are refused",
			a:          []*Entry{res("a", "file:///x"), res("a", "file:///a-only")},
			b:          []*Entry{res("b", "file:///x")},
			served:     []string{"a:file:///a-only"},
			refused:    []string{"a:file:///x", "b:file:///x"},
			reasonPart: "is also claimed by",
		},
		{
			name:       "templates too",
			a:          []*Entry{tmpl("a", "db://{table}")},
			b:          []*Entry{tmpl("b", "db://{table}")},
			refused:    []string{"a:db://{table}", "b:db://{table}"},
			reasonPart: "so no server gets it",
		},
		{
			name:   "a resource and a template of the same text do not clash",
			a:      []*Entry{res("a", "db://{table}")},
			b:      []*Entry{tmpl("b", "db://{table}")},
			served: []string{"a:db://{table}", "b:db://{table}"},
		},
		{
			name:   "hiding one claim settles it",
			a:      []*Entry{res("a", "file:///x")},
			b:      []*Entry{func() *Entry { e := res("b", "file:///x"); e.Policy = PolicyHidden; return e }()},
			served: []string{"a:file:///x"},
		},
		{
			name:       "a server listing a URI twice keeps the first",
			a:          []*Entry{res("a", "file:///x"), func() *Entry { e := res("a", "file:///x"); e.Summary = "second"; return e }()},
			served:     []string{"a:file:///x"},
			refused:    []string{"a:file:///x"},
			reasonPart: "listed more than once by a",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New()
			c.Put(&Source{Name: "a", Kind: SourceServer, Entries: tt.a})
			c.Put(&Source{Name: "b", Kind: SourceServer, Entries: tt.b})
			snap := c.Snapshot()
			var served, refused []string
			for _, e := range snap.Listed() {
				served = append(served, e.Source+":"+e.Name)
				byURI := snap.Resource
				if e.Template != nil {
					byURI = snap.ResourceTemplate
				}
				if got, ok := byURI(e.Name); !ok || got != e {
					t.Errorf("%s is listed but its lookup gives %+v", e.Name, got)
				}
			}
			for _, r := range snap.Refused {
				refused = append(refused, r.Entry.Source+":"+r.Entry.Name)
				if !strings.Contains(r.Reason, tt.reasonPart) {
					t.Errorf("reason %q does not say %q", r.Reason, tt.reasonPart)
				}
			}
			if !slices.Equal(served, tt.served) || !slices.Equal(refused, tt.refused) {
				t.Errorf("served %v refused %v, want %v and %v", served, refused, tt.served, tt.refused)
			}
		})
	}
}

// A description with single spaces only is its own joined fields, and its
// summary is the one made from the whole description joined.
func FuzzSummarize(f *testing.F) {
	for _, s := range []string{"Get the weather.", " lead", "trail ", "two  spaces", "tab\there", "nbsp\u00a0here", "", "a",
		"Uses e.g.  names. Then", strings.Repeat("word  ", 40), strings.Repeat("x", 119) + ".  Next", strings.Repeat("ü ", 70) + "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		joined := strings.Join(strings.Fields(s), " ")
		if singleSpaced(s) && joined != s {
			t.Errorf("%q is not single spaced", s)
		}
		if got, want := Summarize(s), summarizeJoined(s); got != want {
			t.Errorf("Summarize(%q) = %q, want %q", s, got, want)
		}
	})
}

// summarizeJoined is Summarize as it was written first: the whole
// description joined, then cut.
func summarizeJoined(desc string) string {
	s := firstSentence(strings.Join(strings.Fields(desc), " "))
	if utf8.RuneCountInString(s) <= SummaryLen {
		return s
	}
	r := []rune(s)[:SummaryLen-1]
	if i := lastSpace(r); i > SummaryLen/2 {
		r = r[:i]
	}
	return strings.TrimRightFunc(string(r), func(c rune) bool { return unicode.IsPunct(c) || unicode.IsSpace(c) }) + "…"
}

// The catalog orders a source's entries as a stable sort by kind and name
// would: entries alike keep the order the source gave them.
func TestByKindAndName(t *testing.T) {
	kinds := []Kind{KindTool, KindPrompt, KindResource, KindSkill}
	var entries []*Entry
	for i := range 500 {
		entries = append(entries, &Entry{Kind: kinds[i*7%len(kinds)], Name: fmt.Sprintf("e%d", i*13%37), Summary: fmt.Sprint(i)})
	}
	want := slices.Clone(entries)
	slices.SortStableFunc(want, func(a, b *Entry) int {
		if d := kindOrder(a.Kind) - kindOrder(b.Kind); d != 0 {
			return d
		}
		return strings.Compare(a.Name, b.Name)
	})
	if got := byKindAndName(entries); !slices.Equal(got, want) {
		t.Error("not the order of a stable sort")
	}
}
