package profile

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/skill"
)

func toolEntry(src, name string, pol catalog.Policy) *catalog.Entry {
	e := catalog.NewToolEntry(src, src+"__"+name, &mcp.Tool{Name: name, Description: name + ".", InputSchema: json.RawMessage(`{"type":"object"}`)})
	e.Policy = pol
	return e
}

func skillEntry(path string) *catalog.Entry {
	name := path[strings.LastIndexByte(path, '/')+1:]
	return catalog.NewSkillEntry(loader.SkillsSourceName, &skill.Skill{Name: name, Path: path, Description: name + "."})
}

// names lists a catalog's entries as NAME or NAME=POLICY for tools that
// are not callable.
func names(c *catalog.Catalog) string {
	var out []string
	for _, e := range c.Snapshot().Entries {
		s := e.Name
		if e.Kind == catalog.KindTool && e.Policy != catalog.PolicyCallable {
			s += "=" + string(e.Policy)
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

func TestFollow(t *testing.T) {
	main := catalog.New()
	main.Put(&catalog.Source{Name: "github", Kind: catalog.SourceServer, Entries: []*catalog.Entry{
		toolEntry("github", "get_issue", catalog.PolicyCallable),
		toolEntry("github", "get_secret", catalog.PolicyHidden),
		toolEntry("github", "delete_repo", catalog.PolicyCallable),
		toolEntry("github", "create_issue", catalog.PolicyVisibleOnly),
	}})
	main.Put(&catalog.Source{Name: "sentry", Kind: catalog.SourceServer, Entries: []*catalog.Entry{toolEntry("sentry", "list_events", catalog.PolicyCallable)}})
	main.Put(&catalog.Source{Name: "mail", Kind: catalog.SourceServer, State: catalog.StateFailed, LastError: "secret failure"})
	main.Put(&catalog.Source{Name: loader.SkillsSourceName, Kind: catalog.SourceSkills, Entries: []*catalog.Entry{skillEntry("csv-audit"), skillEntry("team/notes"), skillEntry("team/notes/inner"), skillEntry("other")}})

	p := &Profile{
		Name:    "triage",
		Servers: []string{"github", "sentry"},
		Tools:   []string{"github__*", "sentry__list_*"},
		Skills:  []string{"csv-audit", "team/*"},
		Policy: map[string]catalog.Policy{
			"github__delete_*":    catalog.PolicyHidden,
			"github__*":           catalog.PolicyCallable, // cannot widen create_issue or get_secret
			"github__get_issue":   catalog.PolicyVisibleOnly,
			"sentry__list_events": catalog.PolicyCallable,
		},
	}
	if errs := p.Check(); len(errs) > 0 {
		t.Fatal(errs)
	}
	view, stop := Follow(main, p)
	defer stop()
	want := "csv-audit github__create_issue=visible_only github__get_issue=visible_only inner notes sentry__list_events"
	if got := names(view); got != want {
		t.Errorf("view %q\nwant %q", got, want)
	}
	if _, ok := view.Snapshot().Source("mail"); ok {
		t.Error("a server outside the profile is in its view")
	}
	if e, _ := main.Snapshot().Lookup("github__get_issue"); e.Policy != catalog.PolicyCallable {
		t.Error("the profile changed the catalog's own entry")
	}

	// The view follows the catalog.
	main.Put(&catalog.Source{Name: "sentry", Kind: catalog.SourceServer, Entries: []*catalog.Entry{toolEntry("sentry", "list_events", catalog.PolicyCallable), toolEntry("sentry", "list_issues", catalog.PolicyCallable), toolEntry("sentry", "resolve", catalog.PolicyCallable)}})
	main.Remove(loader.SkillsSourceName)
	if got, want := names(view), "github__create_issue=visible_only github__get_issue=visible_only sentry__list_events sentry__list_issues"; got != want {
		t.Errorf("after changes: %q\nwant %q", got, want)
	}
}

// TestFollowAll: a profile without lists is the whole catalog, hidden
// entries left out.
func TestFollowAll(t *testing.T) {
	main := catalog.New()
	main.Put(&catalog.Source{Name: "s", Kind: catalog.SourceServer, Entries: []*catalog.Entry{toolEntry("s", "a", catalog.PolicyCallable), toolEntry("s", "b", catalog.PolicyHidden)}})
	view, stop := Follow(main, &Profile{Name: "all"})
	defer stop()
	if got := names(view); got != "s__a" {
		t.Errorf("view %q", got)
	}
}

func TestCheck(t *testing.T) {
	p := &Profile{Name: "x", Tools: []string{"["}, Skills: []string{"a[", "ok"}, Policy: map[string]catalog.Policy{"*": "sometimes"}}
	errs := p.Check()
	if len(errs) != 3 {
		t.Fatalf("want 3 problems, got %v", errs)
	}
}

// TestCheckOrder: the policy's problems come in the order of its globs,
// the same at every run, so that a fixed configuration reads the same.
func TestCheckOrder(t *testing.T) {
	p := &Profile{Name: "x", Policy: map[string]catalog.Policy{"a": "never", "b": "never", "c": "never", "d": "never", "e": "never", "f": "never"}}
	var got []string
	for _, err := range p.Check() {
		got = append(got, err.Error())
	}
	if !slices.IsSorted(got) || len(got) != 6 {
		t.Errorf("problems out of order:\n%s", strings.Join(got, "\n"))
	}
}
