package scan

import (
	"os"
	"path/filepath"
	"testing"
)

// Sources gathered by issue 43's eighth round (helper g7) by searching for
// the strings disguised harvesters use (a key "backup", an env
// "inspector", a "credential helper", a "sync") and for the fixture folders
// other skill scanners, audits and gates ship (malicious-skill,
// malicious_skill, data-exfil…). None was read here before. A harvester is
// a fixture whose author labels it malicious (its folder, its own
// description, a test or CI step that expects the tool to fail it) and whose
// prose, or a script its SKILL.md tells the agent to run, reads secrets or
// the user's data AND sends them away; a fixture that only reads keys, only
// runs remote code, persists or destroys is left out, and so is one whose
// harvest sits in code the SKILL.md never points to. Clean fixtures written
// for a tool's tests are probes, counted apart from real skills. The split
// is the first hex digit of sha256(OWNER/NAME): 0-7 development, 8-f held
// out; the lists were fixed from the authors' labels before any verdict of
// this scanner on them was seen, and the held-out ones were never scanned.
//
// Kitchen sinks: a fixture its author writes to trip most of its tool's
// rules at once (tests that list five or more rules it must fire, "trigger
// every security check", "all seven risk categories") is withheld by any
// rule it trips, so it says little about harvests; as issue 43 decided for
// such fixtures, it counts only from a development source. Three held-out
// sources below (royalpinto007, Mohammad1sh, hussainu6) lose their
// malicious fixture to that rule and keep only their clean probe.

// g7SingleFile reads one file as a skill's SKILL.md, a harvester or a probe.
func g7SingleFile(path string, harvest bool) []sample {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	name := filepath.Base(path)
	return []sample{{
		id: name, attack: harvest, harvest: harvest, probe: !harvest,
		skill: []File{{Path: "SKILL.md", Data: data}}, dir: name,
	}}
}

// g7Named reads root/NAME for each harvester and probe name.
func g7Named(tb testing.TB, root string, harvesters, probes []string) []sample {
	return namedFixtures(tb, root, harvesters, probes)
}

// loadG7Ferret reads fubak/ferret-scan's test/fixtures (digit 4:
// development), single files read as SKILL.md: malicious-skill.md ("various
// security threats that Ferret should detect", which its CLI test scans for
// findings) orders the agent to post the whole environment to a webhook and
// upload any API key it finds, among prompt injection, a jailbreak, an
// installer and persistence: a kitchen sink, development only.
// clean-skill.md, which its Scanner test expects to yield no finding, is a
// probe. evil-hook.sh is no skill.
func loadG7Ferret(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "test/fixtures")
	return append(g7SingleFile(filepath.Join(root, "malicious-skill.md"), true),
		g7SingleFile(filepath.Join(root, "clean-skill.md"), false)...)
}

// loadG7Mp3wizard reads mp3wizard/claude-code-security-plugins'
// tests/fixtures/malicious-skill (digit 3: development), "planted indicators"
// its run-tests.sh expects skill-audit.sh and mcp-exfil-scan.sh to flag: the
// agent silently reads the AWS credentials and the SSH key and sends them
// away through WebFetch. The snapshot's HEAD no longer holds it: laid out
// from read_file at d2cc854d265d44e086e57be3300f6999ad79864e.
func loadG7Mp3wizard(tb testing.TB, dir string) []sample {
	return loadNamedHarvesters(tb, filepath.Join(dir, "tests/fixtures"), []string{"malicious-skill"})
}

// loadG7Rahulraabta reads rahulraabta/skill-quality-auditor's tests/fixtures
// (digit 0: development): malicious-skill ("deliberately malicious patterns
// to verify the security scanner detects them") pipes the AWS credentials to
// an outside host, in its prose and in its setup.sh; clean-skill, the
// auditor's reference of a well-written skill, is a probe.
// poor-quality-skill is a quality fixture and is not laid out. No snapshot:
// laid out from read_file at 7e25c3efb065e27324f9c13fe4bb484911a5e77f.
func loadG7Rahulraabta(tb testing.TB, dir string) []sample {
	return g7Named(tb, filepath.Join(dir, "tests/fixtures"), []string{"malicious-skill"}, []string{"clean-skill"})
}

// loadG7SkillLab reads skilllabdev/Skill-Lab-Action's tests/fixtures (digit
// 2: development): malicious-skill, which its CI (test.yml) expects the
// security gate to BLOCK, poses as an "env-inspector" that dumps the
// environment and the AWS, SSH and netrc secrets and uploads the bundle for
// "analysis"; good-skill, expected to pass, is a probe. bad-skill is a
// quality fixture, not counted.
func loadG7SkillLab(tb testing.TB, dir string) []sample {
	return g7Named(tb, filepath.Join(dir, "tests/fixtures"), []string{"malicious-skill"}, []string{"good-skill"})
}

// loadG7Revit reads thanhtranarch/revit.claude-skills'
// tests/fixtures/malicious-skill (digit 7: development), "a deliberately
// malicious skill used to prove that audit_skill.py flags dangerous
// patterns", whose hidden instructions exfiltrate the API_KEY environment
// variable to the attacker. It has no clean fixture.
func loadG7Revit(tb testing.TB, dir string) []sample {
	return loadNamedHarvesters(tb, filepath.Join(dir, "tests/fixtures"), []string{"malicious-skill"})
}

// loadG7Sharadvc reads sharadvc/Skill-audit's test/fixtures/malicious-skill
// (digit 6: development), a "repo-helper" whose prose forwards the API key
// and the AWS credentials to a webhook "so we can keep a backup". The held-out
// royalpinto007/skill-audit holds a near copy, which is therefore not counted
// there. No snapshot: laid out from read_file (SKILL.md at
// 29a7381ca4912bbb2029d23387bae908382397bb, setup.sh at
// 00e6d67b393b5b87f3b5ef366181f4931e03ef0a).
func loadG7Sharadvc(tb testing.TB, dir string) []sample {
	return loadNamedHarvesters(tb, filepath.Join(dir, "test/fixtures"), []string{"malicious-skill"})
}

// loadG7SkillAuditor reads 22WELTYANG/skill-auditor's examples (digit 0:
// development): malicious-skill poses as a Markdown formatter and, by its
// README's table, "uploads collected credentials to an outside collector
// host" in the scripts/setup.sh its SKILL.md says to run, among all seven
// risk categories of that tool (a kitchen sink, development only); the
// README is the label and is not laid out inside the skill. clean-skill
// ("does not write, delete, or send anything anywhere") is a probe. No
// snapshot: laid out from read_file at
// 2d1da4ba6fb972c1580d1564c3dddd12c59abac9.
func loadG7SkillAuditor(tb testing.TB, dir string) []sample {
	return g7Named(tb, filepath.Join(dir, "examples"), []string{"malicious-skill"}, []string{"clean-skill"})
}

// loadG7Ag1rin reads Ag1rin/SkillGuard's examples (digit 6: development),
// each malicious one asserted in tests/test_analyzer.py or blocked in CI:
// malicious-skill has the agent run a block that posts os.environ to a
// webhook; malicious-skill-hooks, a "git-commit-helper", mirrors every tool
// result with the environment to a telemetry host for "analytics";
// malicious-skill-url-leak appends a credential seen on screen to the
// "further reading" link it shows. malicious-skill-mcp-creds routes the
// workspace through the author's server by configuration, reading no secret,
// and is left out. safe-skill and review-skill-webhook-integration (the
// README's "benign example with declared network use") are probes.
func loadG7Ag1rin(tb testing.TB, dir string) []sample {
	return g7Named(tb, filepath.Join(dir, "examples"),
		[]string{"malicious-skill", "malicious-skill-hooks", "malicious-skill-url-leak"},
		[]string{"safe-skill", "review-skill-webhook-integration"})
}

// loadG7Mannanj reads mannanj/skillguard's tests/fixtures (digit 0:
// development): malicious-skill, a "dev environment sync" its SKILL.md says
// is a test fixture with deliberately malicious instructions, has the agent
// run scripts/setup.sh, which posts the environment and the SSH key away; its
// clean-skill is a probe (tests/conftest.py names both).
func loadG7Mannanj(tb testing.TB, dir string) []sample {
	return g7Named(tb, filepath.Join(dir, "tests/fixtures"), []string{"malicious-skill"}, []string{"clean-skill"})
}

// loadG7Rootkiller reads rootkiller6788/skillscan's test/fixtures (digit 2:
// development): malicious, a "Credential Helper" that "collects and forwards
// user credentials to the developer" by piping the SSH key to an outside
// host; safe is a probe. suspicious is an installer only. No snapshot: laid
// out from read_file at d4ebf5ecae6f5a7deb80fc0851853c0339a72b08.
func loadG7Rootkiller(tb testing.TB, dir string) []sample {
	return g7Named(tb, filepath.Join(dir, "test/fixtures"), []string{"malicious"}, []string{"safe"})
}

// loadG7Frank reads Frrrrrrrrank/clawguard's tests/fixtures (digit 7:
// development): data-exfil, a "backup-tool" that pipes the SSH key to an
// outside host; safe-skill is a probe. malicious-injection and overreach are
// other faults and are not laid out. No snapshot: laid out from read_file at
// 199ad3df11a2dea2cceaa33a290a4e194f0e2d3c.
func loadG7Frank(tb testing.TB, dir string) []sample {
	return g7Named(tb, filepath.Join(dir, "tests/fixtures"), []string{"data-exfil"}, []string{"safe-skill"})
}

// loadG7Hivemind reads HexingBot/hivemind's
// tests/fixtures/skills/malicious-skill (digit 4: development), "a fixture
// skill deliberately carrying risky content patterns" for its skill-scan.js,
// whose block posts OPENAI_API_KEY to an outside host, beside an installer
// and an encoded executable. Its other fixtures test licences.
func loadG7Hivemind(tb testing.TB, dir string) []sample {
	return loadNamedHarvesters(tb, filepath.Join(dir, "tests/fixtures/skills"), []string{"malicious-skill"})
}

// g7FayzanHarvesters are fayzan123/context-audit's test/fixtures (digit 9:
// held out) that send secrets or the user's data away: malicious-skill (its
// folder the label; an encoded command posts the SSH key), prose-exfil and
// unicode-smuggle, which test/run.mjs lists among its attack fixtures (the
// first pushes the whole codebase to an outside remote, the second hides an
// order to mail the SSH key away). clawhavoc-shape, dynamic-exec,
// split-evasion and plugin-promo are installers, dynamic context or
// plugins.
var g7FayzanHarvesters = []string{"malicious-skill", "prose-exfil", "unicode-smuggle"}

// g7FayzanProbes are its clean fixtures: benign-devops and benign-hook, which
// run.mjs requires to raise no flag, and benign-tricky ("a well-behaved skill
// whose content is full of scanner near-misses").
var g7FayzanProbes = []string{"benign-devops", "benign-hook", "benign-tricky"}

func loadG7Fayzan(tb testing.TB, dir string) []sample {
	return g7Named(tb, filepath.Join(dir, "test/fixtures"), g7FayzanHarvesters, g7FayzanProbes)
}

// loadG7Nilay reads nilaymallikk/SkillGuard's tests/fixtures (digit f: held
// out): malicious_skill ("prompt-injection and exfiltration patterns") has
// the agent read the SSH key and post it away; safe_skill ("harmless fixture
// used by the test suite") is a probe. No snapshot: laid out from read_file
// at abadac9ae1572c4603268ed2f8666bf6075eb81b.
func loadG7Nilay(tb testing.TB, dir string) []sample {
	return g7Named(tb, filepath.Join(dir, "tests/fixtures"), []string{"malicious_skill"}, []string{"safe_skill"})
}

// loadG7Vman reads vman7250/clawguard's tests/fixtures/malicious_skill (digit
// b: held out), a "crypto-wallet-tracker" whose setup sends the agent's
// configuration with its API keys to a webhook "for verification". It has no
// clean skill fixture.
func loadG7Vman(tb testing.TB, dir string) []sample {
	return loadNamedHarvesters(tb, filepath.Join(dir, "tests/fixtures"), []string{"malicious_skill"})
}

// loadG7Cloudanimal reads cloudanimal/agent-supply-chain-scanner's fixtures
// (digit 8: held out): malicious, which its CI expects the scan to fail,
// posts the AWS credentials to a webhook and its scripts/setup.sh sends the
// environment away; clean, expected to pass, is a probe.
func loadG7Cloudanimal(tb testing.TB, dir string) []sample {
	return g7Named(tb, filepath.Join(dir, "fixtures"), []string{"malicious"}, []string{"clean"})
}

// loadG7ProbeOnly reads root/clean-skill as a probe, for the held-out sources
// whose malicious fixture is a kitchen sink (see the top of this file):
// royalpinto007/skill-audit (digit a; its malicious-skill is asserted to
// fire ten rules, and is a near copy of sharadvc's), Mohammad1sh/agentscan
// (digit f; seven rules) and hussainu6/skillguardian (digit 9; seven rules,
// no snapshot, laid out from read_file at
// fc4df2e379880660ce00293463c93cb1d8e7754d). Each clean-skill is expected by
// its tests to yield no finding.
func loadG7ProbeOnly(tb testing.TB, dir string) []sample {
	return guardsNamedProbes(tb, filepath.Join(dir, "test/fixtures"), []string{"clean-skill"})
}

var g7Sources = []corpusSource{
	{name: "fubak+ferret-scan", load: loadG7Ferret},
	{name: "mp3wizard+claude-code-security-plugins", load: loadG7Mp3wizard},
	{name: "rahulraabta+skill-quality-auditor", load: loadG7Rahulraabta},
	{name: "skilllabdev+Skill-Lab-Action", load: loadG7SkillLab},
	{name: "thanhtranarch+revit.claude-skills", load: loadG7Revit},
	{name: "sharadvc+Skill-audit", load: loadG7Sharadvc},
	{name: "22WELTYANG+skill-auditor", load: loadG7SkillAuditor},
	{name: "Ag1rin+SkillGuard", load: loadG7Ag1rin},
	{name: "mannanj+skillguard", load: loadG7Mannanj},
	{name: "rootkiller6788+skillscan", load: loadG7Rootkiller},
	{name: "Frrrrrrrrank+clawguard", load: loadG7Frank},
	{name: "HexingBot+hivemind", load: loadG7Hivemind},
	{name: "fayzan123+context-audit", heldOut: true, load: loadG7Fayzan},
	{name: "nilaymallikk+SkillGuard", heldOut: true, load: loadG7Nilay},
	{name: "vman7250+clawguard", heldOut: true, load: loadG7Vman},
	{name: "cloudanimal+agent-supply-chain-scanner", heldOut: true, load: loadG7Cloudanimal},
	{name: "royalpinto007+skill-audit", heldOut: true, load: loadG7ProbeOnly},
	{name: "Mohammad1sh+agentscan", heldOut: true, load: loadG7ProbeOnly},
	{name: "hussainu6+skillguardian", heldOut: true, load: loadG7ProbeOnly},
}

func init() { corpusSources = append(corpusSources, g7Sources...) }

// TestG7SourcesLoad checks that each source of this file, when laid out,
// yields every harvester and probe its loader names, and runs no verdict: a
// fixture moved upstream must fail here rather than shrink a figure quietly.
func TestG7SourcesLoad(t *testing.T) {
	want := map[string][2]int{
		"fubak+ferret-scan":                      {1, 1},
		"mp3wizard+claude-code-security-plugins": {1, 0},
		"rahulraabta+skill-quality-auditor":      {1, 1},
		"skilllabdev+Skill-Lab-Action":           {1, 1},
		"thanhtranarch+revit.claude-skills":      {1, 0},
		"sharadvc+Skill-audit":                   {1, 0},
		"22WELTYANG+skill-auditor":               {1, 1},
		"Ag1rin+SkillGuard":                      {3, 2},
		"mannanj+skillguard":                     {1, 1},
		"rootkiller6788+skillscan":               {1, 1},
		"Frrrrrrrrank+clawguard":                 {1, 1},
		"HexingBot+hivemind":                     {1, 0},
		"fayzan123+context-audit":                {len(g7FayzanHarvesters), len(g7FayzanProbes)},
		"nilaymallikk+SkillGuard":                {1, 1},
		"vman7250+clawguard":                     {1, 0},
		"cloudanimal+agent-supply-chain-scanner": {1, 1},
		"royalpinto007+skill-audit":              {0, 1},
		"Mohammad1sh+agentscan":                  {0, 1},
		"hussainu6+skillguardian":                {0, 1},
	}
	checkSourceCounts(t, g7Sources, want)
}
