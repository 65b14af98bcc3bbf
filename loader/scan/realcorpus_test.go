package scan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The public corpora of testdata/corpus/README.md: skills and tool
// definitions written by others, clean and poisoned, that the scanner was
// not written against. They are fetched, not committed; the tests here skip
// when they are absent. TOOLSEARCH_SCAN_CORPORA names another folder.
func corpusRoot() string {
	if dir := os.Getenv("TOOLSEARCH_SCAN_CORPORA"); dir != "" {
		return dir
	}
	return filepath.Join("testdata", "corpus")
}

// A sample is one skill or tool definition of a corpus.
type sample struct {
	source  string // the corpus, owner+name
	heldOut bool   // of a held-out source (testdata/corpus/README.md)
	id      string
	attack  bool
	// harvest marks an attack skill that harvests credentials or sends
	// one away, which the targets count on their own.
	harvest bool
	// probe marks a clean skill written for a scanner's tests (a
	// look-alike of an attack), counted apart from real skills.
	probe bool
	skill []File // for a skill: its text files
	dir   string
	tool  *mcp.Tool
	// tools is a listing that is one attack (one tool of several
	// poisoned): caught when any of its tools is.
	tools []*mcp.Tool
}

func (s *sample) scan() []Finding {
	if s.tool != nil {
		return Tool(s.tool)
	}
	if s.tools != nil {
		var out []Finding
		for _, t := range s.tools {
			out = append(out, Tool(t)...)
		}
		return out
	}
	return SkillFiles(s.dir, s.skill)
}

// loadSkillDirs reads every folder with a SKILL.md under root as a skill
// with its text files (binary files are never served as text).
func loadSkillDirs(tb testing.TB, source, root string, attack func(dir string) bool) []sample {
	var out []sample
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "SKILL.md" {
			return nil
		}
		dir := filepath.Dir(p)
		rel, _ := filepath.Rel(root, dir)
		if attack != nil && !attack(rel) {
			return nil
		}
		var files []File
		filepath.WalkDir(dir, func(q string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return nil
			}
			data, err := os.ReadFile(q)
			if err != nil || bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) || len(data) > 1<<20 {
				return nil
			}
			r, _ := filepath.Rel(dir, q)
			files = append(files, File{Path: filepath.ToSlash(r), Data: data})
			return nil
		})
		out = append(out, sample{source: source, id: rel, attack: attack != nil, skill: files, dir: rel})
		return nil
	})
	return out
}

// loadSnaps reads the tool snapshots of github-mcp-server.
func loadSnaps(tb testing.TB, dir string) []sample {
	files, _ := filepath.Glob(filepath.Join(dir, "*.snap"))
	var out []sample
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var t mcp.Tool
		if err := json.Unmarshal(data, &t); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		out = append(out, sample{source: "github+github-mcp-server", id: t.Name, tool: &t})
	}
	return out
}

// Python MCP servers declare a tool with a decorator over a function whose
// docstring is the description and whose parameters are the schema.
var (
	pyToolRE  = regexp.MustCompile(`(?m)^[ \t]*@\w+(?:\.\w+)*\.tool\((?s:(.*?))\)\s*\n[ \t]*(?:async\s+)?def\s+(\w+)\s*\(((?s:.*?))\)\s*(?:->\s*[^:]+)?:\s*\n[ \t]*(?:r?("""|'''))?`)
	pyParamRE = regexp.MustCompile(`(\w+)\s*(?::\s*([\w\[\], .|]+?))?\s*(?:=\s*([^,]+))?\s*(?:,|$)`)
	pyDocRE   = regexp.MustCompile(`(?s)(\w+)\.__doc__\s*=\s*"""(.*?)"""`)
	pyDescRE  = regexp.MustCompile(`description\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')`)
)

// pyTools extracts the tool definitions a Python server lists.
func pyTools(src string) []*mcp.Tool {
	var out []*mcp.Tool
	for _, m := range pyToolRE.FindAllStringSubmatchIndex(src, -1) {
		deco, name, params := src[m[2]:m[3]], src[m[4]:m[5]], src[m[6]:m[7]]
		desc := ""
		if m[8] >= 0 {
			quote := src[m[8]:m[9]]
			if end := strings.Index(src[m[1]:], quote); end >= 0 {
				desc = dedent(src[m[1] : m[1]+end])
			}
		}
		if d := pyDescRE.FindStringSubmatch(deco); d != nil {
			desc = d[1] + d[2]
		}
		props := map[string]any{}
		for _, p := range pyParamRE.FindAllStringSubmatch(strings.Join(strings.Fields(params), " "), -1) {
			if p[1] == "self" || p[1] == "ctx" || strings.Contains(p[2], "Context") {
				continue
			}
			prop := map[string]any{"type": "string", "title": p[1]}
			if d := strings.Trim(strings.TrimSpace(p[3]), `"'`); d != "" && d != "None" {
				prop["default"] = d
			}
			props[p[1]] = prop
		}
		schema, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
		out = append(out, &mcp.Tool{Name: name, Description: desc, InputSchema: json.RawMessage(schema)})
	}
	// A server that swaps a tool's docstring later (a rug pull) lists the
	// tool with it then.
	for _, m := range pyDocRE.FindAllStringSubmatch(src, -1) {
		for _, t := range out {
			if t.Name == m[1] {
				swapped := *t
				swapped.Description = dedent(m[2])
				out = append(out, &swapped)
				break
			}
		}
	}
	return out
}

func dedent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// loadMSB reads the MSB attack servers: each variant file changes some
// tools of its base server; a changed definition (description or
// parameters; the name alone is the name_overlap attack, whose payload is
// not text) is an attack, an unchanged one is left out.
func loadMSB(tb testing.TB, root string) []sample {
	var out []sample
	variants, _ := filepath.Glob(filepath.Join(root, "data/tools/attack_tools/*/*/*-*.py"))
	for _, v := range variants {
		base := v[:strings.LastIndex(v, "-")]
		for _, kind := range []string{"-preference_manipulation", "-out_of_scope_parameter", "-name_overlap", "-tool_transfer"} {
			base = strings.TrimSuffix(base, kind)
		}
		if !strings.HasSuffix(base, ".py") {
			base += ".py"
		}
		b, errB := os.ReadFile(base)
		a, errA := os.ReadFile(v)
		if errA != nil || errB != nil {
			continue
		}
		clean := map[string]bool{}
		for _, t := range pyTools(string(b)) {
			clean[t.Description+"\x00"+string(t.InputSchema.(json.RawMessage))] = true
		}
		for _, t := range pyTools(string(a)) {
			if clean[t.Description+"\x00"+string(t.InputSchema.(json.RawMessage))] {
				continue
			}
			rel, _ := filepath.Rel(root, v)
			out = append(out, sample{source: "dongsenzhang+MSB", id: rel + ":" + t.Name, attack: true, tool: t})
		}
	}
	return out
}

// loadPyServers reads the tools of Python servers; keep says which are
// attacks whose payload is in the definition.
func loadPyServers(tb testing.TB, source, root string, globs []string, keep func(file string, t *mcp.Tool) bool) []sample {
	var out []sample
	for _, g := range globs {
		files, _ := filepath.Glob(filepath.Join(root, g))
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			rel, _ := filepath.Rel(root, f)
			for _, t := range pyTools(string(src)) {
				if keep(rel, t) {
					out = append(out, sample{source: source, id: rel + ":" + t.Name, attack: true, tool: t})
				}
			}
		}
	}
	return out
}

// textAttackTools are the tools of mcp-scanner's malicious example servers
// whose definition carries the payload (the others' harm is in code or
// responses): a reviewer's reading of each. Every tool of its evals'
// prompt-injection category does.
var textAttackTools = map[string]bool{
	"examples/example-malicious-servers/line_jumping_server.py:send_mail":                          true,
	"examples/example-malicious-servers/line_jumping_server.py:retrieve_logs":                      true,
	"examples/example-malicious-servers/line_jumping_server.py:get_workstation_environment":        true,
	"examples/example-malicious-servers/malicious_mcp_streamable_server.py:execute_system_command": true,
	"examples/example-malicious-servers/malicious_mcp_streamable_server.py:run_injection_code":     true,
	"examples/example-malicious-servers/server.py:add":                                             true,
	"examples/example-malicious-servers/server.py:send_email":                                      true,
	"examples/example-malicious-servers/sse_server.py:add":                                         true,
	"examples/example-malicious-servers/sse_server.py:send_email":                                  true,
	"examples/example-malicious-servers/tricky_server.py:get_fact_of_the_day":                      true,
}

// textAttackSkills are the poisoned skills of skill-scanner's evals whose
// payload is in text the model reads (SKILL.md or another text file it is
// pointed to), not only in a script's code.
var textAttackSkills = map[string]bool{
	"skills/prompt-injection/jailbreak-override":         true,
	"test_skills/malicious/prompt-injection":             true,
	"test_skills/malicious/ascii-smuggling":              true,
	"test_skills/malicious/exfiltrator":                  true,
	"test_skills/malicious/mcp-atlassian-cve-2026-27825": true,
	"test_skills/malicious/mcpwn-cve-2026-33032":         true,
}

// textAttackTool reports whether a tool of mcp-scanner's malicious servers
// carries its payload in its definition.
func textAttackTool(file string, t *mcp.Tool) bool {
	if strings.HasPrefix(filepath.ToSlash(file), "evals/behavioral-analysis/data/prompt-injection/") {
		return true
	}
	return textAttackTools[filepath.ToSlash(file)+":"+t.Name] && (!strings.HasSuffix(file, "tricky_server.py") || strings.Contains(t.Description, "IMPORTANT"))
}

// TestCorpusDump prints every sample's findings, for reading (-run Dump -v
// with TOOLSEARCH_SCAN_DUMP=1).
func TestCorpusDump(t *testing.T) {
	if os.Getenv("TOOLSEARCH_SCAN_DUMP") == "" {
		t.Skip("set TOOLSEARCH_SCAN_DUMP=1 (attack, clean or all)")
	}
	which := os.Getenv("TOOLSEARCH_SCAN_DUMP")
	for _, s := range loadCorpora(t) {
		if which == "attack" && !s.attack || which == "clean" && s.attack {
			continue
		}
		fs := s.scan()
		mark := "  "
		if Withholds(fs) {
			mark = "W "
		} else if len(fs) > 0 {
			mark = "w "
		}
		fmt.Printf("%s%s %s\n", mark, s.source, s.id)
		if s.tool != nil && os.Getenv("TOOLSEARCH_SCAN_TEXT") != "" {
			fmt.Printf("    | %s\n", strings.ReplaceAll(s.tool.Description, "\n", "\n    | "))
		}
		for _, f := range fs {
			fmt.Printf("    %s %s\n", f.Severity, Reveal(f.String()))
		}
	}
}

// corpusFigures are the figures of one source or class of samples.
type corpusFigures struct {
	samples, flagged, withheld int
}

func (f *corpusFigures) count(fs []Finding) {
	f.samples++
	if len(fs) > 0 {
		f.flagged++
	}
	if Withholds(fs) {
		f.withheld++
	}
}

// role names a sample's side of the split.
func (s *sample) role() string {
	if s.heldOut {
		return "held-out"
	}
	return "dev"
}

// class is what a sample is, for the totals: the targets are set per
// class. SkillFortifyBench's benign skills are generated, not written for
// use, so they are not counted as real skills.
func (s *sample) class() string {
	switch {
	case s.attack && (s.tool != nil || s.tools != nil):
		return "attack tools"
	case s.attack && s.harvest:
		return "harvester skills"
	case s.attack:
		return "other attack skills"
	case s.tool != nil && s.probe:
		return "clean tools written as probes"
	case s.tool != nil && s.source == "getmcpm+mcp-guardbench":
		return "generated clean tools"
	case s.tool != nil:
		return "clean tools"
	case s.probe:
		return "clean skills written as probes"
	case s.source == "qualixar+skillfortify" || s.source == "miracle438+agent-skill-scanner-bench":
		return "generated clean skills"
	case s.source == "openclaw+skills":
		// ClawHub's archive, unlabelled: most are real skills, some are
		// malicious or a scanner's attack fixtures.
		return "community skills"
	}
	return "real skills"
}

// tally returns the figures of key, made on first use.
func tally(m map[string]*corpusFigures, key string) *corpusFigures {
	if m[key] == nil {
		m[key] = &corpusFigures{}
	}
	return m[key]
}

// ruleFigures are one rule's findings on attacks and clean samples.
type ruleFigures struct{ attack, clean, attackStrong, cleanStrong int }

// TestCorpora measures the scanner on the public corpora, development and
// held-out apart: per source and per class, the share flagged and
// withheld; per rule, how many attacks and clean samples it flagged. It
// holds the targets of issue 43: at most 1 % of real skills withheld and
// none of Anthropic's, at least 90 % of harvester skills withheld, at
// least 90 % of the other attacks flagged, at most 0.5 % of clean tools
// withheld.
func TestCorpora(t *testing.T) {
	all := loadCorpora(t)
	bySource := map[string]*corpusFigures{}
	byClass := map[string]*corpusFigures{}
	byRule := map[string]map[Rule]*ruleFigures{"dev": {}, "held-out": {}}
	for _, s := range all {
		fs := s.scan()
		key := s.role() + " | " + s.source
		if s.attack {
			key += " (attacks)"
		}
		tally(bySource, key).count(fs)
		tally(byClass, s.role()+" | "+s.class()).count(fs)
		if Withholds(fs) && s.source == "anthropics+skills" {
			t.Errorf("Anthropic's skill %s withheld: %s", s.id, Reveal(fs[0].String()))
		}
		seen := map[Rule]Severity{}
		for _, f := range fs {
			if seen[f.Rule] != SeverityWithhold {
				seen[f.Rule] = f.Severity
			}
		}
		for r, sev := range seen {
			rf := byRule[s.role()][r]
			if rf == nil {
				rf = &ruleFigures{}
				byRule[s.role()][r] = rf
			}
			if s.attack {
				rf.attack++
				if sev == SeverityWithhold {
					rf.attackStrong++
				}
				continue
			}
			rf.clean++
			if sev == SeverityWithhold {
				rf.cleanStrong++
			}
			if testing.Verbose() && (sev == SeverityWithhold || !s.heldOut) {
				for _, f := range fs {
					if f.Rule == r {
						t.Logf("clean %s %s: %s %s", s.source, s.id, f.Severity, Reveal(f.String()))
					}
				}
			}
		}
		if s.attack && (len(fs) == 0 || s.harvest && !Withholds(fs)) {
			t.Logf("missed (%s): %s %s", s.role(), s.source, s.id)
		}
	}
	t.Log(corpusTables(bySource, byClass, byRule))
	rate := func(f *corpusFigures, n int) float64 {
		if f == nil || f.samples == 0 {
			return -1
		}
		return float64(n) / float64(f.samples)
	}
	for _, role := range []string{"dev", "held-out"} {
		c := func(class string) *corpusFigures {
			if f := byClass[role+" | "+class]; f != nil {
				return f
			}
			return &corpusFigures{}
		}
		if f := c("real skills"); rate(f, f.withheld) > 0.01 {
			t.Errorf("%s: %d of %d real skills withheld; at most 1 %% may be", role, f.withheld, f.samples)
		}
		if f := c("clean tools"); rate(f, f.withheld) > 0.005 {
			t.Errorf("%s: %d of %d clean tools withheld; at most 0.5 %% may be", role, f.withheld, f.samples)
		}
		if f := c("harvester skills"); f.samples > 0 && rate(f, f.withheld) < 0.9 {
			t.Errorf("%s: %d of %d harvester skills withheld; at least 90 %% must be", role, f.withheld, f.samples)
		}
		for _, class := range []string{"other attack skills", "attack tools"} {
			if f := c(class); f.samples > 0 && rate(f, f.flagged) < 0.9 {
				t.Errorf("%s: %d of %d %s flagged; at least 90 %% must be", role, f.flagged, f.samples, class)
			}
		}
	}
}

// corpusTables formats TestCorpora's figures as the Markdown tables of
// BENCHMARKS.md.
func corpusTables(bySource, byClass map[string]*corpusFigures, byRule map[string]map[Rule]*ruleFigures) string {
	var b strings.Builder
	pct := func(f *corpusFigures, n int) string {
		if f.samples == 0 {
			return "0"
		}
		return fmt.Sprintf("%d (%.1f %%)", n, 100*float64(n)/float64(f.samples))
	}
	table := func(title string, m map[string]*corpusFigures) {
		fmt.Fprintf(&b, "\n| split | %s | samples | flagged | withheld |\n|---|---|---:|---:|---:|\n", title)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			f := m[k]
			fmt.Fprintf(&b, "| %s | %d | %s | %s |\n", k, f.samples, pct(f, f.flagged), pct(f, f.withheld))
		}
	}
	table("source", bySource)
	table("class", byClass)
	for _, role := range []string{"dev", "held-out"} {
		fmt.Fprintf(&b, "\nPer rule, %s:\n\n| rule | on attacks | on clean | withholding on attacks | withholding on clean |\n|---|---:|---:|---:|---:|\n", role)
		for _, r := range Rules {
			rf := byRule[role][r]
			if rf == nil {
				rf = &ruleFigures{}
			}
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %d |\n", r, rf.attack, rf.clean, rf.attackStrong, rf.cleanStrong)
		}
	}
	return b.String()
}
