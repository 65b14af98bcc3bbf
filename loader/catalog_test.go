package loader

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/atomicfile/atomicfiletest"
	"github.com/toolsearch/toolsearch/loader/problem"
	"github.com/toolsearch/toolsearch/loader/skill"
)

func tool(name string) *mcp.Tool {
	return &mcp.Tool{Name: name, Description: "Does " + name + ".", InputSchema: map[string]any{"type": "object"}}
}

func TestCatalogCollisionsAndReserved(t *testing.T) {
	c := NewCatalog("tool_search")
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
	c := NewCatalog()
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

func TestLoadToolsFile(t *testing.T) {
	dir := t.TempDir()
	arr := filepath.Join(dir, "dump.json")
	os.WriteFile(arr, []byte(`[{"name":"echo","description":"Echo it.","inputSchema":{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}}}},{"name":"bad name!"},{"name":"echo"}]`), 0o644)
	list := filepath.Join(dir, "list.json")
	os.WriteFile(list, []byte(`{"tools":[{"name":"get","inputSchema":{"type":"object"}}],"nextCursor":"x"}`), 0o644)

	src, err := LoadToolsFile(arr)
	if err != nil {
		t.Fatal(err)
	}
	if src.Name != "dump" || len(src.Entries) != 1 || src.Entries[0].Name != "echo" {
		t.Fatalf("source = %+v", src)
	}
	if len(src.Problems) != 2 || !strings.Contains(src.Problems[0].Message, "characters outside") || !strings.Contains(src.Problems[1].Message, "appears twice") {
		t.Errorf("problems = %v", src.Problems)
	}
	// The schema stays as written, key order included.
	if got := string(src.Entries[0].Tool.InputSchema.(json.RawMessage)); !strings.Contains(got, `"b":{"type":"string"},"a"`) {
		t.Errorf("schema = %s", got)
	}

	src, err = LoadToolsFile("ns=" + list)
	if err != nil {
		t.Fatal(err)
	}
	if src.Name != "ns" || src.Entries[0].Name != "ns__get" || src.Entries[0].Upstream != "get" {
		t.Errorf("namespaced = %+v", src.Entries[0])
	}
	if _, err := LoadToolsFile(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("missing file: no error")
	}
	os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"x":1}`), 0o644)
	if _, err := LoadToolsFile(filepath.Join(dir, "bad.json")); err == nil || !strings.Contains(err.Error(), "bad.json") {
		t.Errorf("bad file error = %v", err)
	}
}

func TestSkillSourceFirstRootWins(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	write(t, a, "demo/SKILL.md", "---\nname: demo\ndescription: From a.\n---\n")
	write(t, b, "demo/SKILL.md", "---\nname: demo\ndescription: From b.\n---\n")
	write(t, b, "broken/SKILL.md", "no frontmatter")
	write(t, b, "other/SKILL.md", "---\nname: other\ndescription: Other.\n---\n")
	c := NewCatalog()
	probs := NewSkillSource([]string{a, b}, c, nil).Load()
	snap := c.Snapshot()
	if len(snap.Entries) != 2 {
		t.Fatalf("entries = %d, want demo and other", len(snap.Entries))
	}
	if e, _ := snap.Lookup("demo"); e.Description != "From a." {
		t.Errorf("demo from %q", e.Description)
	}
	text := probs.Err(problem.SeverityHint).Error()
	for _, want := range []string{"no YAML frontmatter", `skill "demo" is also defined in`} {
		if !strings.Contains(text, want) {
			t.Errorf("problems %q lack %q", text, want)
		}
	}
}

// Nested skills are entries of their own; a name taken already loses, and a
// folder whose skill loses brings none of its nested skills.
func TestSkillSourceNested(t *testing.T) {
	root := t.TempDir()
	write(t, root, "forms/SKILL.md", "---\nname: forms\ndescription: Fill forms.\n---\n")
	write(t, root, "forms/templates/invoice/SKILL.md", "---\nname: invoice\ndescription: Fill invoices.\n---\n")
	write(t, root, "forms/templates/notes/SKILL.md", "---\nname: notes\ndescription: Nested notes.\n---\n")
	write(t, root, "notes/SKILL.md", "---\nname: notes\ndescription: Top-level notes.\n---\n")
	write(t, root, "zz/SKILL.md", "---\nname: forms\ndescription: Another forms.\n---\n")
	write(t, root, "zz/inner/SKILL.md", "---\nname: inner\ndescription: Inside the loser.\n---\n")
	c := NewCatalog()
	probs := NewSkillSource([]string{root}, c, nil).Load()
	var names []string
	for _, e := range c.Snapshot().Entries {
		names = append(names, e.Name+"="+e.Skill.Path)
	}
	slices.Sort(names)
	if got, want := strings.Join(names, " "), "forms=forms invoice=forms/templates/invoice notes=forms/templates/notes"; got != want {
		t.Errorf("entries %s, want %s", got, want)
	}
	text := probs.Err(problem.SeverityHint).Error()
	for _, want := range []string{`skill "notes" is also defined in`, `skill "forms" is also defined in`} {
		if !strings.Contains(text, want) {
			t.Errorf("problems %q lack %q", text, want)
		}
	}
}

// watch starts src's watcher until the test ends, and returns the catalog's
// snapshots as it publishes them.
func watch(t *testing.T, c *Catalog, src *SkillSource) <-chan *Snapshot {
	changes := make(chan *Snapshot, 16)
	c.Subscribe(func(_, s *Snapshot) { changes <- s })
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go src.Watch(ctx, 50*time.Millisecond)
	return changes
}

func TestSkillSourceWatch(t *testing.T) {
	root := t.TempDir()
	write(t, root, "one/SKILL.md", "---\nname: one\ndescription: First.\n---\n")
	c := NewCatalog()
	src := NewSkillSource([]string{root}, c, nil)
	src.Load()
	changes := watch(t, c, src)
	time.Sleep(100 * time.Millisecond) // let the watcher start

	waitFor := func(what string, ok func(*Snapshot) bool) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case s := <-changes:
				if ok(s) {
					return
				}
			case <-deadline:
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	has := func(s *Snapshot, name, desc string) bool {
		e, ok := s.Lookup(name)
		return ok && (desc == "" || e.Description == desc)
	}

	write(t, root, "two/SKILL.md", "---\nname: two\ndescription: Second.\n---\n")
	waitFor("a new skill", func(s *Snapshot) bool { return has(s, "two", "") })

	write(t, root, "two/references/more.md", "more")
	waitFor("a new file in a new subfolder", func(s *Snapshot) bool {
		e, ok := s.Lookup("two")
		_, has := e.Skill.File("references/more.md")
		return ok && has
	})

	write(t, root, "one/SKILL.md", "---\nname: one\ndescription: Edited.\n---\n")
	waitFor("an edit", func(s *Snapshot) bool { return has(s, "one", "Edited.") })

	write(t, root, "one/SKILL.md", "---\nname: one\n---\n") // invalid: no description
	waitFor("an invalid skill to go", func(s *Snapshot) bool { return !has(s, "one", "") })

	os.RemoveAll(filepath.Join(root, "two"))
	waitFor("a removed skill", func(s *Snapshot) bool { return !has(s, "two", "") })

	// Skills in organizational folders and nested skills are followed too.
	write(t, root, "team/three/SKILL.md", "---\nname: three\ndescription: Third.\n---\n")
	waitFor("a skill in an organizational folder", func(s *Snapshot) bool { return has(s, "three", "") })
	write(t, root, "team/three/parts/four/SKILL.md", "---\nname: four\ndescription: Fourth.\n---\n")
	waitFor("a nested skill", func(s *Snapshot) bool {
		e, ok := s.Lookup("four")
		return ok && e.Skill.Path == "team/three/parts/four"
	})
	write(t, root, "team/three/parts/four/SKILL.md", "---\nname: four\ndescription: Edited.\n---\n")
	waitFor("an edit of a nested skill", func(s *Snapshot) bool { return has(s, "four", "Edited.") })
	os.RemoveAll(filepath.Join(root, "team"))
	waitFor("a removed organizational folder", func(s *Snapshot) bool { return !has(s, "three", "") && !has(s, "four", "") })
}

// TestSkillSourceWatchCatchesUp: what changes between Load and the watches
// being set up makes no event. A skill added as the server started (an
// end-to-end test on a busy machine) stayed unknown until something else
// changed; an edit made then stayed unread.
func TestSkillSourceWatchCatchesUp(t *testing.T) {
	root := t.TempDir()
	write(t, root, "one/SKILL.md", "---\nname: one\ndescription: First.\n---\n")
	write(t, root, "gone/SKILL.md", "---\nname: gone\ndescription: Removed.\n---\n")
	c := NewCatalog()
	src := NewSkillSource([]string{root}, c, nil)
	src.Load()
	write(t, root, "two/SKILL.md", "---\nname: two\ndescription: Second.\n---\n")
	write(t, root, "one/SKILL.md", "---\nname: one\ndescription: Edited.\n---\n")
	os.RemoveAll(filepath.Join(root, "gone"))
	changes := watch(t, c, src)
	select {
	case s := <-changes:
		one, _ := s.Lookup("one")
		_, two := s.Lookup("two")
		_, gone := s.Lookup("gone")
		if one == nil || one.Description != "Edited." || !two || gone {
			t.Errorf("after the watcher started: one %v, two %v, gone %v; want the edit, the new skill and not the removed one", one, two, gone)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the watcher did not read what changed before it started")
	}
}

// TestSkillSourceWatchStartsQuietly: where nothing changed since Load, the
// watcher's start publishes nothing; republishing the same skills rebuilt a
// large catalog at every start.
func TestSkillSourceWatchStartsQuietly(t *testing.T) {
	root := t.TempDir()
	write(t, root, "one/SKILL.md", "---\nname: one\ndescription: First.\n---\n")
	long := time.Now().Add(-time.Hour)
	for _, p := range []string{"one/SKILL.md", "one", ""} {
		if err := os.Chtimes(filepath.Join(root, p), long, long); err != nil {
			t.Fatal(err)
		}
	}
	c := NewCatalog()
	src := NewSkillSource([]string{root}, c, nil)
	src.Load()
	changes := watch(t, c, src)
	select {
	case <-changes:
		t.Error("the watcher published the skills again, with nothing changed")
	case <-time.After(500 * time.Millisecond):
	}
}

// Skill folders are found below organizational folders, to MaxOrgDepth, but
// not inside skill folders (their nested skills belong to them), nor in
// hidden or tooling folders.
//
// Also run under Wine (.ci/run), whose file system ignores case as Windows'
// and macOS's do: there a folder holding skill.md used to be taken for a
// skill and fail to load, where Linux reports it misnamed.
func TestSkillDirs(t *testing.T) {
	root := atomicfiletest.TempDir(t)
	for _, p := range []string{
		"top/SKILL.md",
		"top/inner/SKILL.md",
		"team/a/SKILL.md",
		"eng/backend/b/SKILL.md",
		"l1/l2/l3/c/SKILL.md", // four folders deep: too deep
		"l1/l2/d/SKILL.md",
		".hidden/e/SKILL.md",
		"node_modules/f/SKILL.md",
		"team/misnamed/skill.md",
		"empty/notes.txt",
	} {
		name := filepath.Base(filepath.Dir(p))
		write(t, root, p, "---\nname: "+name+"\ndescription: The "+name+" skill.\n---\n")
	}
	dirs, probs, err := skill.Dirs(root)
	if err != nil {
		t.Fatal(err)
	}
	var rels []string
	for _, d := range dirs {
		rel, _ := filepath.Rel(root, d)
		rels = append(rels, filepath.ToSlash(rel))
	}
	if got, want := strings.Join(rels, " "), "eng/backend/b l1/l2/d team/a top"; got != want {
		t.Errorf("skill folders %s, want %s", got, want)
	}
	if len(probs) != 1 || !strings.Contains(probs[0].File, "misnamed") {
		t.Errorf("problems %v, want the misnamed skill file", probs)
	}

	c := NewCatalog()
	NewSkillSource([]string{root}, c, nil).Load()
	var paths []string
	for _, e := range c.Snapshot().Entries {
		paths = append(paths, e.Skill.Path)
	}
	slices.Sort(paths)
	if got, want := strings.Join(paths, " "), "eng/backend/b l1/l2/d team/a top top/inner"; got != want {
		t.Errorf("skill paths %s, want %s", got, want)
	}
}

// Prompt names are case-sensitive, as tools' are: two prompts whose names differ
// only in case are both served, each by its own name, and a name in another case
// finds neither, since case cannot say which is meant.
func TestCatalogPromptCaseVariants(t *testing.T) {
	c := NewCatalog("tool_search")
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
	c := NewCatalog("tool_search")
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
			c := NewCatalog()
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

func TestWatchFilesSeesReplacementsAndNewFiles(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "toolsearch.yaml")
	other := filepath.Join(dir, "unrelated.txt")
	if err := os.WriteFile(cfg, []byte("a: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	changed := make(chan struct{}, 8)
	later := filepath.Join(dir, ".mcp.json") // does not exist yet
	go WatchFiles(ctx, 20*time.Millisecond, func() []string { return []string{cfg, later} }, func() { changed <- struct{}{} }, nil)

	wait := func(what string) {
		t.Helper()
		select {
		case <-changed:
		case <-time.After(10 * time.Second):
			t.Fatalf("no change seen after %s", what)
		}
	}
	// An editor's save: write a temporary file, rename it over the old one.
	// Until the watch is in place, saves go unseen: save until one is seen.
	for seen := false; !seen; {
		tmp := filepath.Join(dir, ".toolsearch.yaml.swp")
		os.WriteFile(tmp, []byte("a: 2\n"), 0o644)
		os.Rename(tmp, cfg)
		select {
		case <-changed:
			seen = true
		case <-time.After(100 * time.Millisecond):
		}
	}
	for len(changed) > 0 {
		<-changed
	}
	os.WriteFile(later, []byte("{}"), 0o644)
	wait("a new file")
	os.WriteFile(other, []byte("x"), 0o644)
	select {
	case <-changed:
		t.Error("a change to another file in the folder was reported")
	case <-time.After(200 * time.Millisecond):
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
