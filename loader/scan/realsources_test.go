package scan

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A corpusSource is one public corpus of testdata/corpus/README.md: the
// folder it is laid out in (OWNER+NAME), whether it is held out (read only
// to measure, never to write rules against), and how its samples are read.
type corpusSource struct {
	name    string
	heldOut bool
	load    func(tb testing.TB, dir string) []sample
}

// corpusSources are the corpora, development ones first. Which samples of
// each count as attacks is said at its loader.
var corpusSources = []corpusSource{
	// Development: the rules are written against these.
	{name: "obra+superpowers", load: cleanSkills("")},
	{name: "getsentry+skills", load: cleanSkills("")},
	{name: "expo+skills", load: cleanSkills("")},
	{name: "wshobson+agents", load: cleanSkills("")},
	{name: "github+github-mcp-server", load: func(tb testing.TB, dir string) []sample {
		return loadSnaps(tb, filepath.Join(dir, "pkg/github/__toolsnaps__"))
	}},
	{name: "cisco-ai-defense+skill-scanner", load: func(tb testing.TB, dir string) []sample {
		return loadSkillDirs(tb, "", filepath.Join(dir, "evals"), func(rel string) bool {
			return textAttackSkills[filepath.ToSlash(rel)]
		})
	}},
	{name: "cisco-ai-defense+mcp-scanner", load: func(tb testing.TB, dir string) []sample {
		return loadPyServers(tb, "", dir,
			[]string{"examples/example-malicious-servers/*.py", "evals/behavioral-analysis/data/*/*.py"},
			func(file string, t *mcp.Tool) bool { return textAttackTool(file, t) })
	}},
	{name: "dongsenzhang+MSB", load: loadMSB},
	{name: "qualixar+skillfortify", load: loadSkillFortify},
	{name: "miracle438+agent-skill-scanner-bench", load: loadScannerBench},
	// Held out at first, read to find the false positives of issue 43,
	// and so development sources since.
	{name: "trailofbits+skills", load: cleanSkills("plugins")},
	{name: "K-Dense-AI+claude-scientific-skills", load: cleanSkills("")},
	// Added by issue 43's sixth session for the kinds of harvester the
	// fifth session's held-out sources showed missing (dev2_sources_test.go).
	{name: "milozq+claude-skill-antivirus", load: loadAntivirusExample},
	{name: "CookieMikeLiu+skill-security-scanner", load: loadScannerTestMalicious},
	{name: "openclaw+skills", load: cleanSkills("skills")},

	// Held out: measured at the end, never read to write a rule.
	{name: "anthropics+skills", heldOut: true, load: cleanSkills("skills")},
	{name: "openai+skills", heldOut: true, load: cleanSkills("skills")},
	{name: "vercel-labs+agent-skills", heldOut: true, load: cleanSkills("skills")},
	{name: "cloudflare+skills", heldOut: true, load: cleanSkills("")},
	{name: "ComposioHQ+awesome-claude-skills", heldOut: true, load: cleanSkills("")},
	{name: "alirezarezvani+claude-skills", heldOut: true, load: cleanSkills("")},
	{name: "mattpocock+skills", heldOut: true, load: cleanSkills("")},
	{name: "supabase+agent-skills", heldOut: true, load: cleanSkills("")},
	{name: "awslabs+mcp", heldOut: true, load: loadCleanPyServers("src/*/awslabs/*/*.py", "src/*/awslabs/*/*/*.py")},
	{name: "Agentic-AI-Risk-Mitigation+progent", heldOut: true, load: loadProgent},
	{name: "aisa-group+skill-inject", heldOut: true, load: loadSkillInject},
	{name: "RecursiveIntell+ClawGuard", heldOut: true, load: loadClawGuard},
	{name: "AIS2Lab+MCPSecBench", heldOut: true, load: loadMCPSecBench},
	{name: "johannhartmann+mcp-injection-experiments", heldOut: true, load: loadInjectionExperiments},
	{name: "harryc295+tool-poisoning-bench", heldOut: true, load: loadToolPoisoningBench},
	// Held out and unread before issue 43's third session measured them
	// (fresh_sources_test.go).
	{name: "harishsg993010+damn-vulnerable-MCP-server", heldOut: true, load: loadDVMCP},
	{name: "jiaxiaojunQAQ+SkillJect", heldOut: true, load: loadSkillJect},
	{name: "liangjinghan035-max+Malicious-SKILL.md-Research-Dataset-Adversarial-Variants", heldOut: true, load: loadMaliciousVariants},
	// Held out and unread before issue 43's fourth session measured it.
	{name: "getmcpm+mcp-guardbench", heldOut: true, load: loadGuardBench},
	// Held out and unread before issue 43's fifth session measured them
	// (fresh2_sources_test.go).
	{name: "mcdeeai+clawrank-scanner", heldOut: true, load: loadClawRank},
	{name: "ydarwish1+Malskill-Scanner", heldOut: true, load: loadMalskill},
	{name: "jeffvsutherland+asf-security-scanner", heldOut: true, load: loadASFWeather},
	{name: "jeffvsutherland+agent-security-framework", heldOut: true, load: loadASFFramework},
	{name: "luoojason+frisk", heldOut: true, load: loadFrisk},
	{name: "clawfortify+clawfortify", heldOut: true, load: loadClawFortify},
}

// cleanSkills reads every skill under the folder as a clean skill.
func cleanSkills(under string) func(testing.TB, string) []sample {
	return func(tb testing.TB, dir string) []sample {
		return loadSkillDirs(tb, "", filepath.Join(dir, under), nil)
	}
}

// loadCleanPyServers reads the tools of a repository of Python servers as
// clean tools. Test files are left out: they hold made-up definitions.
func loadCleanPyServers(globs ...string) func(testing.TB, string) []sample {
	return func(tb testing.TB, dir string) []sample {
		var out []sample
		for _, s := range loadPyServers(tb, "", dir, globs, func(file string, _ *mcp.Tool) bool {
			return !strings.Contains(file, "test")
		}) {
			s.attack = false
			out = append(out, s)
		}
		return out
	}
}

// benchMarker is the metadata comment a benchmark puts at the top of each
// specimen (SkillFortifyBench's INERT line, Progent's DATASET block): it
// says the text is a specimen, which no attack in the wild writes, so it
// is cut before the scan.
var benchMarker = regexp.MustCompile(`(?s)<!--\s*(?:SKILLFORTIFYBENCH:INERT|DATASET: Progent).*?-->\n?`)

func stripMarker(s sample) sample {
	for i, f := range s.skill {
		s.skill[i].Data = benchMarker.ReplaceAll(f.Data, nil)
	}
	return s
}

// loadSkillFortify reads SkillFortifyBench's Claude and OpenClaw skills
// (benchmarks/skills/{claude,openclaw}/{benign,malicious}/ID/…/SKILL.md).
// Benign ones are clean; of the malicious ones, the attack types whose
// payload is text the model is told to act on count: A01 (HTTP
// exfiltration: the environment posted away), a harvester, and A08
// (prompt injection). A03 (credential theft) is left out: its samples put
// two environment variables into a value and send nothing, which no rule
// withholds (BENCHMARKS.md gives its figure apart). The other types hide
// their harm in what a command installs or runs (typosquatting,
// dependency confusion, mining, reverse shells), which the scanner does
// not claim to see.
func loadSkillFortify(tb testing.TB, dir string) []sample {
	var out []sample
	for _, format := range []string{"claude", "openclaw"} {
		for _, verdict := range []string{"benign", "malicious"} {
			root := filepath.Join(dir, "benchmarks/skills", format, verdict)
			ids, _ := os.ReadDir(root)
			for _, id := range ids {
				typ := ""
				if verdict == "malicious" {
					if i := strings.Index(id.Name(), "_A"); i >= 0 && len(id.Name()) >= i+4 {
						typ = id.Name()[i+1 : i+4]
					}
					if typ != "A01" && typ != "A08" {
						continue
					}
				}
				for _, s := range loadSkillDirs(tb, "", filepath.Join(root, id.Name()), nil) {
					s.id = format + "/" + id.Name()
					s.attack = verdict == "malicious"
					s.harvest = typ == "A01"
					out = append(out, stripMarker(s))
				}
			}
		}
	}
	return out
}

// loadProgent reads the SKILL.md specimens of Progent's skill-injection
// dataset (datasets/skill_injection/skill_files/CLASS/NAME.md, one skill
// each) of the classes 01 (silent data exfiltration) and 10 (credential
// harvesting): harvesters all. The other classes' harm is in what a
// command installs or changes.
func loadProgent(tb testing.TB, dir string) []sample {
	var out []sample
	for _, class := range []string{"01_silent_data_exfiltration", "10_credential_harvesting"} {
		files, _ := filepath.Glob(filepath.Join(dir, "datasets/skill_injection/skill_files", class, "*.md"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			s := sample{id: class + "/" + filepath.Base(f), attack: true, harvest: true, skill: []File{{Path: "SKILL.md", Data: data}}, dir: filepath.Base(f)}
			out = append(out, stripMarker(s))
		}
	}
	return out
}

// loadSkillInject builds SKILL-INJECT's obvious injections into the skills
// they target, as its harness does: the injection's line, after its
// prefix, inserted at the task's line of data/skills/SKILL/SKILL.md. The
// injections that take credentials (API Key Exfiltration, SSH Key
// Exfiltration) count, harvesters both; the others ask for harm that is
// not a secret's (deleting files, biased answers, a script's payload).
func loadSkillInject(tb testing.TB, dir string) []sample {
	data, err := os.ReadFile(filepath.Join(dir, "data/obvious_injections.json"))
	if err != nil {
		return nil
	}
	var injections []struct {
		ID           int    `json:"id"`
		Title        string `json:"title"`
		Instructions struct {
			Line string `json:"line_injection"`
		} `json:"instructions"`
		Tasks []struct {
			Skill  string `json:"skill"`
			Line   int    `json:"line_num"`
			Prefix string `json:"injection_prefix"`
		} `json:"tasks"`
	}
	if err := json.Unmarshal(data, &injections); err != nil {
		tb.Fatalf("obvious_injections.json: %v", err)
	}
	var out []sample
	for _, inj := range injections {
		if inj.Title != "API Key Exfiltration" && inj.Title != "SSH Key Exfiltration" {
			continue
		}
		for _, task := range inj.Tasks {
			skillDir := filepath.Join(dir, "data/skills", task.Skill)
			base := loadSkillDirs(tb, "", skillDir, nil)
			if len(base) == 0 {
				continue
			}
			s := base[0] // the skill at the folder's top comes first
			for _, b := range base {
				if b.id == "." {
					s = b
				}
			}
			files := make([]File, len(s.skill))
			copy(files, s.skill)
			for i, f := range files {
				if f.Path != "SKILL.md" {
					continue
				}
				lines := strings.SplitAfter(string(f.Data), "\n")
				at := min(max(task.Line-1, 0), len(lines))
				injected := task.Prefix + inj.Instructions.Line + "\n"
				lines = append(lines[:at], append([]string{injected}, lines[at:]...)...)
				files[i].Data = []byte(strings.Join(lines, ""))
			}
			out = append(out, sample{id: inj.Title + " in " + task.Skill, attack: true, harvest: true, skill: files, dir: task.Skill})
		}
	}
	return out
}

// loadCorpora loads every corpus present, and the dev split's catalog.
//
// TOOLSEARCH_SCAN_SPLIT=dev reads the development sources alone, so that
// work on the rules never shows a held-out verdict.
func loadCorpora(tb testing.TB) []sample {
	root := corpusRoot()
	devOnly := os.Getenv("TOOLSEARCH_SCAN_SPLIT") == "dev"
	var all []sample
	for _, src := range corpusSources {
		if devOnly && src.heldOut {
			continue
		}
		dir := filepath.Join(root, src.name)
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		for _, s := range src.load(tb, dir) {
			s.source, s.heldOut = src.name, src.heldOut
			all = append(all, s)
		}
	}
	if _, err := os.Stat(devCatalog); err == nil {
		for _, t := range loadDevCatalog(tb) {
			all = append(all, sample{source: "dev split catalog", id: t.Name, tool: t})
		}
	}
	if len(all) == 0 {
		tb.Skipf("no corpus under %s (testdata/corpus/README.md says how to fetch them)", root)
	}
	return all
}

// checkToolSourceCounts checks, with no scan, that each tool source of
// sources yields the poisoned tools and the clean probe tools want names
// for it: a fixture moved upstream fails here rather than shrink a figure
// quietly.
func checkToolSourceCounts(t *testing.T, sources []corpusSource, want map[string][2]int) {
	t.Helper()
	eachLaidOut(t, sources, want, func(src corpusSource, w [2]int, samples []sample) {
		var poisoned, probes int
		for _, s := range samples {
			switch {
			case s.tool == nil || s.tool.Description == "":
				t.Errorf("%s %s: no tool definition", src.name, s.id)
			case s.attack && !s.probe && !s.harvest:
				poisoned++
			case s.probe && !s.attack:
				probes++
			default:
				t.Errorf("%s %s: attack %v, harvest %v, probe %v; want a poisoned tool or a probe", src.name, s.id, s.attack, s.harvest, s.probe)
			}
		}
		if got := [2]int{poisoned, probes}; got != w {
			t.Errorf("%s: %d poisoned tools and %d probes, want %d and %d", src.name, got[0], got[1], w[0], w[1])
		}
	})
}

// eachLaidOut calls check with the samples of each source of sources that
// is laid out under the corpus root, and the counts want gives for it; a
// source want does not name is an error.
func eachLaidOut[W any](t *testing.T, sources []corpusSource, want map[string]W, check func(src corpusSource, w W, samples []sample)) {
	t.Helper()
	for _, src := range sources {
		w, ok := want[src.name]
		if !ok {
			t.Errorf("%s: no expected count", src.name)
			continue
		}
		dir := filepath.Join(corpusRoot(), src.name)
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		check(src, w, src.load(t, dir))
	}
}

// checkSourceCounts checks that each source laid out yields the
// harvesters and probes its lists name (want: harvesters, probes), each
// one or the other, with files, and none holding a label file its source
// keeps beside it (the answer, not the skill): a fixture moved upstream
// fails here rather than shrinking a figure quietly. It scans nothing.
func checkSourceCounts(t *testing.T, sources []corpusSource, want map[string][2]int) {
	t.Helper()
	eachLaidOut(t, sources, want, func(src corpusSource, w [2]int, samples []sample) {
		var harvesters, probes int
		for _, s := range samples {
			switch {
			case s.attack && s.harvest && !s.probe && len(s.skill) > 0:
				harvesters++
			case s.probe && !s.attack && !s.harvest && len(s.skill) > 0:
				probes++
			default:
				t.Errorf("%s %s: attack %v, harvest %v, probe %v, %d files; want a harvester or a probe", src.name, s.id, s.attack, s.harvest, s.probe, len(s.skill))
			}
			for _, f := range s.skill {
				if f.Path == "expected_result.json" || path.Base(f.Path) == ".label" {
					t.Errorf("%s %s: the label file %s is read as part of the skill", src.name, s.id, f.Path)
				}
			}
		}
		if harvesters != w[0] || probes != w[1] {
			t.Errorf("%s: %d harvesters and %d probes, want %d and %d", src.name, harvesters, probes, w[0], w[1])
		}
	})
}
