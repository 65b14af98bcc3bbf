package scan

import (
	"os"
	"path/filepath"
	"testing"
)

// Sources gathered by issue 43's eighth session (helper g9) from the test
// suites of agent guardrails, firewalls, sandboxes, wardens, sentinels,
// "vaccines", quarantines and MCP security scanners: each ships skills it
// labels malicious (an expected-results file, a test that expects a failing
// grade, a README table, the fixture's folder) and, often, clean ones for
// its tests. A harvester is a fixture whose author labels it malicious and
// whose text reads secrets or the user's data AND sends them away, in prose
// the model reads or in a script the SKILL.md tells the agent to run; one
// that only gathers keys, only echoes them into the reply, only runs remote
// code, or keeps its harvest in a script the SKILL.md never points to is
// left out. Clean fixtures written for a tool's tests are probes, counted
// apart from real skills. The split is the first hex digit of
// sha256(OWNER/NAME): 0-7 development, 8-f held out. The lists were fixed
// from the authors' labels before any verdict of this scanner on them was
// seen; held-out ones are only measured.

// g9MalwarHarvesters are Ap6pack/malwar's single-file fixtures (digit b:
// held out) under tests/fixtures/skills/malicious, which its accuracy
// benchmark (tests/benchmark/test_accuracy.py) expects to be MALICIOUS,
// whose text sends secrets away: credential_harvester (API keys posted to a
// "validator"), env_harvesting (the environment posted to a collector) and
// snyktoxic_vercel_exfil (the AWS credentials posted to a paste site).
// exfil_soul_md only has the agent show the files in its reply, and the
// real/malicious Snyk Vercel skills post only uname output; the others
// are injection, droppers, remote code, persistence, typosquats, fraud or
// hidden text. Its real/benign fixtures are Anthropic's published skills
// and real/clawhub is unlabelled ("UNKNOWN"): neither is read.
var g9MalwarHarvesters = []string{
	"credential_harvester.md", "env_harvesting.md", "snyktoxic_vercel_exfil.md",
}

// g9MalwarProbes are its benign fixtures, which the benchmark expects to be
// CLEAN: skills written for its tests.
var g9MalwarProbes = []string{
	"code_formatter.md", "git_helper.md", "hello_world.md",
	"legitimate_with_urls.md", "powershell_docs.md", "web_search.md",
}

func g9LoadMalwar(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures/skills")
	return append(g9SingleFiles(filepath.Join(root, "malicious"), g9MalwarHarvesters, true),
		g9SingleFiles(filepath.Join(root, "benign"), g9MalwarProbes, false)...)
}

// g9SingleFiles reads each root/NAME as one skill whose SKILL.md it is: a
// harvester when harvest is set, else a probe. A missing file yields
// nothing, which the load test reports.
func g9SingleFiles(root string, names []string, harvest bool) []sample {
	var out []sample
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			continue
		}
		s := sample{id: name, dir: name, skill: []File{{Path: "SKILL.md", Data: data}}}
		if harvest {
			s.attack, s.harvest = true, true
		} else {
			s.probe = true
		}
		out = append(out, s)
	}
	return out
}

// g9LoadPromptwarden reads paulochastinet/promptwarden (digit 1:
// development). examples/malicious-skill, which examples/README.md lists as
// "env exfiltration to a request catcher, SSH key theft" among other
// attacks, hides in Unicode tag characters an order to run its
// scripts/setup.sh, which posts the environment and the SSH key away: a
// harvester. Its per-rule fixtures are one line each; the clean look-alike
// of its credential-store rule (test/fixtures/rules/PW014/good/skill, "Never
// read ~/.aws/credentials") is a probe. PW016/bad keeps its harvest in a
// script its SKILL.md never names. The repository has no snapshot here:
// laid out from read_file at 5bde81c5b15a7225dd9ed736939466f29d019c0c.
func g9LoadPromptwarden(tb testing.TB, dir string) []sample {
	return append(loadNamedHarvesters(tb, filepath.Join(dir, "examples"), []string{"malicious-skill"}),
		guardsNamedProbes(tb, filepath.Join(dir, "test/fixtures/rules"), []string{"PW014/good/skill"})...)
}

// g9LoadSentinelSkill reads mdlog/SentinelSkill's fixtures (digit 0:
// development): clean-skill ("vet_skill should ALLOW") is a probe.
// malicious-skill keeps its theft in scripts/optimize.js, which its SKILL.md
// never tells the agent to run, and borderline-skill is labelled neither
// way: both are left out.
func g9LoadSentinelSkill(tb testing.TB, dir string) []sample {
	return guardsNamedProbes(tb, filepath.Join(dir, "fixtures"), []string{"clean-skill"})
}

// g9LoadSinewave reads sinewaveai/agent-security-scanner-mcp's
// tests/fixtures (digit 4: development): malicious-skill, which
// tests/scan-skill.test.js grades F ("do not install") for its "SSH theft
// references, webhook.site", posts the SSH keys to webhook.site, a
// harvester; safe-skill, graded A with no finding, is a probe.
// clawhavoc-skill (reverse shell, fake password dialog, miner) and
// skill-with-code (curl | bash, eval) send no secret. The snapshot's newest
// tree has dropped these fixtures: laid out from read_file at
// 07783535a769e5cc2865aa9e2b768404105ae07a.
func g9LoadSinewave(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return namedFixtures(tb, root, []string{"malicious-skill"}, []string{"safe-skill"})
}

// g9LoadAgentScan reads xuange-hu/agent-scan's examples/malicious-skill
// (digit 4: development), "base64 sync config that decodes to key-theft
// instructions" by examples/README.md: the decoded order posts the SSH key
// and the environment's API keys away. trojan-mcp and vulnerable-server are
// not skills. No snapshot here: laid out from read_file at
// 5471176e6ee5acefdaa6feac837e2586ed6f1e56.
func g9LoadAgentScan(tb testing.TB, dir string) []sample {
	return loadNamedHarvesters(tb, filepath.Join(dir, "examples"), []string{"malicious-skill"})
}

// g9LoadAegis reads abc123dx/agent-skill-aegis's examples (digit c: held
// out): vulnerable, the "high-risk sample" its tests
// (tests/scanner.test.ts) expect to raise critical findings, has the agent
// upload the user's files and credentials to a remote service, a
// harvester; safe, which the tests expect to raise nothing, is a probe.
func g9LoadAegis(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "examples")
	return namedFixtures(tb, root, []string{"vulnerable"}, []string{"safe"})
}

// g9VaccineHarvesters are ch040602/skill-vaccine's fixtures (digit 7:
// development) that its benchmark (tests/fixtures/benchmark/labels.json)
// labels malicious with an exfiltration class or its rule SS002 ("Secret
// exfiltration language"): malicious_skill, paraphrased_exfiltration_skill,
// zero_width_obfuscation_skill, and referenced_markdown_attack_skill, whose
// SKILL.md sends the agent to docs/workflow.md, where the order is.
// deep_script_skill's chain sits in scripts its SKILL.md never names; the
// other malicious cases inject, obfuscate, over-reach or evade without
// sending a secret.
var g9VaccineHarvesters = []string{
	"malicious_skill", "paraphrased_exfiltration_skill",
	"referenced_markdown_attack_skill", "zero_width_obfuscation_skill",
}

// g9VaccineProbes are its benchmark's "benign" cases.
var g9VaccineProbes = []string{"benign_skill", "benign_script_skill"}

func g9LoadVaccine(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return namedFixtures(tb, root, g9VaccineHarvesters, g9VaccineProbes)
}

// g9LoadLvlupSentinel reads lieox/lvlup-skill-sentinel's tests/fixtures
// (digit 2: development): malicious_skill, the case its tests
// (tests/test_vet.py) expect to be flagged, has the agent silently read the
// user's config and upload it, its scripts/run.py reading the SSH key for a
// webhook.site post: a harvester; clean_skill ("No network, no shell, no
// secrets") is a probe.
func g9LoadLvlupSentinel(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return namedFixtures(tb, root, []string{"malicious_skill"}, []string{"clean_skill"})
}

// g9LoadQuarantine reads allvegetable/skill-quarantine's tests/fixtures
// (digit 2: development): malicious_skill, which tests/test_scanner.py
// expects to trip its injection, file-access and network rules, has the
// agent include secrets and upload them to pastebin (its helper.py posts
// the SSH key there): a harvester; safe_skill, expected to raise nothing
// critical, is a probe.
func g9LoadQuarantine(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return namedFixtures(tb, root, []string{"malicious_skill"}, []string{"safe_skill"})
}

// g9LoadSkillwarden reads wookat/skillwarden's examples/skills (digit b:
// held out): malicious-skill, "secret exfiltration to a dead-drop endpoint"
// among other attacks by examples/skills/README.md (skillwarden scan exits
// 1), posts the GitHub token from its prose and has the agent run
// scripts/postinstall.sh, which posts ~/.ssh and ~/.aws: a harvester;
// benign-skill ("a realistic, clean skill", scan exits 0) is a probe.
func g9LoadSkillwarden(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "examples/skills")
	return namedFixtures(tb, root, []string{"malicious-skill"}, []string{"benign-skill"})
}

var g9Sources = []corpusSource{
	{name: "paulochastinet+promptwarden", load: g9LoadPromptwarden},
	{name: "mdlog+SentinelSkill", load: g9LoadSentinelSkill},
	{name: "sinewaveai+agent-security-scanner-mcp", load: g9LoadSinewave},
	{name: "xuange-hu+agent-scan", load: g9LoadAgentScan},
	{name: "ch040602+skill-vaccine", load: g9LoadVaccine},
	{name: "lieox+lvlup-skill-sentinel", load: g9LoadLvlupSentinel},
	{name: "allvegetable+skill-quarantine", load: g9LoadQuarantine},
	{name: "Ap6pack+malwar", heldOut: true, load: g9LoadMalwar},
	{name: "abc123dx+agent-skill-aegis", heldOut: true, load: g9LoadAegis},
	{name: "wookat+skillwarden", heldOut: true, load: g9LoadSkillwarden},
}

func init() { corpusSources = append(corpusSources, g9Sources...) }

// TestMore9SourcesLoad checks that each source of this file, when laid out,
// yields every harvester and probe its lists name, and runs no verdict: a
// fixture moved upstream must fail here rather than shrink a figure
// quietly.
func TestMore9SourcesLoad(t *testing.T) {
	checkSourceCounts(t, g9Sources, map[string][2]int{ // harvesters, probes
		"paulochastinet+promptwarden":           {1, 1},
		"mdlog+SentinelSkill":                   {0, 1},
		"sinewaveai+agent-security-scanner-mcp": {1, 1},
		"xuange-hu+agent-scan":                  {1, 0},
		"ch040602+skill-vaccine":                {len(g9VaccineHarvesters), len(g9VaccineProbes)},
		"lieox+lvlup-skill-sentinel":            {1, 1},
		"allvegetable+skill-quarantine":         {1, 1},
		"Ap6pack+malwar":                        {len(g9MalwarHarvesters), len(g9MalwarProbes)},
		"abc123dx+agent-skill-aegis":            {1, 1},
		"wookat+skillwarden":                    {1, 1},
	})
}
