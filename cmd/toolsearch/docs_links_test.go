package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// Every relative link of the README, docs/ and examples/README.md leads to
// a file of the repository, and a link with #anchor to a heading of it.
func TestDocsLinksResolve(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range walkthroughPages(t, root) {
		page, _ := filepath.Rel(root, path)
		for _, l := range markdownLinks(t, path) {
			target, anchor, _ := strings.Cut(l.target, "#")
			file := path
			if target != "" {
				file = filepath.Join(filepath.Dir(path), filepath.FromSlash(target))
				if _, err := os.Stat(file); err != nil {
					t.Errorf("%s:%d: link to %s: no such file", page, l.line, l.target)
					continue
				}
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(file, ".md") {
				t.Errorf("%s:%d: link to %s: an anchor in a file that has no headings", page, l.line, l.target)
				continue
			}
			if !headingAnchors(t, file)[anchor] {
				t.Errorf("%s:%d: link to %s: no heading makes the anchor #%s", page, l.line, l.target, anchor)
			}
		}
	}
}

// The checks of the links test itself: GitHub's anchors, and links in code
// are not links.
func TestMarkdownLinkParsing(t *testing.T) {
	for heading, want := range map[string]string{
		"What the model sees":       "what-the-model-sees",
		"Put `toolsearch` in front": "put-toolsearch-in-front",
		"Set-up, step 2: OAuth":     "set-up-step-2-oauth",
	} {
		if got := anchorOf(heading); got != want {
			t.Errorf("anchorOf(%q) = %q, want %q", heading, got, want)
		}
	}
	dir := t.TempDir()
	writeFile(t, dir, "p.md", "See [a](a.md#x) and `[b](b.md)`.\n```\n[c](c.md)\n```\n[d](https://example.com) [e](#here)\n")
	var got []string
	for _, l := range markdownLinks(t, filepath.Join(dir, "p.md")) {
		got = append(got, l.target)
	}
	if strings.Join(got, " ") != "a.md#x #here" {
		t.Errorf("links %q, want a.md#x and #here", got)
	}
}

type mdLink struct {
	line   int
	target string
}

var (
	mdLinkRE     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	inlineCodeRE = regexp.MustCompile("`[^`]*`")
	schemeRE     = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// markdownLinks returns a page's relative links, outside code.
func markdownLinks(t *testing.T, path string) []mdLink {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var links []mdLink
	inCode := false
	for i, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inCode = !inCode
			continue
		}
		if inCode {
			continue
		}
		for _, m := range mdLinkRE.FindAllStringSubmatch(inlineCodeRE.ReplaceAllString(l, ""), -1) {
			if !schemeRE.MatchString(m[1]) {
				links = append(links, mdLink{i + 1, m[1]})
			}
		}
	}
	return links
}

// headingAnchors are the anchors of a page's headings, as GitHub makes them.
func headingAnchors(t *testing.T, path string) map[string]bool {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]bool{}
	seen := map[string]int{}
	inCode := false
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inCode = !inCode
		}
		if inCode || !strings.HasPrefix(l, "#") {
			continue
		}
		a := anchorOf(strings.TrimLeft(l, "#"))
		if n := seen[a]; n > 0 {
			anchors[a+"-"+strconv.Itoa(n)] = true // GitHub numbers repeated headings
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

// anchorOf is GitHub's anchor of a heading: lower case, spaces to hyphens,
// other punctuation dropped.
func anchorOf(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// walkthroughPages are the pages whose links are checked and whose sh
// blocks are walk-throughs.
func walkthroughPages(t *testing.T, root string) []string {
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append([]string{filepath.Join(root, "README.md"), filepath.Join(root, "examples", "README.md")}, pages...)
	return pages
}
