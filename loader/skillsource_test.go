package loader

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/internal/atomicfile/atomicfiletest"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/problem"
	"github.com/toolsearch/toolsearch/loader/skill"
)

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
	c := catalog.New()
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
	c := catalog.New()
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
func watch(t *testing.T, c *catalog.Catalog, src *SkillSource) <-chan *catalog.Snapshot {
	changes := make(chan *catalog.Snapshot, 16)
	c.Subscribe(func(_, s *catalog.Snapshot) { changes <- s })
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go src.Watch(ctx, 50*time.Millisecond)
	return changes
}

func TestSkillSourceWatch(t *testing.T) {
	root := t.TempDir()
	write(t, root, "one/SKILL.md", "---\nname: one\ndescription: First.\n---\n")
	c := catalog.New()
	src := NewSkillSource([]string{root}, c, nil)
	src.Load()
	changes := watch(t, c, src)
	time.Sleep(100 * time.Millisecond) // let the watcher start

	waitFor := func(what string, ok func(*catalog.Snapshot) bool) {
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
	has := func(s *catalog.Snapshot, name, desc string) bool {
		e, ok := s.Lookup(name)
		return ok && (desc == "" || e.Description == desc)
	}

	write(t, root, "two/SKILL.md", "---\nname: two\ndescription: Second.\n---\n")
	waitFor("a new skill", func(s *catalog.Snapshot) bool { return has(s, "two", "") })

	write(t, root, "two/references/more.md", "more")
	waitFor("a new file in a new subfolder", func(s *catalog.Snapshot) bool {
		e, ok := s.Lookup("two")
		_, has := e.Skill.File("references/more.md")
		return ok && has
	})

	write(t, root, "one/SKILL.md", "---\nname: one\ndescription: Edited.\n---\n")
	waitFor("an edit", func(s *catalog.Snapshot) bool { return has(s, "one", "Edited.") })

	write(t, root, "one/SKILL.md", "---\nname: one\n---\n") // invalid: no description
	waitFor("an invalid skill to go", func(s *catalog.Snapshot) bool { return !has(s, "one", "") })

	os.RemoveAll(filepath.Join(root, "two"))
	waitFor("a removed skill", func(s *catalog.Snapshot) bool { return !has(s, "two", "") })

	// Skills in organizational folders and nested skills are followed too.
	write(t, root, "team/three/SKILL.md", "---\nname: three\ndescription: Third.\n---\n")
	waitFor("a skill in an organizational folder", func(s *catalog.Snapshot) bool { return has(s, "three", "") })
	write(t, root, "team/three/parts/four/SKILL.md", "---\nname: four\ndescription: Fourth.\n---\n")
	waitFor("a nested skill", func(s *catalog.Snapshot) bool {
		e, ok := s.Lookup("four")
		return ok && e.Skill.Path == "team/three/parts/four"
	})
	write(t, root, "team/three/parts/four/SKILL.md", "---\nname: four\ndescription: Edited.\n---\n")
	waitFor("an edit of a nested skill", func(s *catalog.Snapshot) bool { return has(s, "four", "Edited.") })
	os.RemoveAll(filepath.Join(root, "team"))
	waitFor("a removed organizational folder", func(s *catalog.Snapshot) bool { return !has(s, "three", "") && !has(s, "four", "") })
}

// TestSkillSourceWatchCatchesUp: what changes between Load and the watches
// being set up makes no event. A skill added as the server started (an
// end-to-end test on a busy machine) stayed unknown until something else
// changed; an edit made then stayed unread.
func TestSkillSourceWatchCatchesUp(t *testing.T) {
	root := t.TempDir()
	write(t, root, "one/SKILL.md", "---\nname: one\ndescription: First.\n---\n")
	write(t, root, "gone/SKILL.md", "---\nname: gone\ndescription: Removed.\n---\n")
	c := catalog.New()
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
	c := catalog.New()
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

	c := catalog.New()
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
