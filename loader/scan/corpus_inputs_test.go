package scan

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// corpusInputs is where TestCorpusInputs keeps, for each corpus source,
// the count of its samples and a digest of what they hold.
const corpusInputs = "testdata/corpus_inputs.txt"

// TestCorpusInputs checks that the corpora laid out here are the ones the
// figures in BENCHMARKS.md were measured on. The corpora are fetched, not
// committed, and several sources are laid out by hand (a skill written
// inline in a test, a file at another commit), so a new layout can drift
// one invisible character from the last. For each source present it
// compares the count of samples and one sha256 over each sample's id and
// text (a skill's files, a tool's JSON) with testdata/corpus_inputs.txt,
// and names every source that differs. Nothing is scanned, so no verdict
// is seen. TOOLSEARCH_SCAN_INPUTS=update writes the file anew after a
// change of the loaders or the sources.
func TestCorpusInputs(t *testing.T) {
	got := map[string]string{}
	for source, samples := range bySource(loadCorpora(t)) {
		got[source] = inputDigest(t, samples)
	}
	if len(got) == 1 && got["dev split catalog"] != "" {
		t.Skip("no corpus laid out: only the dev split's catalog is here")
	}
	if os.Getenv("TOOLSEARCH_SCAN_INPUTS") == "update" {
		names := make([]string, 0, len(got))
		for name := range got {
			names = append(names, name)
		}
		sort.Strings(names)
		var b strings.Builder
		b.WriteString("# source, samples and sha256 of their ids and texts (TestCorpusInputs)\n")
		for _, name := range names {
			fmt.Fprintf(&b, "%s %s\n", name, got[name])
		}
		if err := os.WriteFile(corpusInputs, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := readCorpusInputs(t)
	var absent []string
	for name, w := range want {
		g, ok := got[name]
		switch {
		case !ok:
			absent = append(absent, name)
		case g != w:
			t.Errorf("%s: samples and digest %s, want %s", name, g, w)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: not in %s (TOOLSEARCH_SCAN_INPUTS=update writes it)", name, corpusInputs)
		}
	}
	if len(absent) > 0 {
		sort.Strings(absent)
		t.Logf("%d sources not laid out here: %s", len(absent), strings.Join(absent, " "))
	}
}

// bySource groups samples by their source, keeping their order.
func bySource(all []sample) map[string][]sample {
	out := map[string][]sample{}
	for _, s := range all {
		out[s.source] = append(out[s.source], s)
	}
	return out
}

// inputDigest is "N sha256" over samples' ids and texts, in the order the
// loader gives them.
func inputDigest(t *testing.T, samples []sample) string {
	h := sha256.New()
	for _, s := range samples {
		fmt.Fprintf(h, "%s\x00", s.id)
		for _, f := range s.skill {
			fmt.Fprintf(h, "%s\x00%d\x00", f.Path, len(f.Data))
			h.Write(f.Data)
		}
		tools := s.tools
		if s.tool != nil {
			tools = []*mcp.Tool{s.tool}
		}
		for _, tool := range tools {
			data, err := json.Marshal(tool)
			if err != nil {
				t.Fatalf("%s %s: %v", s.source, s.id, err)
			}
			h.Write(data)
		}
		h.Write([]byte{'\n'})
	}
	return fmt.Sprintf("%d %x", len(samples), h.Sum(nil)[:8])
}

// readCorpusInputs reads testdata/corpus_inputs.txt: source → "N digest".
func readCorpusInputs(t *testing.T) map[string]string {
	f, err := os.Open(filepath.FromSlash(corpusInputs))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		// The dev split's catalog is named with spaces: the last two
		// fields are the figures.
		fields := strings.Fields(text)
		if len(fields) < 3 {
			t.Fatalf("%s:%d: want a source, a count and a digest", corpusInputs, line)
		}
		n := len(fields)
		want[strings.Join(fields[:n-2], " ")] = fields[n-2] + " " + fields[n-1]
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return want
}
