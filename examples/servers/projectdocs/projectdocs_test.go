package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const sampleRoot = "testdata/projects"

// connect serves the docs under root in-process and returns a client session.
func connect(t *testing.T, root string) *mcp.ClientSession {
	t.Helper()
	lib, err := openLibrary(root)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, err := newServer(lib, slog.New(slog.NewTextHandler(io.Discard, nil))).Connect(ctx, serverT, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, clientT, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// call calls a tool and returns its text and whether it was a tool error.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): protocol error %v", tool, args, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// mustCall is call for calls that must succeed.
func mustCall(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	text, isErr := call(t, cs, tool, args)
	if isErr {
		t.Fatalf("%s(%v): tool error %q", tool, args, text)
	}
	return text
}

// writeTree creates files (slash-separated paths relative to dir).
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

func assertContains(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("output lacks %q:\n%s", w, text)
		}
	}
}

func TestListTools(t *testing.T) {
	cs := connect(t, sampleRoot)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.Description == "" {
			t.Errorf("%s has no description", tool.Name)
		}
		if a := tool.Annotations; a == nil || !a.ReadOnlyHint {
			t.Errorf("%s annotations = %+v, want readOnlyHint true", tool.Name, a)
		}
	}
	slices.Sort(names)
	want := []string{"project_doc_read", "project_docs_search", "project_list", "project_readme_summary"}
	if !slices.Equal(names, want) {
		t.Errorf("tools = %v, want %v", names, want)
	}
}

func TestProjectList(t *testing.T) {
	cs := connect(t, sampleRoot)
	got := mustCall(t, cs, "project_list", nil)
	assertContains(t, got,
		"3 projects:",
		"- atlas: 4 docs, Atlas\n",
		"- ledger: 3 docs, Ledger\n",
		"- quill: 2 docs, Quill\n",
	)
}

// TestListingSkips checks that hidden folders, node_modules, non-Markdown
// files and symlinks are left out of projects, counts and search.
func TestListingSkips(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	writeTree(t, root, map[string]string{
		"app/README.md":                  "# App\n\nThe app. marker-visible\n",
		"app/docs/Guide.MD":              "# Guide\n\nmarker-visible\n",
		"app/.git/notes.md":              "# Hidden\n\nmarker-hidden\n",
		"app/node_modules/lib/README.md": "# Dep\n\nmarker-hidden\n",
		"app/notes.txt":                  "marker-hidden\n",
		"bare/notes.md":                  "no heading here, marker-visible\n",
		".hidden/README.md":              "# Hidden project\n",
		"node_modules/README.md":         "# Not a project either\n",
	})
	writeTree(t, outside, map[string]string{"secret.md": "# Secret\n\nmarker-hidden\n"})
	symlink(t, filepath.Join(outside, "secret.md"), filepath.Join(root, "app", "linked.md"))
	symlink(t, outside, filepath.Join(root, "linkedproject"))

	cs := connect(t, root)
	list := mustCall(t, cs, "project_list", nil)
	assertContains(t, list, "2 projects:", "- app: 2 docs, App\n", "- bare: 1 doc, (no README)\n")
	for _, bad := range []string{"hidden", "node_modules", "linkedproject"} {
		if strings.Contains(list, bad) {
			t.Errorf("project_list mentions %q:\n%s", bad, list)
		}
	}

	got := mustCall(t, cs, "project_docs_search", map[string]any{"query": "marker"})
	assertContains(t, got, "3 matches", "app/README.md", "app/docs/Guide.MD", "bare/notes.md")
	if strings.Contains(got, "marker-hidden") {
		t.Errorf("search found skipped content:\n%s", got)
	}
}

func TestSearch(t *testing.T) {
	cs := connect(t, sampleRoot)
	tests := []struct {
		name      string
		args      map[string]any
		wantFirst string   // "project/path" of the top hit, if set
		want      []string // substrings of the output
		notWant   []string
	}{
		{
			name:      "ranks the best section first",
			args:      map[string]any{"query": "cache size"},
			wantFirst: "atlas/docs/configuration.md: Configuration > Cache",
			want:      []string{"`cache.size` limits the tile cache"},
		},
		{
			name:    "case-insensitive prefix match",
			args:    map[string]any{"query": "INSTALL"},
			want:    []string{"ledger/README.md: Ledger > Install"},
			notWant: []string{"No matches"},
		},
		{
			name:    "one project only",
			args:    map[string]any{"query": "currency", "project": "ledger"},
			want:    []string{"in project ledger", "ledger/docs/architecture.md"},
			notWant: []string{"atlas/", "quill/"},
		},
		{
			name: "no matches",
			args: map[string]any{"query": "kubernetes helm"},
			want: []string{`No matches for "kubernetes helm" in all projects.`},
		},
		{
			name: "limit adds a continuation marker",
			args: map[string]any{"query": "the", "limit": 2},
			want: []string{"(showing 1-2)", "call project_docs_search with offset=2"},
		},
		{
			name: "offset pages on",
			args: map[string]any{"query": "the", "limit": 2, "offset": 2},
			want: []string{"(showing 3-4)", "\n3. ", "\n4. ", "offset=4"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustCall(t, cs, "project_docs_search", tt.args)
			if tt.wantFirst != "" && !strings.Contains(got, "\n1. "+tt.wantFirst+" (") {
				t.Errorf("top hit is not %q:\n%s", tt.wantFirst, got)
			}
			assertContains(t, got, tt.want...)
			for _, nw := range tt.notWant {
				if strings.Contains(got, nw) {
					t.Errorf("output contains %q:\n%s", nw, got)
				}
			}
		})
	}
}

// TestSearchOffsetJumpsToSection checks that the offset a search result
// reports starts project_doc_read at that section's heading.
func TestSearchOffsetJumpsToSection(t *testing.T) {
	cs := connect(t, sampleRoot)
	got := mustCall(t, cs, "project_docs_search", map[string]any{"query": "reverse proxy", "limit": 1})
	m := regexp.MustCompile(`atlas/docs/deployment\.md: .* \(line (\d+), offset (\d+)\)`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("no deployment.md hit with an offset:\n%s", got)
	}
	offset, _ := strconv.Atoi(m[2])
	doc := mustCall(t, cs, "project_doc_read", map[string]any{"project": "atlas", "path": "docs/deployment.md", "offset": offset})
	if !strings.Contains(doc, "\n\n## Behind a reverse proxy\n") {
		t.Errorf("read at offset %d does not start at the section:\n%s", offset, doc)
	}
}

func TestToolErrors(t *testing.T) {
	cs := connect(t, sampleRoot)
	tests := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"project_docs_search", map[string]any{"query": "  ...  "}, "at least one word"},
		{"project_docs_search", map[string]any{"query": "cache", "project": "nope"}, "unknown project \"nope\"; available projects: atlas, ledger, quill"},
		{"project_docs_search", map[string]any{"query": "cache", "limit": -1}, "must not be negative"},
		{"project_readme_summary", map[string]any{"project": "nope"}, "unknown project"},
		{"project_readme_summary", map[string]any{"project": ""}, "project is required"},
		{"project_doc_read", map[string]any{"project": "nope", "path": "README.md"}, "unknown project"},
		{"project_doc_read", map[string]any{"project": "atlas", "path": "docs/missing.md"}, "no doc \"docs/missing.md\""},
		{"project_doc_read", map[string]any{"project": "atlas", "path": ""}, "path is required"},
		{"project_doc_read", map[string]any{"project": "atlas", "path": "README.md", "offset": -5}, "must not be negative"},
		{"project_doc_read", map[string]any{"project": "atlas", "path": "README.md", "offset": 1 << 20}, "past the end"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %v", tt.tool, tt.args), func(t *testing.T) {
			got, isErr := call(t, cs, tt.tool, tt.args)
			if !isErr {
				t.Fatalf("want a tool error, got:\n%s", got)
			}
			assertContains(t, got, tt.want)
		})
	}
}

// TestReadRefusals checks that nothing outside a project, or hidden from its
// listing, can be read.
func TestReadRefusals(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	writeTree(t, root, map[string]string{
		"app/README.md":         "# App\n",
		"app/docs/guide.md":     "# Guide\n",
		"app/secret.txt":        "s3cret\n",
		"app/.git/notes.md":     "# hidden\n",
		"app/node_modules/x.md": "# dependency\n",
		"other/README.md":       "# Other\n",
	})
	writeTree(t, outside, map[string]string{"secret.md": "# Outside secret\n", "dir/inner.md": "# Inner\n"})
	symlink(t, filepath.Join(outside, "secret.md"), filepath.Join(root, "app", "escape.md"))
	symlink(t, filepath.Join(outside, "dir"), filepath.Join(root, "app", "linkdir"))
	symlink(t, "../other/README.md", filepath.Join(root, "app", "sibling.md"))
	symlink(t, "secret.txt", filepath.Join(root, "app", "renamed.md"))
	symlink(t, "docs/guide.md", filepath.Join(root, "app", "alias.md"))
	symlink(t, outside, filepath.Join(root, "linkedproject"))

	cs := connect(t, root)
	tests := []struct {
		name, project, path, want string
	}{
		{"absolute path outside", "app", filepath.Join(outside, "secret.md"), "not absolute"},
		{"absolute path inside", "app", filepath.Join(root, "app", "README.md"), "not absolute"},
		{"dot-dot out of the root", "app", "../../" + filepath.Base(outside) + "/secret.md", `must not contain ".."`},
		{"dot-dot to a sibling project", "app", "../other/README.md", `must not contain ".."`},
		{"dot-dot that stays inside", "app", "docs/../README.md", `must not contain ".."`},
		{"symlink to a file outside", "app", "escape.md", "resolves outside the project"},
		{"symlink to a folder outside", "app", "linkdir/inner.md", "resolves outside the project"},
		{"symlink to a sibling project", "app", "sibling.md", "resolves outside the project"},
		{"symlink to a non-doc", "app", "renamed.md", "not a Markdown doc"},
		{"non-Markdown file", "app", "secret.txt", "not a Markdown doc"},
		{"hidden folder", "app", ".git/notes.md", "not a Markdown doc"},
		{"node_modules", "app", "node_modules/x.md", "not a Markdown doc"},
		{"project dot-dot", "..", "README.md", "invalid project name"},
		{"project with a slash", "app/docs", "guide.md", "invalid project name"},
		{"hidden project", ".git", "README.md", "invalid project name"},
		{"symlinked project", "linkedproject", "secret.md", "unknown project"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, isErr := call(t, cs, "project_doc_read", map[string]any{"project": tt.project, "path": tt.path})
			if !isErr {
				t.Fatalf("read %s/%s succeeded:\n%s", tt.project, tt.path, got)
			}
			assertContains(t, got, tt.want)
			if strings.Contains(got, "secret") && strings.Contains(got, "# Outside") {
				t.Errorf("error leaks file content: %s", got)
			}
		})
	}

	// A symlink that stays inside the project is fine.
	if got := mustCall(t, cs, "project_doc_read", map[string]any{"project": "app", "path": "alias.md"}); got != "# Guide\n" {
		t.Errorf("alias.md = %q, want the guide", got)
	}
}

func TestReadSmallDoc(t *testing.T) {
	cs := connect(t, sampleRoot)
	want, err := os.ReadFile(filepath.Join(sampleRoot, "quill", "guides", "themes.md"))
	if err != nil {
		t.Fatal(err)
	}
	got := mustCall(t, cs, "project_doc_read", map[string]any{"project": "quill", "path": "guides/themes.md"})
	if got != string(want) {
		t.Errorf("read = %q, want the file unchanged and unmarked", got)
	}
}

// TestReadContinuation reads long docs chunk by chunk, following the
// truncation markers, and checks that the chunks reassemble the file.
func TestReadContinuation(t *testing.T) {
	var lines, runes strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&lines, "Line %04d of a long document about tile caches.\n", i)
	}
	// No newlines and two-byte characters: cuts must fall between characters.
	for range 20000 {
		runes.WriteString("é")
	}
	root := t.TempDir()
	writeTree(t, root, map[string]string{"big/lines.md": lines.String(), "big/runes.md": runes.String()})
	cs := connect(t, root)

	marker := regexp.MustCompile(`\n\n\[truncated at offset (\d+) of (\d+) bytes: call project_doc_read with offset=(\d+) to continue\]$`)
	header := regexp.MustCompile(`^\[big/\S+ continued from offset (\d+) of \d+ bytes\]\n\n`)

	for _, tt := range []struct {
		path, content string
		wholeLines    bool // chunks should end at line ends
	}{
		{"lines.md", lines.String(), true},
		{"runes.md", runes.String(), false},
	} {
		t.Run(tt.path, func(t *testing.T) {
			var got strings.Builder
			offset, calls := 0, 0
			for {
				calls++
				if calls > 20 {
					t.Fatal("too many calls; continuation does not advance")
				}
				text := mustCall(t, cs, "project_doc_read", map[string]any{"project": "big", "path": tt.path, "offset": offset})
				if offset > 0 {
					h := header.FindStringSubmatch(text)
					if h == nil || h[1] != strconv.Itoa(offset) {
						t.Fatalf("chunk at %d lacks its header: %.80q", offset, text)
					}
					text = text[len(h[0]):]
				}
				m := marker.FindStringSubmatch(text)
				if m == nil {
					got.WriteString(text)
					break
				}
				chunk := text[:len(text)-len(m[0])]
				if len(chunk) > readCap {
					t.Errorf("chunk of %d bytes exceeds the %d cap", len(chunk), readCap)
				}
				if !utf8.ValidString(chunk) {
					t.Errorf("chunk at %d is not valid UTF-8", offset)
				}
				if tt.wholeLines && !strings.HasSuffix(chunk, "\n") {
					t.Errorf("chunk at %d does not end at a line end", offset)
				}
				if m[2] != strconv.Itoa(len(tt.content)) || m[1] != m[3] {
					t.Errorf("marker %q disagrees with the file size %d", m[0], len(tt.content))
				}
				got.WriteString(chunk)
				offset, _ = strconv.Atoi(m[3])
			}
			if calls < 2 {
				t.Errorf("a %d-byte doc was read in one call", len(tt.content))
			}
			if got.String() != tt.content {
				t.Errorf("reassembled %d bytes, want the %d-byte file", got.Len(), len(tt.content))
			}
		})
	}
}

func TestReadmeSummary(t *testing.T) {
	cs := connect(t, sampleRoot)
	got := mustCall(t, cs, "project_readme_summary", map[string]any{"project": "atlas"})
	assertContains(t, got,
		"Title: Atlas\n",
		"\nAtlas is a self-hosted vector map tile server. It reads OpenStreetMap extracts, builds",
		"- Atlas (0)\n  - Features (",
		"  - Quick start (",
		"Docs (4):\n- CHANGELOG.md\n- README.md\n- docs/configuration.md\n- docs/deployment.md\n",
	)
	if strings.Contains(got, "atlas import") {
		t.Errorf("code block leaked into the summary:\n%s", got)
	}

	root := t.TempDir()
	writeTree(t, root, map[string]string{"bare/notes.md": "# Notes\n"})
	got = mustCall(t, connect(t, root), "project_readme_summary", map[string]any{"project": "bare"})
	assertContains(t, got, "Project bare has no README.md.", "Docs (1):\n- notes.md\n")
}

func TestParseMarkdown(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		title    string
		intro    string
		headings []string
	}{
		{
			name:     "title, badges and intro",
			in:       "# Tool #\n\n[![CI](x.svg)](ci)\n\nDoes things\nwell.\n\nMore.\n\n## Use\n",
			title:    "Tool",
			intro:    "Does things well.",
			headings: []string{"Tool", "Use"},
		},
		{
			name:     "front matter title and fenced pseudo-heading",
			in:       "---\ntitle: \"From front matter\"\n---\nIntro text.\n\n```sh\n# not a heading\n```\n## Real\n",
			title:    "From front matter",
			intro:    "Intro text.",
			headings: []string{"Real"},
		},
		{
			name:     "no h1 falls back to the first heading",
			in:       "## Start\nbody\n#hashtag is not a heading\n    # nor is indented code\n",
			title:    "Start",
			intro:    "body #hashtag is not a heading # nor is indented code",
			headings: []string{"Start"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := parseMarkdown(tt.in)
			if doc.Title != tt.title {
				t.Errorf("title = %q, want %q", doc.Title, tt.title)
			}
			if doc.Intro != tt.intro {
				t.Errorf("intro = %q, want %q", doc.Intro, tt.intro)
			}
			var headings []string
			for _, s := range doc.Sections {
				if s.Level == 0 {
					continue
				}
				headings = append(headings, s.Heading)
				if !strings.HasPrefix(tt.in[s.Offset:], strings.Repeat("#", s.Level)+" ") {
					t.Errorf("offset %d of %q does not point at its heading", s.Offset, s.Heading)
				}
			}
			if !slices.Equal(headings, tt.headings) {
				t.Errorf("headings = %q, want %q", headings, tt.headings)
			}
		})
	}
}
