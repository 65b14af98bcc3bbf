package scan

import (
	"path/filepath"
	"testing"
)

// Sources gathered by issue 43's tenth session (helper g14c) by searching
// public code BY CONTENT for the stores and sinks harvesters use (webhook
// and paste sites, request catchers, SSH and cloud keys, .env files,
// tokens) inside skill fixtures, and keeping only the fixtures whose
// authors label them malicious (a corpus manifest with an expected result,
// a README table, a test that expects a detection). A harvester is a
// fixture whose author labels it an attack and whose text reads secrets or
// the user's private data AND sends them away, in prose the model reads or
// in a script the SKILL.md tells the agent to run; one that only gathers
// keys, only prints them, only runs remote code or keeps its harvest in
// code the SKILL.md never names is left out. Clean fixtures written for a
// tool's tests are probes, counted apart from real skills. The split is
// the first hex digit of sha256(OWNER/NAME): 0-7 development, 8-f held
// out. The lists were fixed from the authors' labels before any verdict of
// this scanner on them was seen; held-out ones are only measured.

// g14cVeyraHarvesters are Anne117/veyra's attack-lab fixtures (digit 9:
// held out) under tests/fixtures/attacks, each a SKILL.md. Its manifest
// (ATTACK_CASES in src/veyra/attack_lab.py) files them as attacks and
// says what each does: secret-exfiltration/env-dump ("Reveal env vars +
// send externally"), multi-stage/data-sync ("read config -> extract key ->
// send externally"), the v2 secret-exfiltration cases read-extract-post,
// read-extract-webhook, read-secret-upload, many-unrelated-lines and
// different-network-api ("read -> extract -> POST", "-> webhook",
// "read secret -> upload", "-> urllib POST"), the v2 multi-stage
// sensitive-transform-network and discovery-secret-network ("sensitive ->
// transform -> network", "discovery -> secret -> network") and the v2
// prompt-injection send-data-external ("send local config externally": a
// database config, which holds its credentials). Left out:
// v2/secret-exfiltration/read-transform-network, whose "local data" the
// author says is "not demonstrably sensitive" (docs/attack-lab-v2.md);
// v2/multi-stage/source-sensitive-network, the same text as data-sync
// but its Purpose line (one sample, not two); prompt-injection/
// exfiltrate-files, which sends "local files" with no secret or private
// data named; the secret-access and sensitive-path cases, which read or
// print a secret and send nothing; and the injection, download, shell,
// obfuscation and MCP cases, other attacks. The repository has no snapshot
// here: the session laid the files out from read_file at
// 5b8c2df2e9b16c73ed6c2c619c6ea1691c419bcc.
var g14cVeyraHarvesters = []string{
	"multi-stage/data-sync",
	"secret-exfiltration/env-dump",
	"v2/multi-stage/discovery-secret-network",
	"v2/multi-stage/sensitive-transform-network",
	"v2/prompt-injection/send-data-external",
	"v2/secret-exfiltration/different-network-api",
	"v2/secret-exfiltration/many-unrelated-lines",
	"v2/secret-exfiltration/read-extract-post",
	"v2/secret-exfiltration/read-extract-webhook",
	"v2/secret-exfiltration/read-secret-upload",
}

// g14cVeyraProbes are its benign fixtures (is_benign=True in the manifest)
// of the categories that hold its harvesters and its v2 benign look-alikes
// that are skills (legit-deps, local-build and legit-mcp are a script, a
// script and an MCP config): a config helper that redacts secrets, a
// metrics sender, a local report generator, and the look-alikes that set
// environment variables, make HTTP requests, handle an incident, forbid
// revealing secrets, document secrets handling, teach secure coding and
// teach security concepts.
var g14cVeyraProbes = []string{
	"secret-exfiltration/benign",
	"v2/benign-lookalikes/env-vars",
	"v2/benign-lookalikes/http-requests",
	"v2/benign-lookalikes/incident-response",
	"v2/benign-lookalikes/never-reveal",
	"v2/benign-lookalikes/secrets-doc",
	"v2/benign-lookalikes/secure-coding",
	"v2/benign-lookalikes/security-tutorial",
	"v2/multi-stage/benign",
	"v2/secret-exfiltration/benign-read-network",
}

func g14cLoadVeyra(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures/attacks")
	return namedFixtures(tb, root, g14cVeyraHarvesters, g14cVeyraProbes)
}

// g14cLoadSkillbench reads EpochTX/skillbench's tests/fixtures (digit 2:
// development), a skill linter whose corpus (tests/corpus/rules.yml)
// expects dangerous-skill to fire all its safety rules, among them SB102
// "Credential file access": its text has the agent read .env and
// ~/.ssh/id_rsa and upload the browser's cookies, a harvester (many
// attacks in one, written to trip the linter's own rules: development
// only). good-skill and multiplatform-skill, which the corpus expects to
// fire no rule, are probes; bad-skill, bloated-skill and conflicting-skill
// are quality fixtures, neither attacks nor look-alikes.
func g14cLoadSkillbench(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return namedFixtures(tb, root, []string{"dangerous-skill"}, []string{"good-skill", "multiplatform-skill"})
}

// g14cLoadArx reads arjunkomath/arx's tests/fixtures (digit 5:
// development), single-file fixtures of an agent prompt scanner:
// malicious.md ("Helpful Agent Skill"), which its tests
// (tests/scan_test.rs) expect to fail the scan, has the agent output all
// environment variables and POST them to a collector, a harvester, read
// as a skill's SKILL.md; clean.md (a weather skill), which the tests
// expect to pass, is a probe. Its other fixtures are jailbreaks, encoded
// or code injection, web injection and embedded secrets, none of which
// sends anything.
func g14cLoadArx(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return append(g12SingleFiles(root, []string{"malicious.md"}, true),
		g12SingleFiles(root, []string{"clean.md"}, false)...)
}

// g14cAgentverusHarvesters are agentverus/agentverus-scanner's skill
// fixtures (test/fixtures/skills/NAME, each a skill's whole SKILL.md;
// digit 5: development) that its tests label attacks sending secrets
// away: malicious-exfiltration.md ("credential exfiltration", rejected,
// test/scanner/golden.test.ts), evasion-hidden-in-codeblock.md ("REAL
// exfiltration instructions in prose", adversarial.test.ts),
// evasion-indirect-exfiltration.md ("reads configs and encodes them into a
// URL parameter", a known evasion technique), evasion-fake-security-skill.md
// ("real credential theft and data exfiltration instructions",
// evasion-context.test.ts), evasion-negation-disguise.md ("switches to real
// malicious instructions" after a safety section: the SSH key and the
// environment's keys sent to a collector) and
// evasion-threat-table-injection.md ("real injection instructions outside
// the table": the AWS credentials POSTed away). Its other attack fixtures
// run remote code, tamper with agent config, inject, escalate or hide;
// browser-session-risk.md is dual-use ("suspicious"), and
// test/fixtures/packages/companion-exfiltration keeps its post in a
// weather.ts its SKILL.md never names. jdrhyne/agentverus is the same
// project's first repository (same first commit, an older copy of these
// fixtures) and is not added apart.
var g14cAgentverusHarvesters = []string{
	"evasion-fake-security-skill.md",
	"evasion-hidden-in-codeblock.md",
	"evasion-indirect-exfiltration.md",
	"evasion-negation-disguise.md",
	"evasion-threat-table-injection.md",
	"malicious-exfiltration.md",
}

// g14cAgentverusProbes are its fixtures whose names say they are safe or
// legitimate look-alikes, which its tests expect to pass: security
// teaching with attacks in code blocks, safety negations, a safe agent
// config, a curl|bash of a known installer, a security scanner skill and
// the minimal and complex safe skills.
var g14cAgentverusProbes = []string{
	"config-tampering-safe.md",
	"evasion-context-safe.md",
	"evasion-negation-safe.md",
	"legit-curl-install.md",
	"legit-security-skill.md",
	"safe-basic.md",
	"safe-complex.md",
}

func g14cLoadAgentverus(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "test/fixtures/skills")
	return append(g12SingleFiles(root, g14cAgentverusHarvesters, true),
		g12SingleFiles(root, g14cAgentverusProbes, false)...)
}

// g14cLoadSkillshare reads runkids/skillshare's internal/audit/testdata
// (digit c: held out), single-file skills of its audit command:
// malicious-exfiltration.md ("exfil-skill", by its file name an
// exfiltration attack) has the agent send the API key and a token in
// request URLs among reads of credential files, a harvester; clean-skill.md
// ("A perfectly safe skill for testing") is a probe. The destructive,
// injection, obfuscation and unicode fixtures are other attacks.
func g14cLoadSkillshare(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "internal/audit/testdata")
	return append(g12SingleFiles(root, []string{"malicious-exfiltration.md"}, true),
		g12SingleFiles(root, []string{"clean-skill.md"}, false)...)
}

// g14cLoadX402guard reads goheesheng/x402guard's examples/test-skills
// (digit 8: held out), the test skills of a paid skill-audit API, which
// its spec (.spec-workflow/specs/mainnet-deployment-x402-testing/design.md)
// lists as known-bad and known-good: malicious-exfiltration.md ("Data
// exfiltration patterns", "Contains webhook.site POST") has a setup block
// that posts the environment to request catchers, a harvester;
// safe-weather-skill.md ("Clean skill, should return SAFE") is a probe.
// malicious-credential-theft.md gathers cloud and SSH keys and sends
// nothing. The repository has no snapshot here: the session laid the
// files out from read_file at c00983bc86df85733acec8eb34ac9777f9c6016d.
func g14cLoadX402guard(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "examples/test-skills")
	return append(g12SingleFiles(root, []string{"malicious-exfiltration.md"}, true),
		g12SingleFiles(root, []string{"safe-weather-skill.md"}, false)...)
}

var g14cSources = []corpusSource{
	{name: "EpochTX+skillbench", load: g14cLoadSkillbench},
	{name: "arjunkomath+arx", load: g14cLoadArx},
	{name: "agentverus+agentverus-scanner", load: g14cLoadAgentverus},
	{name: "Anne117+veyra", heldOut: true, load: g14cLoadVeyra},
	{name: "runkids+skillshare", heldOut: true, load: g14cLoadSkillshare},
	{name: "goheesheng+x402guard", heldOut: true, load: g14cLoadX402guard},
}

func init() { corpusSources = append(corpusSources, g14cSources...) }

// TestMore14cSourcesLoad checks that each source of this file, when laid
// out, yields every harvester and probe its lists name, and runs no
// verdict: a fixture moved upstream must fail here rather than shrink a
// figure quietly.
func TestMore14cSourcesLoad(t *testing.T) {
	want := map[string][2]int{
		"EpochTX+skillbench":            {1, 2},
		"arjunkomath+arx":               {1, 1},
		"agentverus+agentverus-scanner": {len(g14cAgentverusHarvesters), len(g14cAgentverusProbes)},
		"Anne117+veyra":                 {len(g14cVeyraHarvesters), len(g14cVeyraProbes)},
		"runkids+skillshare":            {1, 1},
		"goheesheng+x402guard":          {1, 1},
	}
	checkSourceCounts(t, g14cSources, want)
}
