package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/toolsearch/toolsearch/"

// TestLayout holds the code to the package graph in the Layout section of
// docs/contributing.md: every package of the module is listed there, with exactly the
// packages of the module its code (tests aside) imports.
func TestLayout(t *testing.T) {
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "docs", "contributing.md"))
	if err != nil {
		t.Fatal(err)
	}
	documented := layoutTable(t, string(readme))
	actual := moduleImports(t, root)
	for pkg, imports := range actual {
		want, ok := documented[pkg]
		switch {
		case !ok:
			t.Errorf("package %s is missing from the Layout table of docs/contributing.md", pkg)
		case !slices.Equal(imports, want):
			t.Errorf("%s imports %v; the Layout table of docs/contributing.md says %v", pkg, imports, want)
		}
	}
	for pkg := range documented {
		if _, ok := actual[pkg]; !ok {
			t.Errorf("the Layout table of docs/contributing.md lists %s, which does not exist", pkg)
		}
	}
}

var codeSpan = regexp.MustCompile("`([^`]+)`")

// layoutTable reads the Layout section's table: package(s) | job | imports.
func layoutTable(t *testing.T, readme string) map[string][]string {
	t.Helper()
	_, section, ok := strings.Cut(readme, "\n## Layout\n")
	if !ok {
		t.Fatal("docs/contributing.md has no Layout section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	table := map[string][]string{}
	for line := range strings.SplitSeq(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue // not a row of packages
		}
		imports := []string{}
		for _, m := range codeSpan.FindAllStringSubmatch(cells[3], -1) {
			imports = append(imports, m[1])
		}
		slices.Sort(imports)
		for _, m := range codeSpan.FindAllStringSubmatch(cells[1], -1) {
			table[m[1]] = imports
		}
	}
	if len(table) == 0 {
		t.Fatal("the Layout section of docs/contributing.md has no table of packages")
	}
	return table
}

// moduleImports maps each package of the module (by its path in the module)
// to the packages of the module its non-test files import, sorted.
func moduleImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	pkgs := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		imports := pkgs[pkg]
		if imports == nil {
			imports = []string{}
		}
		for _, spec := range f.Imports {
			if p, ok := strings.CutPrefix(strings.Trim(spec.Path.Value, `"`), module); ok && !slices.Contains(imports, p) {
				imports = append(imports, p)
			}
		}
		pkgs[pkg] = imports
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, imports := range pkgs {
		slices.Sort(imports)
	}
	return pkgs
}
