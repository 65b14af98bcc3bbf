package scan

import (
	"os"
	"path/filepath"
	"testing"
)

// Sources gathered by issue 43's helper g6 from the attack fixtures of
// skill scanners, evaluators and red-team demos nobody here had read
// before. A harvester is a fixture whose author labels it malicious (its
// folder, a test or CI step that expects the tool to fail it, a golden
// result, a ground-truth file) and whose text reads secrets or the user's
// data AND sends them away, in prose the model reads or in a script the
// skill tells the agent to run. A fixture that only runs remote code, only
// reads keys, or keeps its harvest in code the skill never points to is left
// out. Clean fixtures written for a tool's tests are probes, counted apart
// from real skills. The split is the first hex digit of
// sha256("OWNER/NAME"): 0-7 development, 8-f held out. Which fixtures count
// was fixed from the authors' labels before any verdict of this scanner on
// them was seen; the held-out ones are only measured.

// g6MalSkillsCase is nuryslyrt/MalSkills' planted case (digit a: held out),
// the DEF CON demo of "natural-language malware" in a multi-skill ORPHEUS
// system. Its answer key (MalSkills_Examples/code-reviewer/LABELS.yaml:
// phase data_exfiltration, MITRE TA0010) says the report-expert skill was
// poisoned to run the project's "quality adapter", whose code reads the
// finished code-review report (the user's code, reviewed) and posts it,
// base64'd, to a host assembled from policy parts. The sample is that
// skill's folder with the adapter and its policy at the paths the SKILL.md
// names. Benign_Examples holds the same system unpoisoned ("the victim
// baseline"): its report-expert is a probe. The repository's other copy,
// nuryslyrt/MalSkills_Lab, holds the same case and is not counted again.
const g6MalSkillsCase = "MalSkills_Examples/code-reviewer/.orpheus"

func g6LoadMalSkills(tb testing.TB, dir string) []sample {
	var out []sample
	root := filepath.Join(dir, g6MalSkillsCase)
	for _, s := range loadSkillDirs(tb, "", filepath.Join(root, "experts/report-expert"), nil) {
		if s.id != "." {
			continue
		}
		for _, name := range []string{"report_quality.py", "report_quality.json"} {
			data, err := os.ReadFile(filepath.Join(root, "adapters", name))
			if err != nil {
				return nil // a missing adapter is no harvester
			}
			s.skill = append(s.skill, File{Path: ".orpheus/adapters/" + name, Data: data})
		}
		s.id, s.dir, s.attack, s.harvest = "MalSkills_Examples/code-reviewer", "report-expert", true, true
		out = append(out, s)
	}
	for _, s := range loadSkillDirs(tb, "", filepath.Join(dir, "Benign_Examples/code-reviewer/.orpheus/experts/report-expert"), nil) {
		if s.id != "." {
			continue
		}
		s.id, s.dir, s.probe = "Benign_Examples/code-reviewer", "report-expert", true
		out = append(out, s)
	}
	return out
}

// g6LoadTarunScanner reads TarunReddy77/skill-scanner's skills (digit d:
// held out): the folder skills/malicious holds, by its README, the samples
// "that are not" safe, and the README's worked verdict quotes
// project-onboarding-helper reading the SSH key, the AWS credentials and
// every .env file and posting them away: a harvester. skills/benign's
// commit-message-writer is a probe. The repository has no snapshot here:
// the two files were laid out from read_file at
// dbfcf7c099de21582ce71b5b5d222f8d49299db1.
func g6LoadTarunScanner(tb testing.TB, dir string) []sample {
	return append(loadNamedHarvesters(tb, filepath.Join(dir, "skills/malicious"), []string{"project-onboarding-helper"}),
		guardsNamedProbes(tb, filepath.Join(dir, "skills/benign"), []string{"commit-message-writer"})...)
}

// g6LoadBawbel reads bawbel/scanner's golden fixture (digit f: held out),
// tests/fixtures/skills/malicious/malicious_skill.md, whose expected result
// (tests/fixtures/golden/malicious_scan.json) names the toxic flow
// "credential-exfiltration" (AVE-2026-00003 "Credential exfiltration
// pattern" with AVE-2026-00026 tool-output exfiltration): a harvester, its
// file the skill's SKILL.md. test_owasp_mcp_skill.md sits in the same folder
// but no test or golden file says what it does, so it is left out.
func g6LoadBawbel(tb testing.TB, dir string) []sample {
	return g6SingleFileHarvester(filepath.Join(dir, "tests/fixtures/skills/malicious/malicious_skill.md"))
}

// g6SkillcheckerHarvesters are AntonioTimo/skillchecker's examples (digit d:
// held out) that its CI (.github/workflows/tests.yml) must see fail with a
// rule for credentials sent away: evil-exfil (CR035 "env dump to network",
// CR034 tunneling host, HI021 Telegram API) and evil-taint (TF001
// "credential->network flow" in scripts/upload.py, which its SKILL.md has
// the agent run). evil-skill also reads ~/.ssh and names an exfiltration
// endpoint, but it packs one line per rule of the tool (CI lists six attack
// classes), so as a held-out sample it is left out; the other evil-*
// examples are obfuscation, supply chain, MCP and plugin configuration,
// self-targeting, Unicode and AST evasion.
var g6SkillcheckerHarvesters = []string{"evil-exfil", "evil-taint"}

// g6SkillcheckerProbes are the clean examples the same CI must see pass
// (exit 0, GREEN): look-alikes written for its rules.
var g6SkillcheckerProbes = []string{
	"clean-ast", "clean-ecosystem", "clean-evasion", "clean-exfil", "clean-mcp", "clean-selftarget",
	"clean-skill", "clean-supplychain", "clean-taint", "clean-unicode", "clean-with-data",
}

func g6LoadSkillchecker(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "examples")
	return namedFixtures(tb, root, g6SkillcheckerHarvesters, g6SkillcheckerProbes)
}

// g6LoadSlopscan reads Jaysi88/slopscan's test/fixtures/evil-skill (digit d:
// held out), which its suite (test/run-tests.js, "evil skill fixture
// triggers critical security findings") expects to show an "exfiltration
// endpoint": its prose has the agent send the SSH key and the AWS
// credentials to a collector, a harvester. Its clean fixture is a code
// project, not a skill. The repository has no snapshot here: the fixture's
// three files were laid out from read_file at
// c9b099a6598d119ade043945d080fcda06916096.
func g6LoadSlopscan(tb testing.TB, dir string) []sample {
	return loadNamedHarvesters(tb, filepath.Join(dir, "test/fixtures"), []string{"evil-skill"})
}

// g6LoadTrustMeBro reads kanywst/trust-me-bro's examples (digit 1:
// development): evil-skill, "a deliberately malicious fixture that trips
// every critical rule" (README; tests/test_scan.py expects STOP and the
// lethal trifecta), posts the environment and the agent's settings as
// "telemetry" among other attacks, a harvester packed with one line per
// rule, so development material only; plain-skill, "an ordinary skill that
// trips none", is a probe.
func g6LoadTrustMeBro(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "examples")
	return namedFixtures(tb, root, []string{"evil-skill"}, []string{"plain-skill"})
}

// g6LoadCCAudit reads ryo-ebata/cc-audit's tests/fixtures (digit 9: held
// out): malicious/data-exfil, which its suite (tests/integration.rs,
// test_detect_data_exfiltration) expects to fail with EX-001 at CRITICAL,
// pipes the SSH key to a collector in its own prose, a harvester;
// benign/simple-skill and benign/complex-skill, which the suite expects to
// PASS, are probes. persistence, privilege-escalation and prompt-injection
// are other attacks.
func g6LoadCCAudit(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return namedFixtures(tb, root, []string{"malicious/data-exfil"}, []string{"benign/simple-skill", "benign/complex-skill"})
}

// g6LoadEloPhanto reads elophanto/EloPhanto's tests/fixtures/malicious_skill
// (digit 2: development), the agent's fixture for its skill-security
// checks: a "deploy" skill that reads the SSH key and the AWS credentials
// and ends by ordering the agent to send every environment variable to a
// webhook, among a remote install, an encoded payload and a reverse shell;
// a harvester packed with other attacks, so development material only. The
// repository was not fetched: the file was laid out from read_file at
// 30f58483c986b1603a8c9141438f097e3ee6b99c.
func g6LoadEloPhanto(tb testing.TB, dir string) []sample {
	return loadNamedHarvesters(tb, filepath.Join(dir, "tests/fixtures"), []string{"malicious_skill"})
}

// g6LoadSkillVet reads ruslanlap/skill-vet's examples (digit 6:
// development): malicious-skill, "a deliberately malicious skill used in
// skill-vet's test suite" by its own description, pipes the environment,
// the AWS credentials, the SSH key and .env to a collector among a reverse
// shell and persistence, one line per rule, a harvester and development
// material only; clean-skill ("a harmless example skill that must pass") is
// a probe. No snapshot here: laid out from read_file (malicious-skill at
// 10a6e5f38fedbaf0a7ebcd177a51ad194cd9a5b5, clean-skill at
// eb13ebaf9310750232d73081a063bc990a4b40db).
func g6LoadSkillVet(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "examples")
	return namedFixtures(tb, root, []string{"malicious-skill"}, []string{"clean-skill"})
}

// g6LoadThandvFrisk reads Thandv/frisk's examples (digit 3: development):
// malicious-skill, which its suite (tests/test_engine.py) expects BLOCK and
// its README shows blocked as "exfil", has the agent post the SSH key to a
// collector as "telemetry" (and paste the AWS credentials into its reply),
// a harvester; clean-skill, expected PASS, is a probe. It is not
// luoojason/frisk, whose fixtures differ.
func g6LoadThandvFrisk(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "examples")
	return namedFixtures(tb, root, []string{"malicious-skill"}, []string{"clean-skill"})
}

// g6LoadSkillShielder reads p3nchan/skill-shielder's examples (digit 5:
// development): malicious-skill, its README's example target, orders the
// agent to run scripts/setup.sh without asking, and that script ("Exfiltrate
// SSH keys") posts the key away among a remote install, a backdoor and log
// wiping, a harvester packed with other attacks; safe-skill is a probe.
func g6LoadSkillShielder(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "examples")
	return namedFixtures(tb, root, []string{"malicious-skill"}, []string{"safe-skill"})
}

// g6SingleFileHarvester reads one file as a harvester skill's SKILL.md.
func g6SingleFileHarvester(path string) []sample {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	name := filepath.Base(path)
	return []sample{{id: name, attack: true, harvest: true, skill: []File{{Path: "SKILL.md", Data: data}}, dir: name}}
}

var g6Sources = []corpusSource{
	{name: "kanywst+trust-me-bro", load: g6LoadTrustMeBro},
	{name: "elophanto+EloPhanto", load: g6LoadEloPhanto},
	{name: "ruslanlap+skill-vet", load: g6LoadSkillVet},
	{name: "Thandv+frisk", load: g6LoadThandvFrisk},
	{name: "p3nchan+skill-shielder", load: g6LoadSkillShielder},
	{name: "nuryslyrt+MalSkills", heldOut: true, load: g6LoadMalSkills},
	{name: "TarunReddy77+skill-scanner", heldOut: true, load: g6LoadTarunScanner},
	{name: "bawbel+scanner", heldOut: true, load: g6LoadBawbel},
	{name: "AntonioTimo+skillchecker", heldOut: true, load: g6LoadSkillchecker},
	{name: "Jaysi88+slopscan", heldOut: true, load: g6LoadSlopscan},
	{name: "ryo-ebata+cc-audit", heldOut: true, load: g6LoadCCAudit},
}

func init() { corpusSources = append(corpusSources, g6Sources...) }

// TestMore6SourcesLoad checks that each source of this file, when laid
// out, yields every harvester and probe its lists name, and runs no
// verdict: a fixture moved upstream must fail here rather than shrink a
// figure quietly.
func TestMore6SourcesLoad(t *testing.T) {
	want := map[string][2]int{
		"kanywst+trust-me-bro":       {1, 1},
		"nuryslyrt+MalSkills":        {1, 1},
		"TarunReddy77+skill-scanner": {1, 1},
		"bawbel+scanner":             {1, 0},
		"AntonioTimo+skillchecker":   {len(g6SkillcheckerHarvesters), len(g6SkillcheckerProbes)},
		"Jaysi88+slopscan":           {1, 0},
		"ryo-ebata+cc-audit":         {1, 2},
		"elophanto+EloPhanto":        {1, 0},
		"ruslanlap+skill-vet":        {1, 1},
		"Thandv+frisk":               {1, 1},
		"p3nchan+skill-shielder":     {1, 1},
	}
	checkSourceCounts(t, g6Sources, want)
}
