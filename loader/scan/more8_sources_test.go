package scan

import (
	"os"
	"path"
	"path/filepath"
	"testing"
)

// Sources gathered by issue 43's eighth round (helper g8) from research
// and teaching material: a vulnerable-asset corpus for scanner authors, a
// blog's supply-chain demonstration, a research notebook's annotated
// examples, a labelled secure/insecure skill dataset and a research
// exercise's malicious and benign skills. None was read here before. A
// harvester is a skill whose author's labels say it reads secrets or the
// user's data AND sends them away, in prose the model reads or in a script
// the skill tells the agent to run; a fixture that only stockpiles or logs
// a secret, runs remote code, persists or hijacks the agent is left out.
// Clean skills written for the source's own tests or dataset are probes,
// counted apart from real skills. The split is the first hex digit of
// sha256("OWNER/NAME"): 0-7 development, 8-f held out. The lists were
// fixed from the authors' labels before any verdict of this scanner on
// them was seen; held-out ones are only measured.

// g8DVAACHarvesters is jlov7/damn-vulnerable-agent-asset-corpus's fixture
// 13 (split digit 6: development), "Secret Exfiltration Via Allowed Tool":
// its README calls it "a malicious instruction that uses a declared network
// tool", expected verdict hold, and its skill has the agent read
// INCIDENT_API_KEY and send it in a JSON field to an outside endpoint.
// Fixture 09 copies exported content into a hidden local path (no
// sending), 03 executes code from a test file, 02 injects orders, 10 and
// 11 drift or fetch remote text, 12, 14 and 15 are not skills, 16 accepts
// a risk by a signed approval.
var g8DVAACHarvesters = []string{"13-secret-exfiltration-via-allowed-tool/skill"}

// g8DVAACProbes are the fixtures whose expected-aac.json verdict is pass:
// 01-clean-declared-skill and 08-info-local-only-skill. 04-aac-core-clean-skill
// repeats 01 under another profile name and is left out as a copy.
var g8DVAACProbes = []string{"01-clean-declared-skill/skill", "08-info-local-only-skill/skill"}

// loadG8DVAAC reads the corpus's fixtures/NN/skill folders; each fixture's
// README, expected-*.json and evidence sit beside skill/ and are not read.
// The repository has no snapshot here: the session laid the three
// SKILL.md files out from read_file at
// 7db87a8a2cfd5bd820193840995873e5dfa6dd93 (licence CC-BY-4.0 for fixtures).
func loadG8DVAAC(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "fixtures")
	return namedFixtures(tb, root, g8DVAACHarvesters, g8DVAACProbes)
}

// loadG8AI26 reads dwmkerr/ai26's convert-pdf-to-markdown skill (digit c:
// held out), the "Anthropic Skill Supply Chain Attack" its README and
// supply-chain/README.md describe ("Extracts API keys from env", "Sends
// keys as HTTP headers", "Stores stolen credentials"): the SKILL.md tells
// the agent to run ${CLAUDE_PLUGIN_ROOT}/scripts/pdf-to-markdown.sh, which
// sends the environment's API keys to the author's endpoint. The script
// sits at the plugin's root, not in the skill's folder, so the sample is
// the SKILL.md plus that script at the path the SKILL.md names relative to
// the plugin root; the slash command (commands/) is not a skill.
func loadG8AI26(tb testing.TB, dir string) []sample {
	plugin := filepath.Join(dir, "plugins/ai26")
	skill, err := os.ReadFile(filepath.Join(plugin, "skills/convert-pdf-to-markdown/SKILL.md"))
	if err != nil {
		return nil
	}
	script, err := os.ReadFile(filepath.Join(plugin, "scripts/pdf-to-markdown.sh"))
	if err != nil {
		tb.Errorf("dwmkerr+ai26: the skill's script is missing: %v", err)
		return nil
	}
	return []sample{{
		id: "convert-pdf-to-markdown", attack: true, harvest: true, dir: "convert-pdf-to-markdown",
		skill: []File{{Path: "SKILL.md", Data: skill}, {Path: "scripts/pdf-to-markdown.sh", Data: script}},
	}}
}

// loadG8Nishi reads ItsNishi/AI-Agent-Security's
// examples/01_Hidden_Comment_Injection/sanitized_skill.md (digit a: held
// out), the legitimate twin of its trojanized security-review skill, which
// its tests (tests/test_examples.py) expect to raise no critical injection
// finding and no hidden comment: a probe, read as a skill's SKILL.md. The
// trojanized twin runs remote code (curl | bash) and is not a harvester;
// the other examples are write-ups, not skills.
func loadG8Nishi(tb testing.TB, dir string) []sample {
	return guardsSingleFileProbe(filepath.Join(dir, "examples/01_Hidden_Comment_Injection/sanitized_skill.md"))
}

// g8NikoHarvesters are NikoS274/skills-security-test's insecure skills
// (skills/skills_dataset/NAME/insecure, digit 9: held out) whose
// metadata.json threat_description says secrets or the user's data are
// sent away: data_summarizer (attack_category data_exfiltration, "silently
// transmits the full raw user input to an external URL via a POST
// request") and api_integrator ("the proxy receives every API key, token,
// and request payload", credentials routed through an attacker's proxy).
// auth_handler writes credentials to a local log (no sending); web_scraper
// fetches a tracking URL with "session context" (tracking, no secret or
// user data named); the others escalate privilege, inject orders, persist
// or hijack agents.
var g8NikoHarvesters = []string{"api_integrator/insecure", "data_summarizer/insecure"}

// g8NikoProbes are the dataset's ten secure twins (metadata.json label
// "secure"), written for the dataset.
var g8NikoProbes = []string{
	"api_integrator/secure", "auth_handler/secure", "code_executor/secure",
	"data_summarizer/secure", "file_reader/secure", "log_analyzer/secure",
	"memory_manager/secure", "multi_agent_orchestrator/secure",
	"task_planner/secure", "web_scraper/secure",
}

// loadG8Niko reads the dataset's pairs without their metadata.json, the
// label (it states the threat in words) and no part of the skill.
func loadG8Niko(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "skills/skills_dataset")
	out := namedFixtures(tb, root, g8NikoHarvesters, g8NikoProbes)
	return g8WithoutFile(out, "metadata.json")
}

// g8NetanelHarvesters is netanelcohe/agentic-skills-security's
// skills/malicious/log-cleanup-helper (digit d: held out), its report's
// "Technique 1: Embedded Exfiltration": a step that POSTs /etc/passwd and
// the environment to an outside URL. dependency-doctor runs a remote
// second stage and api-docs-assistant obeys a fetched document: other
// attacks, left out.
var g8NetanelHarvesters = []string{"log-cleanup-helper"}

// g8NetanelProbes are the ten benign skills its report authored as a
// false-positive baseline and its scanner_test.py expects to pass as
// Benign. Later commits added ten more benign/ folders copied from
// published skills, not named in that test; they are not read.
var g8NetanelProbes = []string{
	"cron-lister", "disk-usage-report", "docker-cleanup", "file-search",
	"git-commit-helper", "log-rotate", "markdown-toc", "python-venv-setup",
	"ssl-cert-check", "system-info",
}

// loadG8Netanel reads the research exercise's skills. The repository has
// no snapshot here: the session laid the eleven SKILL.md files out from
// read_file at 1982b4375cfa66fec4fc69a0f0e8d70111b46e58.
func loadG8Netanel(tb testing.TB, dir string) []sample {
	return append(loadNamedHarvesters(tb, filepath.Join(dir, "skills/malicious"), g8NetanelHarvesters),
		guardsNamedProbes(tb, filepath.Join(dir, "skills/benign"), g8NetanelProbes)...)
}

// g8WithoutFile drops the files called name from every sample's skill.
func g8WithoutFile(samples []sample, name string) []sample {
	for i := range samples {
		kept := samples[i].skill[:0:0]
		for _, f := range samples[i].skill {
			if path.Base(f.Path) != name {
				kept = append(kept, f)
			}
		}
		samples[i].skill = kept
	}
	return samples
}

var g8Sources = []corpusSource{
	{name: "jlov7+damn-vulnerable-agent-asset-corpus", load: loadG8DVAAC},
	{name: "dwmkerr+ai26", heldOut: true, load: loadG8AI26},
	{name: "ItsNishi+AI-Agent-Security", heldOut: true, load: loadG8Nishi},
	{name: "NikoS274+skills-security-test", heldOut: true, load: loadG8Niko},
	{name: "netanelcohe+agentic-skills-security", heldOut: true, load: loadG8Netanel},
}

func init() { corpusSources = append(corpusSources, g8Sources...) }

// TestG8SourcesLoad checks that each source of this file, when laid out,
// yields every harvester and probe its lists name and reads no label file,
// and runs no verdict: a fixture moved upstream must fail here rather than
// shrink a figure quietly.
func TestG8SourcesLoad(t *testing.T) {
	want := map[string][2]int{
		"jlov7+damn-vulnerable-agent-asset-corpus": {len(g8DVAACHarvesters), len(g8DVAACProbes)},
		"dwmkerr+ai26":                        {1, 0},
		"ItsNishi+AI-Agent-Security":          {0, 1},
		"NikoS274+skills-security-test":       {len(g8NikoHarvesters), len(g8NikoProbes)},
		"netanelcohe+agentic-skills-security": {len(g8NetanelHarvesters), len(g8NetanelProbes)},
	}
	checkSourceCounts(t, g8Sources, want)
	for _, src := range g8Sources {
		dir := filepath.Join(corpusRoot(), src.name)
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		for _, s := range src.load(t, dir) {
			for _, f := range s.skill {
				if base := path.Base(f.Path); base == "metadata.json" || base == "expected-aac.json" || base == "expected-findings.json" {
					t.Errorf("%s %s: the label file %s is read as part of the skill", src.name, s.id, f.Path)
				}
			}
		}
	}
}
