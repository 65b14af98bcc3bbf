package skillsext

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/problem"
	"github.com/toolsearch/toolsearch/loader/skill"
	"github.com/toolsearch/toolsearch/server/internal/mcptest"
)

// memSkill makes a valid skill held in memory, with a SKILL.md and the
// given other files.
func memSkill(name string, version int, files map[string]string) *skill.Skill {
	desc := fmt.Sprintf("Test skill %s. Use when testing.", name)
	md := fmt.Sprintf("---\nname: %s\ndescription: %s\n---\nVersion %d.\n", name, desc, version)
	sk := &skill.Skill{
		Name:        name,
		Description: desc,
		Frontmatter: map[string]any{"name": name, "description": desc},
		Body:        fmt.Sprintf("Version %d.\n", version),
	}
	add := func(p, data string) {
		sum := sha256.Sum256([]byte(data))
		sk.Files = append(sk.Files, skill.File{Path: p, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), Data: []byte(data)})
	}
	add(skill.FileName, md)
	for p, data := range files {
		add(p, data)
	}
	// Files are sorted by path, as the loader keeps them.
	slices.SortFunc(sk.Files, func(a, b skill.File) int { return strings.Compare(a.Path, b.Path) })
	return sk
}

// putSkills replaces the catalog's skills.
func putSkills(c *catalog.Catalog, skills ...*skill.Skill) {
	src := &catalog.Source{Name: loader.SkillsSourceName, Kind: catalog.SourceSkills}
	for _, sk := range skills {
		src.Entries = append(src.Entries, catalog.NewSkillEntry(loader.SkillsSourceName, sk))
	}
	c.Put(src)
}

type listPage struct {
	mcp.ResultBase
	Skills []struct {
		URI       string `json:"uri"`
		Resources []struct {
			URI    string `json:"uri"`
			Digest string `json:"digest"`
		} `json:"resources"`
	} `json:"skills"`
	NextCursor string `json:"nextCursor"`
}

type getResult struct {
	mcp.ResultBase
	Skill struct {
		URI       string `json:"uri"`
		Resources []struct {
			URI    string `json:"uri"`
			Digest string `json:"digest"`
		} `json:"resources"`
	} `json:"skill"`
}

// skillsClient connects a go-sdk client that can call the extension's
// methods, over the given protocol version, to an MCP server that serves
// the catalog's skills and follows its changes.
func skillsClient(t *testing.T, cat *catalog.Catalog, version string) *mcp.ClientSession {
	t.Helper()
	log := slog.New(slog.DiscardHandler)
	ms := mcp.NewServer(&mcp.Implementation{Name: "skills", Version: "1"}, &mcp.ServerOptions{Capabilities: Declare(&mcp.ServerCapabilities{})})
	c := NewConn()
	c.Attach(ms, cat.Snapshot(), log)
	t.Cleanup(cat.Subscribe(func(_, snap *catalog.Snapshot) { c.Sync(ms, snap, log) }))
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	if err := errors.Join(
		mcp.AddSendingCustomMethod[*listSkillsParams, *listPage](client, "skills/list"),
		mcp.AddSendingCustomMethod[*getSkillParams, *getResult](client, "skills/get"),
	); err != nil {
		t.Fatal(err)
	}
	return mcptest.Connect(t, ms, client, version)
}

func listPageAt(t *testing.T, cs *mcp.ClientSession, cursor string) *listPage {
	t.Helper()
	res, err := mcp.CallCustomMethod[*listSkillsParams, *listPage](context.Background(), cs, "skills/list", &listSkillsParams{Cursor: cursor})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestSkillsPagesStayUnderTheFileBudget(t *testing.T) {
	catalog := catalog.New()
	// 401 files a skill: four fit in 2000 manifest entries, a fifth does not.
	var skills []*skill.Skill
	for i := range 9 {
		files := map[string]string{}
		for j := range 400 {
			files[fmt.Sprintf("assets/f%03d.txt", j)] = "x"
		}
		skills = append(skills, memSkill(fmt.Sprintf("big-%d", i), 1, files))
	}
	putSkills(catalog, skills...)
	cs := skillsClient(t, catalog, "2025-11-25")
	var sizes []int
	for cursor := ""; ; {
		page := listPageAt(t, cs, cursor)
		sizes = append(sizes, len(page.Skills))
		for _, sk := range page.Skills {
			if len(sk.Resources) != 401 {
				t.Errorf("%s has %d manifest entries on this page, want all 401", sk.URI, len(sk.Resources))
			}
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	if fmt.Sprint(sizes) != "[4 4 1]" {
		t.Errorf("pages of %v skills, want [4 4 1]", sizes)
	}
}

// TestSkillsCursorSurvivesChanges continues a listing with a cursor from
// before the catalog changed: no skill is listed twice and none that stayed
// is missed.
func TestSkillsCursorSurvivesChanges(t *testing.T) {
	catalog := catalog.New()
	var skills []*skill.Skill
	for i := range 60 {
		skills = append(skills, memSkill(fmt.Sprintf("skill-%03d", i), 1, nil))
	}
	putSkills(catalog, skills...)
	cs := skillsClient(t, catalog, "2026-07-28")
	first := listPageAt(t, cs, "")
	if len(first.Skills) != skillsPerPage || first.NextCursor == "" {
		t.Fatalf("first page: %d skills, cursor %q", len(first.Skills), first.NextCursor)
	}
	// Drop one skill on each side of the page boundary, add one past it.
	putSkills(catalog, slices.Concat(skills[:10], skills[11:50], skills[51:], []*skill.Skill{memSkill("skill-0505", 1, nil)})...)
	var rest []string
	for _, sk := range listPageAt(t, cs, first.NextCursor).Skills {
		rest = append(rest, strings.TrimSuffix(strings.TrimPrefix(sk.URI, "skill://"), "/SKILL.md"))
	}
	want := "skill-0505,skill-051,skill-052,skill-053,skill-054,skill-055,skill-056,skill-057,skill-058,skill-059"
	if got := strings.Join(rest, ","); got != want {
		t.Errorf("second page after the change = %s, want %s", got, want)
	}
}

// orderChecker stands in for an MCP server and checks, whenever sync
// changes what is registered, that the view published at that moment names
// no file or prompt that is not registered.
type orderChecker struct {
	t          *testing.T
	c          *Conn
	registered map[string]bool // resource URIs, and prompt names prefixed "prompt:"
}

func (o *orderChecker) check(when string) {
	v := o.c.view.Load()
	for uri := range v.files {
		if !o.registered[uri] {
			o.t.Errorf("%s: the published view names %s, which is not registered", when, uri)
		}
	}
	for name := range v.byName {
		if !o.registered["prompt:"+name] {
			o.t.Errorf("%s: the published view names prompt %s, which is not registered", when, name)
		}
	}
}

func (o *orderChecker) AddResource(r *mcp.Resource, _ mcp.ResourceHandler) {
	o.check("before adding " + r.URI)
	o.registered[r.URI] = true
}

func (o *orderChecker) RemoveResources(uris ...string) {
	for _, uri := range uris {
		delete(o.registered, uri)
	}
	o.check("after removing resources")
}

func (o *orderChecker) AddPrompt(p *mcp.Prompt, _ mcp.PromptHandler) {
	o.check("before adding prompt " + p.Name)
	o.registered["prompt:"+p.Name] = true
}

func (o *orderChecker) RemovePrompts(names ...string) {
	for _, name := range names {
		delete(o.registered, "prompt:"+name)
	}
	o.check("after removing prompts")
}

// TestSkillsSyncRegistersBeforePublishing checks the order in which a
// connection moves to a new snapshot, and that it ends up registering
// exactly what it publishes.
func TestSkillsSyncRegistersBeforePublishing(t *testing.T) {
	c := NewConn()
	o := &orderChecker{t: t, c: c, registered: map[string]bool{}}
	catalog := catalog.New()
	log := slog.New(slog.DiscardHandler)
	steps := [][]*skill.Skill{
		{memSkill("alpha", 1, map[string]string{"a.md": "a", "old/b.md": "b"}), memSkill("beta", 1, nil)},
		{memSkill("alpha", 2, map[string]string{"a.md": "a2", "new/c.md": "c"}), memSkill("gamma", 1, nil)},
		{},
	}
	for i, skills := range steps {
		putSkills(catalog, skills...)
		c.sync(o, catalog.Snapshot(), log)
		v := c.view.Load()
		if len(o.registered) != len(v.files)+len(v.byName) {
			t.Errorf("step %d: %d registrations for %d files and %d prompts", i, len(o.registered), len(v.files), len(v.byName))
		}
		o.check(fmt.Sprintf("after step %d", i))
	}
	// An older snapshot never replaces a newer one.
	stale := c.view.Load()
	c.sync(o, stale.snap, log)
	if c.view.Load() != stale {
		t.Error("sync to the same snapshot made a new view")
	}
}

// TestSkillsAdvertisedFilesAreReadable reads the files a fresh skills/get
// names while the skill keeps gaining files, through a real MCP server:
// no read of an advertised file fails, and each hashes to its digest.
func TestSkillsAdvertisedFilesAreReadable(t *testing.T) {
	catalog := catalog.New()
	putSkills(catalog, memSkill("live", 0, nil))
	cs := skillsClient(t, catalog, "2025-11-25")
	ctx := context.Background()

	const versions = 20
	var wg sync.WaitGroup
	wg.Go(func() {
		files := map[string]string{}
		for v := 1; v <= versions; v++ {
			// Each version adds a file, which never changes afterwards.
			files[fmt.Sprintf("notes/v%02d.md", v)] = fmt.Sprintf("Notes of version %d.\n", v)
			putSkills(catalog, memSkill("live", v, files))
		}
	})
	for range versions {
		got, err := mcp.CallCustomMethod[*getSkillParams, *getResult](ctx, cs, "skills/get", &getSkillParams{URI: "skill://live/SKILL.md"})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range got.Skill.Resources {
			res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: f.URI})
			if err != nil {
				t.Fatalf("reading %s, advertised by skills/get: %v", f.URI, err)
			}
			sum := sha256.Sum256([]byte(res.Contents[0].Text))
			if f.URI != "skill://live/SKILL.md" && "sha256:"+hex.EncodeToString(sum[:]) != f.Digest {
				t.Errorf("%s: bytes read do not hash to %s", f.URI, f.Digest)
			}
		}
	}
	wg.Wait()
}

func TestSkillViewWithholds(t *testing.T) {
	invalid := memSkill("invalid", 1, nil)
	invalid.Problems = problem.Problems{{Severity: problem.SeverityWarning, Message: `unknown frontmatter key "version"`}}
	hinted := memSkill("hinted", 1, nil)
	hinted.Problems = problem.Problems{{Severity: problem.SeverityHint, Message: "body is long"}}
	numeric := memSkill("numeric", 1, nil)
	numeric.Frontmatter["description"] = 42
	infinite := memSkill("infinite", 1, nil)
	infinite.Frontmatter["license"] = math.Inf(1)
	catalog := catalog.New()
	putSkills(catalog, invalid, hinted, numeric, infinite)

	v := newSkillView(catalog.Snapshot())
	if _, ok := v.byName["hinted"]; !ok || len(v.skills) != 1 {
		t.Errorf("served %d skills; want only hinted: hints do not make a skill invalid", len(v.skills))
	}
	for _, name := range []string{"invalid", "numeric", "infinite"} {
		if v.withheld[name] == "" {
			t.Errorf("%s is not withheld", name)
		}
	}
	if !strings.Contains(v.withheld["invalid"], `unknown frontmatter key "version"`) {
		t.Errorf("withheld for %q; want the rule it breaks", v.withheld["invalid"])
	}
}

func TestSkillViewFolders(t *testing.T) {
	sk := memSkill("forms", 1, map[string]string{
		"references/a.md":        "a",
		"references/deep/b.md":   "b",
		"references/deep/c d.md": "c",
		"z.txt":                  "z",
	})
	catalog := catalog.New()
	putSkills(catalog, sk)
	v := newSkillView(catalog.Snapshot())
	want := map[string]string{
		"skill://forms":                 "skill://forms/SKILL.md skill://forms/references skill://forms/z.txt",
		"skill://forms/references":      "skill://forms/references/a.md skill://forms/references/deep",
		"skill://forms/references/deep": "skill://forms/references/deep/b.md skill://forms/references/deep/c%20d.md",
	}
	checkFolders(t, v, want)
	if v.dirs["skill://forms/references"][1].MIMEType != "inode/directory" {
		t.Error("a subfolder is not an inode/directory resource")
	}
}

// A nested skill is served at its path below the enclosing skill, with a
// manifest of its own files; the enclosing skill's manifest has them too,
// and both share one folder tree.
func TestSkillViewNested(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "forms")
	for p, data := range map[string]string{
		"SKILL.md":                    "---\nname: forms\ndescription: Fill forms. Use for forms.\n---\n",
		"templates/invoice/SKILL.md":  "---\nname: invoice\ndescription: Fill invoices. Use for invoices.\n---\n",
		"templates/invoice/layout.md": "# Layout\n",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(data), 0o644)
	}
	sk, probs := skill.Load(dir)
	if sk == nil || len(sk.Nested) != 1 {
		t.Fatalf("loading: %v", probs)
	}
	catalog := catalog.New()
	putSkills(catalog, sk.Nested[0], sk) // the nested one first: the view must not mind
	v := newSkillView(catalog.Snapshot())
	manifest := func(uri string) string {
		served, ok := v.byURI[uri]
		if !ok {
			t.Fatalf("%s not served; withheld: %v", uri, v.withheld)
		}
		var e struct{ Resources []manifestEntry }
		json.Unmarshal(served.entry, &e)
		var uris []string
		for _, r := range e.Resources {
			uris = append(uris, r.URI)
		}
		return strings.Join(uris, " ")
	}
	if got, want := manifest("skill://forms/SKILL.md"), "skill://forms/SKILL.md skill://forms/templates/invoice/SKILL.md skill://forms/templates/invoice/layout.md"; got != want {
		t.Errorf("forms manifest: %s, want %s", got, want)
	}
	if got, want := manifest("skill://forms/templates/invoice/SKILL.md"), "skill://forms/templates/invoice/SKILL.md skill://forms/templates/invoice/layout.md"; got != want {
		t.Errorf("invoice manifest: %s, want %s", got, want)
	}
	want := map[string]string{
		"skill://forms":                   "skill://forms/SKILL.md skill://forms/templates",
		"skill://forms/templates":         "skill://forms/templates/invoice",
		"skill://forms/templates/invoice": "skill://forms/templates/invoice/SKILL.md skill://forms/templates/invoice/layout.md",
	}
	checkFolders(t, v, want)
	// The nested SKILL.md is the nested skill's resource, named after it.
	if r := v.dirs["skill://forms/templates/invoice"][0]; r.Name != "invoice" {
		t.Errorf("nested SKILL.md resource: %+v", r)
	}
}

// Folders without files are directories too, listed in their parent and
// read as an empty list (not null).
func TestSkillViewEmptyFolders(t *testing.T) {
	sk := memSkill("forms", 1, map[string]string{"references/a.md": "a"})
	sk.EmptyDirs = []string{"assets", "assets/fonts", "references/drafts"}
	catalog := catalog.New()
	putSkills(catalog, sk)
	v := newSkillView(catalog.Snapshot())
	want := map[string]string{
		"skill://forms":                   "skill://forms/SKILL.md skill://forms/assets skill://forms/references",
		"skill://forms/assets":            "skill://forms/assets/fonts",
		"skill://forms/assets/fonts":      "",
		"skill://forms/references":        "skill://forms/references/a.md skill://forms/references/drafts",
		"skill://forms/references/drafts": "",
	}
	checkFolders(t, v, want)
	b, _ := json.Marshal(readDirectoryResult{Resources: v.dirs["skill://forms/assets/fonts"]})
	if !strings.Contains(string(b), `"resources":[]`) {
		t.Errorf("an empty folder reads as %s", b)
	}
}

// checkFolders compares the view's folders with want: each folder's URI and
// the URIs of its children, space-separated.
func checkFolders(t *testing.T, v *skillView, want map[string]string) {
	t.Helper()
	if len(v.dirs) != len(want) {
		t.Errorf("%d folders, want %d", len(v.dirs), len(want))
	}
	for dir, children := range want {
		var got []string
		for _, c := range v.dirs[dir] {
			got = append(got, c.URI)
		}
		if strings.Join(got, " ") != children {
			t.Errorf("%s holds %v, want %s", dir, got, children)
		}
	}
}

func TestEscapePath(t *testing.T) {
	for in, want := range map[string]string{
		"SKILL.md":              "SKILL.md",
		"references/a b.md":     "references/a%20b.md",
		"assets/100%#?.txt":     "assets/100%25%23%3F.txt",
		"docs/été/naïve.md":     "docs/%C3%A9t%C3%A9/na%C3%AFve.md",
		"scripts/run:it@v1.sh":  "scripts/run:it@v1.sh",
		"data/a;b,c[1].csv":     "data/a%3Bb%2Cc%5B1%5D.csv",
		"notes/~draft_-.v2.txt": "notes/~draft_-.v2.txt",
	} {
		got := escapePath(in)
		if got != want {
			t.Errorf("escapePath(%q) = %q, want %q", in, got, want)
		}
		u, err := url.Parse("skill://x/" + got)
		if err != nil || u.Path != "/"+in {
			t.Errorf("skill://x/%s does not parse back to %q: %v", got, in, err)
		}
	}
}
