package skill

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/internal/atomicfile/atomicfiletest"
	"github.com/toolsearch/toolsearch/loader/problem"
)

func TestParseSkill(t *testing.T) {
	long := strings.Repeat("x", 1025)
	tests := []struct {
		name     string
		folder   string
		text     string
		wantName string // "" means the skill must be refused
		wantBody string
		want     []string // substrings of problems, each "severity@line: text"
	}{
		{
			name: "minimal", folder: "demo",
			text:     "---\nname: demo\ndescription: Does a thing. Use when asked.\n---\n# Demo\nBody\n",
			wantName: "demo", wantBody: "# Demo\nBody\n",
		},
		{
			name: "CRLF line endings", folder: "demo",
			text:     "---\r\nname: demo\r\ndescription: Does a thing.\r\n---\r\nBody\r\n",
			wantName: "demo", wantBody: "Body\r\n",
			want: []string{"hint@0: SKILL.md has CRLF line endings"},
		},
		{
			name: "byte order mark", folder: "demo",
			text:     "\xef\xbb\xbf---\nname: demo\ndescription: Does a thing.\n---\nBody\n",
			wantName: "demo", wantBody: "Body\n",
			want: []string{"warning@1: SKILL.md starts with a UTF-8 byte order mark"},
		},
		{
			name: "trailing spaces after the delimiters", folder: "demo",
			text:     "---  \nname: demo\ndescription: Does a thing.\n--- \t\nBody\n",
			wantName: "demo", wantBody: "Body\n",
		},
		{
			name: "no frontmatter", folder: "demo",
			text: "# Just markdown\n",
			want: []string{"error@1: no YAML frontmatter"},
		},
		{
			name: "unclosed frontmatter", folder: "demo",
			text: "---\nname: demo\ndescription: x\n",
			want: []string{"error@1: the frontmatter has no closing --- line"},
		},
		{
			name: "missing description", folder: "demo",
			text: "---\nname: demo\n---\nBody\n",
			want: []string{"error@1: description is missing"},
		},
		{
			name: "empty description", folder: "demo",
			text: "---\nname: demo\ndescription: \"  \"\n---\n",
			want: []string{"error@3: description is missing or empty"},
		},
		{
			name: "YAML that does not parse", folder: "demo",
			text: "---\nname: demo\ndescription: [unclosed\n---\n",
			want: []string{"error@3: frontmatter is not valid YAML: did not find expected ',' or ']'"},
		},
		{
			// Lines are the file's, not the frontmatter's, whether the
			// parser, the scanner or the decoder finds the fault.
			name: "YAML error deeper in, after blank lines", folder: "demo",
			text: "\n\n---\nname: demo\ndescription: x\nmetadata:\n  a: [1, 2\n  b: x\n---\n",
			want: []string{"error@7: frontmatter is not valid YAML: did not find expected ',' or ']'"},
		},
		{
			name: "tab in the indentation", folder: "demo",
			text: "---\nname: demo\n\tdescription: x\n---\n",
			want: []string{"error@3: frontmatter is not valid YAML: found a tab character that violates indentation"},
		},
		{
			name: "duplicate key", folder: "demo",
			text: "---\nname: demo\nname: demo\ndescription: x\n---\n",
			want: []string{`error@3: frontmatter is not valid YAML: mapping key "name" already defined at line 2`},
		},
		{
			name: "unquoted colon is retried", folder: "demo",
			text:     "---\nname: demo\ndescription: Use when: the user asks\n---\nBody\n",
			wantName: "demo", wantBody: "Body\n",
			want: []string{"warning@1: frontmatter is not valid YAML (an unquoted colon"},
		},
		{
			name: "name differs from folder", folder: "other",
			text:     "---\nname: demo\ndescription: x\n---\n",
			wantName: "demo",
			want:     []string{`warning@2: name "demo" differs from its folder "other"`},
		},
		{
			name: "invalid name falls back to the folder", folder: "demo",
			text:     "---\nname: My Skill\ndescription: x\n---\n",
			wantName: "demo",
			want:     []string{`warning@2: name "My Skill" must be 1-64 characters`},
		},
		{
			name: "double hyphen", folder: "a--b",
			text:     "---\nname: a--b\ndescription: x\n---\n",
			wantName: "",
			want:     []string{`warning@2: name "a--b" must be`, "error@2: no usable skill name"},
		},
		{
			name: "missing name uses the folder", folder: "demo",
			text:     "---\ndescription: x\n---\n",
			wantName: "demo",
			want:     []string{`warning@1: name is missing; using the folder name "demo"`},
		},
		{
			name: "over-long description loads", folder: "demo",
			text:     "---\nname: demo\ndescription: " + long + "\n---\n",
			wantName: "demo",
			want:     []string{"warning@3: description is 1025 characters, over the 1024 limit"},
		},
		{
			name: "over-long compatibility", folder: "demo",
			text:     "---\nname: demo\ndescription: x\ncompatibility: " + strings.Repeat("c", 501) + "\n---\n",
			wantName: "demo",
			want:     []string{"warning@4: compatibility must be 1-500 characters, got 501"},
		},
		{
			name: "metadata values must be strings", folder: "demo",
			text:     "---\nname: demo\ndescription: x\nmetadata:\n  version: 1.2\n  owner: team\n---\n",
			wantName: "demo",
			want:     []string{`warning@5: metadata value "version" must be a string`},
		},
		{
			name: "metadata must be a map", folder: "demo",
			text:     "---\nname: demo\ndescription: x\nmetadata: [a, b]\n---\n",
			wantName: "demo",
			want:     []string{"warning@4: metadata must be a map of strings to strings"},
		},
		{
			name: "unknown key", folder: "demo",
			text:     "---\nname: demo\ndescription: x\nversion: 2\n---\n",
			wantName: "demo",
			want:     []string{`warning@4: unknown frontmatter key "version"`},
		},
		{
			name: "allowed-tools as a list", folder: "demo",
			text:     "---\nname: demo\ndescription: x\nallowed-tools:\n  - Read\n---\n",
			wantName: "demo",
			want:     []string{"hint@4: allowed-tools is a list"},
		},
		{
			name: "leading blank lines shift line numbers", folder: "demo",
			text:     "\n\n---\nname: demo\ndescription: x\nextra: y\n---\n",
			wantName: "demo",
			want:     []string{`warning@6: unknown frontmatter key "extra"`},
		},
		{
			name: "every problem is reported, not only the first that refuses the skill", folder: "a--b",
			text: "---\nname: a--b\nversion: 2\nmetadata: [a]\n---\n",
			want: []string{`warning@3: unknown frontmatter key "version"`, `warning@2: name "a--b" must be`, "error@2: no usable skill name", "error@1: description is missing", "warning@4: metadata must be a map"},
		},
		{
			name: "all spec fields", folder: "csv-audit",
			text:     "---\nname: csv-audit\ndescription: Check CSV exports.\nlicense: Apache-2.0\ncompatibility: Needs Python 3.11+\nmetadata:\n  version: \"1.2\"\nallowed-tools: Bash(python3:*) Read\n---\n# CSV audit\n",
			wantName: "csv-audit", wantBody: "# CSV audit\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, probs := Parse("SKILL.md", tt.folder, []byte(tt.text))
			var got []string
			for _, p := range probs {
				got = append(got, p.Severity.String()+"@"+itoa(p.Line)+": "+p.Message)
			}
			for _, w := range tt.want {
				if !containsPrefix(got, w) {
					t.Errorf("missing problem %q; got %q", w, got)
				}
			}
			if len(got) != len(tt.want) {
				t.Errorf("got %d problems %q, want %d", len(got), got, len(tt.want))
			}
			if tt.wantName == "" {
				if s != nil {
					t.Fatalf("skill loaded as %q, want it refused", s.Name)
				}
				return
			}
			if s == nil {
				t.Fatalf("skill refused: %q", got)
			}
			if s.Name != tt.wantName {
				t.Errorf("name = %q, want %q", s.Name, tt.wantName)
			}
			if tt.wantBody != "" && s.Body != tt.wantBody {
				t.Errorf("body = %q, want %q", s.Body, tt.wantBody)
			}
		})
	}
}

func TestParseSkillKeepsFrontmatterVerbatim(t *testing.T) {
	text := "---\nname: demo\ndescription: \"Quoted: with colon\"\nlicense: MIT\nmetadata:\n  version: \"1.2\"\n  when: 2024-01-02\n---\nBody\n"
	s, probs := Parse("SKILL.md", "demo", []byte(text))
	if s == nil {
		t.Fatal(probs)
	}
	if got := string(s.FrontmatterYAML); got != "name: demo\ndescription: \"Quoted: with colon\"\nlicense: MIT\nmetadata:\n  version: \"1.2\"\n  when: 2024-01-02\n" {
		t.Errorf("raw frontmatter = %q", got)
	}
	md, _ := s.Frontmatter["metadata"].(map[string]any)
	if s.Frontmatter["description"] != "Quoted: with colon" || md["version"] != "1.2" || md["when"] != "2024-01-02" {
		t.Errorf("frontmatter = %#v", s.Frontmatter)
	}
	if !s.Valid() {
		t.Errorf("valid skill reported invalid: %v", s.Problems)
	}
}

func TestLoadSkillManifest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	write(t, dir, "SKILL.md", "---\nname: demo\ndescription: x\n---\nSee references/a.md\n")
	write(t, dir, "references/a.md", "# A\n")
	write(t, dir, "scripts/run.sh", "#!/bin/sh\necho hi\n")
	write(t, dir, ".git/config", "ignored")
	s, probs := Load(dir)
	if s == nil {
		t.Fatal(probs)
	}
	var paths []string
	for _, f := range s.Files {
		paths = append(paths, f.Path)
	}
	if got, want := strings.Join(paths, ","), "SKILL.md,references/a.md,scripts/run.sh"; got != want {
		t.Errorf("files = %s, want %s", got, want)
	}
	f, ok := s.File("references/a.md")
	sum := sha256.Sum256([]byte("# A\n"))
	if !ok || f.Size != 4 || f.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("references/a.md = %+v", f)
	}
}

// Folders without files are kept apart, so that they can be served as
// directories; they change the skill's digest, since clients can see them.
func TestLoadSkillEmptyFolders(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	write(t, dir, "SKILL.md", "---\nname: demo\ndescription: x\n---\n")
	write(t, dir, "references/a.md", "# A\n")
	for _, d := range []string{"assets/fonts", "references/drafts", ".git/objects"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s, probs := Load(dir)
	if s == nil {
		t.Fatal(probs)
	}
	if got, want := strings.Join(s.EmptyDirs, ","), "assets,assets/fonts,references/drafts"; got != want {
		t.Errorf("empty folders = %s, want %s", got, want)
	}
	before := s.Digest()
	os.Remove(filepath.Join(dir, "assets/fonts"))
	if s, _ = Load(dir); s.Digest() == before {
		t.Error("removing an empty folder left the digest as it was")
	}
}

// A SKILL.md in a folder of a skill makes a nested skill: its files are the
// enclosing skill's as well, and one that cannot load never stops the other.
func TestLoadSkillNested(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "forms")
	write(t, dir, "SKILL.md", "---\nname: forms\ndescription: Fill forms.\n---\n")
	write(t, dir, "templates/invoice/SKILL.md", "---\nname: invoice\ndescription: Fill invoices.\n---\nUse layout.md.\n")
	write(t, dir, "templates/invoice/layout.md", "# Layout\n")
	write(t, dir, "templates/receipt/SKILL.md", "---\nname: not-receipt\ndescription: Misnamed.\n---\n")
	write(t, dir, "templates/broken/SKILL.md", "no frontmatter")
	os.MkdirAll(filepath.Join(dir, "templates/invoice/drafts"), 0o755)
	s, probs := Load(dir)
	if s == nil {
		t.Fatal(probs)
	}
	if len(s.Files) != 5 || s.Path != "forms" {
		t.Errorf("enclosing skill: %d files, path %q", len(s.Files), s.Path)
	}
	var got []string
	for _, n := range s.Nested {
		var files []string
		for _, f := range n.Files {
			files = append(files, f.Path)
		}
		got = append(got, fmt.Sprintf("%s %s [%s] %v valid=%v", n.Name, n.Path, strings.Join(files, " "), n.EmptyDirs, n.Valid()))
	}
	want := []string{
		"invoice forms/templates/invoice [SKILL.md layout.md] [drafts] valid=true",
		"not-receipt forms/templates/receipt [SKILL.md] [] valid=false",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("nested:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := s.Nested[0]; n.Dir != filepath.Join(dir, "templates", "invoice") || n.Body != "Use layout.md.\n" {
		t.Errorf("invoice: dir %s, body %q", n.Dir, n.Body)
	}
	text := probs.Err(problem.SeverityHint).Error()
	for _, want := range []string{"templates/broken/SKILL.md", "templates/receipt/SKILL.md"} {
		if !strings.Contains(text, want) {
			t.Errorf("problems do not name %s:\n%s", want, text)
		}
	}
}

func TestLoadSkillRefusals(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  string
	}{
		{"symlink out of the folder", func(t *testing.T, dir string) {
			outside := filepath.Join(filepath.Dir(dir), "secret.txt")
			write(t, filepath.Dir(dir), "secret.txt", "secret")
			symlink(t, outside, filepath.Join(dir, "leak.txt"))
		}, "symlink leads outside the skill folder"},
		{"SKILL.md over 1 MiB", func(t *testing.T, dir string) {
			write(t, dir, "SKILL.md", "---\nname: demo\ndescription: x\n---\n"+strings.Repeat("a", 1<<20))
		}, "over the 1 MiB limit"},
		{"too many files", func(t *testing.T, dir string) {
			for i := range MaxFiles {
				write(t, dir, filepath.Join("many", itoa(i)+".txt"), "x")
			}
		}, "more than 512 files"},
		{"too many bytes", func(t *testing.T, dir string) {
			for i := range 17 {
				write(t, dir, filepath.Join("big", itoa(i)+".bin"), strings.Repeat("b", 1<<20))
			}
		}, "more than 16 MiB"},
		// Where the file system ignores case, a folder holding skill.md is
		// asked to load (SKILL.md opens), and must say what is wrong.
		{"skill file named skill.md", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "SKILL.md")); err != nil {
				t.Fatal(err)
			}
			write(t, dir, "skill.md", "---\nname: demo\ndescription: x\n---\n")
		}, "must be named exactly SKILL.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(atomicfiletest.TempDir(t), "demo") // also run under Wine (.ci/run)
			write(t, dir, "SKILL.md", "---\nname: demo\ndescription: x\n---\n")
			tt.setup(t, dir)
			s, probs := Load(dir)
			if s != nil {
				t.Fatalf("skill loaded, want it refused")
			}
			if err := probs.Err(problem.SeverityError); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("problems = %v, want %q", probs, tt.want)
			}
		})
	}
}

func TestLoadSkillSymlinkInsideIsKept(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	write(t, dir, "SKILL.md", "---\nname: demo\ndescription: x\n---\n")
	write(t, dir, "references/a.md", "A")
	symlink(t, "references/a.md", filepath.Join(dir, "alias.md"))
	s, probs := Load(dir)
	if s == nil {
		t.Fatal(probs)
	}
	if f, ok := s.File("alias.md"); !ok || string(f.Data) != "A" {
		t.Errorf("alias.md = %+v, %v", f, ok)
	}
}

func TestCleanRelPath(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{"references/a.md", "references/a.md", ""},
		{"./references//a.md", "references/a.md", ""},
		{"SKILL.md", "SKILL.md", ""},
		{"", "", "empty"},
		{"/etc/passwd", "", "absolute"},
		{"../other/SKILL.md", "", "climbs out"},
		{"references/../../x", "", "climbs out"},
	}
	for _, tt := range tests {
		got, err := CleanRelPath(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("CleanRelPath(%q) error = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("CleanRelPath(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func write(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unsupported: %v", err)
	}
}

func containsPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestFrontmatterScalarsFollowTheCoreSchema(t *testing.T) {
	text := "---\nname: demo\ndescription: x\nmetadata:\n  a: \"1\"\nlicense: 017\ncompatibility: 1_000\nx-hex: 0x1F\nx-float: 1.5\nx-bool: yes\nx-true: true\nx-date: 2024-01-02\nx-null: ~\n---\n"
	s, probs := Parse("SKILL.md", "demo", []byte(text))
	if s == nil {
		t.Fatal(probs)
	}
	want := map[string]any{"license": 17, "compatibility": "1_000", "x-hex": 31, "x-float": 1.5, "x-bool": "yes", "x-true": true, "x-date": "2024-01-02", "x-null": nil}
	for k, v := range want {
		if got := s.Frontmatter[k]; got != v {
			t.Errorf("%s = %#v, want %#v", k, got, v)
		}
	}
}
