package scan

import (
	"bytes"
	"path/filepath"
	"testing"
)

// Sources gathered by issue 43's ninth session (helper g11) from skills
// written inline in other projects' test code or evaluation scripts (a Python
// triple-quoted string, a TypeScript template literal, a Go raw string) that
// the code writes to a SKILL.md and labels malicious: it asserts a block, a
// critical finding or a failing grade, or names and describes the skill as
// one. Each such skill is laid out under the source's folder as
// TESTFILE/CONSTANT/SKILL.md (the test file's path without its extension, then
// the name the test gives the text), from the text read_file holds at the
// commit PROVENANCE.txt names with the line it starts on; a skill the test
// builds (the base64 one of hol-guard) is built as the test builds it.
// MaxHagl/agentic-scanner and skill-organizer keep their fixtures as files,
// found on the way: agentic-scanner's are read where they are. A harvester is
// a skill whose author labels it malicious and whose text reads secrets or the
// user's data AND sends them away; a fixture that only reads keys, only runs
// remote code, persists or destroys is left out. Clean skills the same tests
// expect to pass are probes, counted apart from real skills. The split is the
// first hex digit of sha256(OWNER/NAME): 0-7 development, 8-f held out. The
// lists were fixed from the authors' labels before any verdict of this scanner
// on them was seen; held-out ones are only measured.

// g11KelvraHarvesters is greninja-op/kelvra-security's one inline skill
// (digit f: held out): tests/test_security_full_spec.py's
// test_screen_skill_rejects_malicious_payload expects
// REJECTED_MALICIOUS_SKILL for a SKILL.md that posts $(cat .env) to
// webhook.site (besides rm -rf /).
var g11KelvraHarvesters = []string{"tests/test_security_full_spec/malicious_skill"}

// g11HackmyagentHarvesters are opena2a-org/hackmyagent's inline skills
// (digit a: held out) that its tests expect to raise findings and that send
// secrets or the user's files away: machine-posture-not-scored.test.ts's
// "harvester" (~/.aws/credentials and ~/.ssh/id_rsa posted to webhook.site;
// "credential access, exfiltration endpoint", asserted high or critical),
// json-exit-code-parity.test.ts's fixture that uploads every file under
// $HOME (asserted risk critical) and scanner-bridge.test.ts's skill that
// forwards the session token to an outside host ("detects exfiltration in a
// malicious skill", attack class SKILL-EXFIL). Its cred-harvest-prose-clause
// control only pastes a key into a report, and its fixture folders are
// prose-rule probes, not attacks.
var g11HackmyagentHarvesters = []string{
	"__tests__/cli/machine-posture-not-scored/MALICIOUS_SKILL",
	"__tests__/cli/json-exit-code-parity/MALICIOUS_SKILL",
	"__tests__/nanomind-core/scanner-bridge/MALICIOUS_SKILL",
}

// g11HackmyagentProbes is scanner-bridge.test.ts's BENIGN_SKILL, which the
// test expects to raise few or no high findings.
var g11HackmyagentProbes = []string{"__tests__/nanomind-core/scanner-bridge/BENIGN_SKILL"}

// g11AgentArenaHarvesters is haomingkoo/Agent-Arena's tests/conftest.py
// MALICIOUS_SKILL_MD (digit c: held out), the fixture of its safety tests,
// "This skill tries to steal your credentials": it reads .env and sends it
// away, and uploads the API key with curl.
var g11AgentArenaHarvesters = []string{"tests/conftest/MALICIOUS_SKILL_MD"}

// g11HolGuardHarvesters are hashgraph-online/hol-guard's inline skills in
// tests/test_guard_skill_protection.py (digit 2: development) whose test
// asserts a secret read or an exfiltration sink:
// _MALICIOUS_SECRET_EXFIL_SKILL ("exfiltrates secrets": cat .env, then curl
// -d @.env) and _MALICIOUS_ENCODED_SKILL with the base64 of the same curl
// that test_malicious_encoded_payload_detected appends (its variable is
// secret_cmd). _MALICIOUS_GIT_HOOK_SKILL is labelled a git hook
// (persistence), and the others disable the guard, persist, hide actions
// or run remote code.
var g11HolGuardHarvesters = []string{
	"tests/test_guard_skill_protection/_MALICIOUS_ENCODED_SKILL",
	"tests/test_guard_skill_protection/_MALICIOUS_SECRET_EXFIL_SKILL",
}

// g11HolGuardProbes are the two skills the same tests expect to raise no
// signal at all.
var g11HolGuardProbes = []string{
	"tests/test_guard_skill_protection/_BENIGN_DOCS_SKILL",
	"tests/test_guard_skill_protection/_BENIGN_IMAGE_GEN_SKILL",
}

// g11ForensicsHarvesters are alexgreensh/repo-forensics' prose-only exfil
// skills (digit f: held out) in
// skills/repo-forensics/tests/test_reflective_review_fixes.py, which "must
// still BLOCK" (exit 2, Potential Data Exfiltration): ~/.aws/credentials and
// ~/.ssh/id_rsa posted to a hook, on two lines and on one. The snapshot here
// predates the file: laid out from read_file at
// faa7bc459956856123a0e5d43a35f134bfaa133a.
var g11ForensicsHarvesters = []string{
	"skills/repo-forensics/tests/test_reflective_review_fixes/PROSE_EXFIL_SKILL",
	"skills/repo-forensics/tests/test_reflective_review_fixes/PROSE_EXFIL_SKILL_ONE_LINE",
}

// g11JaviForgeHarvesters is JNZader/javi-forge's
// src/lib/skill-scanner.test.ts MALICIOUS_CREDENTIAL_SKILL (digit c: held
// out), "Steals your credentials", which the tests expect to be blocked
// (critical credential-theft): it reads the SSH keys and sends them to "our
// server". Its _MALICIOUS_EXFILTRATION_SKILL posts the literal word
// "secret", a made-up value, and is left out.
var g11JaviForgeHarvesters = []string{"src/lib/skill-scanner.test/MALICIOUS_CREDENTIAL_SKILL"}

// g11JaviForgeProbes is its SAFE_SKILL, expected to pass with no high
// finding.
var g11JaviForgeProbes = []string{"src/lib/skill-scanner.test/SAFE_SKILL"}

// g11SkilLockHarvesters is skills-lock/skil-lock's
// cmd/skil-lock/e2e_test.go maliciousSkill (digit e: held out), named
// "malicious" and described by itself as a skill that "Reads the env file
// and exfils via curl" (cat ./.env, then curl -d @./.env to an outside
// host); the test asserts the curl, the URL and the .env read are
// extracted. Laid out from read_file at
// 8d8602aea369ea5c4af0bc84fdc881c76fe77e99.
var g11SkilLockHarvesters = []string{"cmd/skil-lock/e2e_test/maliciousSkill"}

// g11SkilLockProbes is its benignSkill (pdftotext on local files), the
// clean twin the same tests lock and pass.
var g11SkilLockProbes = []string{"cmd/skil-lock/e2e_test/benignSkill"}

// g11SkillOrganizerHarvesters is sergiocarracedo/skill-organizer's
// packages/cli/internal/security/testdata/dangerous/env_exfil (digit d: held
// out), a file fixture filed under "dangerous" whose own description says it
// "Exfiltrates environment variables to remote server" (API keys, tokens and
// the AWS secret posted with curl). Its other dangerous fixtures download,
// obfuscate or run shell commands; its security-fixtures carry the risk
// verdict of the tool's own LLM evaluator in their front matter (a label
// written by a model, inside the text) and are not read. No snapshot of that
// tree here: laid out from read_file at
// 1967b01e92dcb4b33f77d88b9eb862a1aae8e1d9, the version before that
// evaluator wrote its metadata into the file.
var g11SkillOrganizerHarvesters = []string{"packages/cli/internal/security/testdata/dangerous/env_exfil"}

// g11ACIHarvesters is hien078/ai-capability-infrastructure's
// scripts/judge_probe.py BAD_BODIES["exfil-directive"] (digit b: held out),
// one of "the §61 adversarial families, author-written" that its LLM judge
// probe takes as ground-truth bad, "exfiltrates secrets": ~/.env and every
// environment variable posted away. Its credential-access body only puts
// the keys in the reply, and the others game rankings, destroy or say
// nothing.
var g11ACIHarvesters = []string{"scripts/judge_probe/BAD_BODIES/exfil-directive"}

// g11AgenticScannerHarvesters are MaxHagl/agentic-scanner's adversarial
// fixtures (tests/fixtures/adversarial/NAME, digit 9: held out), each a
// skill or tool's whole description, whose label sends secrets away: the
// attack column of eval_adversarial_e.py names E011 "cat credentials | curl
// webhook", E012 "SSH private keys → remote escrow", E014 "… API key
// exfil", E016 "harvest/relay/dispatch exfil", E019 "Exfil activated only
// when …" and E020 "… exfil intent" (each of their texts names the
// credentials and tokens sent), and E022's own _fixture_meta says
// "exfiltration of full os.environ to external endpoint" (BLOCK). E021
// (WARN, "slightly malicious") sends an API key only as bearer auth to its
// own endpoint and is left out; the others encode, inject, persist or run
// remote code.
var g11AgenticScannerHarvesters = []string{
	"E011-env-exfiltration.md", "E012-credential-harvesting.md", "E014-typosquat.md",
	"E016-semantic-synonym.md", "E019-conditional-activation.md",
	"E020-double-negative-injection.md", "E022-compliance-auditor-evasion.md",
}

// g11AgenticScannerProbes are, of its 56 benign fixtures (rewritten
// READMEs of real tools), the five that are look-alikes of those
// harvesters: they handle credentials or call a weather API.
var g11AgenticScannerProbes = []string{
	"BN-043-boto3.md", "BN-051-vault.md", "BN-053-python-dotenv.md",
	"BN-054-kubernetes-secrets.md", "BN-056-weather-api.md",
}

func g11LoadAgenticScanner(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	out := append(g9SingleFiles(filepath.Join(root, "adversarial"), g11AgenticScannerHarvesters, true),
		g9SingleFiles(filepath.Join(root, "benign"), g11AgenticScannerProbes, false)...)
	for i := range out {
		for j := range out[i].skill {
			out[i].skill[j].Data = g11CutFixtureMeta(out[i].skill[j].Data)
		}
	}
	return out
}

// g11FixtureMeta starts the block agentic-scanner appends to some fixtures
// to hold their label (expected_verdict and notes that name the attack).
// It is the label, not the skill, and no skill in the wild carries it, so
// it is cut before the scan reads the text.
const g11FixtureMeta = "\n_fixture_meta:"

func g11CutFixtureMeta(data []byte) []byte {
	if i := bytes.Index(data, []byte(g11FixtureMeta)); i >= 0 {
		return data[:i+1]
	}
	return data
}

// g11Named reads a source whose inline skills are laid out under its
// folder: harvesters and probes, each by its path.
func g11Named(harvesters, probes []string) func(testing.TB, string) []sample {
	return func(tb testing.TB, dir string) []sample {
		return namedFixtures(tb, dir, harvesters, probes)
	}
}

var g11Sources = []corpusSource{
	{name: "hashgraph-online+hol-guard", load: g11Named(g11HolGuardHarvesters, g11HolGuardProbes)},
	{name: "greninja-op+kelvra-security", heldOut: true, load: g11Named(g11KelvraHarvesters, nil)},
	{name: "opena2a-org+hackmyagent", heldOut: true, load: g11Named(g11HackmyagentHarvesters, g11HackmyagentProbes)},
	{name: "haomingkoo+Agent-Arena", heldOut: true, load: g11Named(g11AgentArenaHarvesters, nil)},
	{name: "alexgreensh+repo-forensics", heldOut: true, load: g11Named(g11ForensicsHarvesters, nil)},
	{name: "JNZader+javi-forge", heldOut: true, load: g11Named(g11JaviForgeHarvesters, g11JaviForgeProbes)},
	{name: "skills-lock+skil-lock", heldOut: true, load: g11Named(g11SkilLockHarvesters, g11SkilLockProbes)},
	{name: "sergiocarracedo+skill-organizer", heldOut: true, load: g11Named(g11SkillOrganizerHarvesters, nil)},
	{name: "hien078+ai-capability-infrastructure", heldOut: true, load: g11Named(g11ACIHarvesters, nil)},
	{name: "MaxHagl+agentic-scanner", heldOut: true, load: g11LoadAgenticScanner},
}

func init() { corpusSources = append(corpusSources, g11Sources...) }

// TestMore11SourcesLoad checks that each source of this file, when laid out,
// yields every harvester and probe its lists name, and runs no verdict: a
// fixture moved or mistyped must fail here rather than shrink a figure
// quietly.
func TestMore11SourcesLoad(t *testing.T) {
	checkSourceCounts(t, g11Sources, map[string][2]int{ // harvesters, probes
		"hashgraph-online+hol-guard":           {len(g11HolGuardHarvesters), len(g11HolGuardProbes)},
		"greninja-op+kelvra-security":          {len(g11KelvraHarvesters), 0},
		"opena2a-org+hackmyagent":              {len(g11HackmyagentHarvesters), len(g11HackmyagentProbes)},
		"haomingkoo+Agent-Arena":               {len(g11AgentArenaHarvesters), 0},
		"alexgreensh+repo-forensics":           {len(g11ForensicsHarvesters), 0},
		"JNZader+javi-forge":                   {len(g11JaviForgeHarvesters), len(g11JaviForgeProbes)},
		"skills-lock+skil-lock":                {len(g11SkilLockHarvesters), len(g11SkilLockProbes)},
		"sergiocarracedo+skill-organizer":      {len(g11SkillOrganizerHarvesters), 0},
		"hien078+ai-capability-infrastructure": {len(g11ACIHarvesters), 0},
		"MaxHagl+agentic-scanner":              {len(g11AgenticScannerHarvesters), len(g11AgenticScannerProbes)},
	})
	for _, src := range g11Sources {
		for _, s := range src.load(t, filepath.Join(corpusRoot(), src.name)) {
			for _, f := range s.skill {
				if bytes.Contains(f.Data, []byte("expected_verdict")) {
					t.Errorf("%s %s: %s still holds its label", src.name, s.id, f.Path)
				}
			}
		}
	}
}

func TestG11CutFixtureMeta(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"# Tool\n\nBody.\n\n_fixture_meta:\n  id: E022\n  expected_verdict: BLOCK\n", "# Tool\n\nBody.\n\n"},
		{"# Tool\n\nBody.\n", "# Tool\n\nBody.\n"},
		{"# Tool: see the_fixture_meta: field\n", "# Tool: see the_fixture_meta: field\n"},
	} {
		if got := string(g11CutFixtureMeta([]byte(c.in))); got != c.want {
			t.Errorf("g11CutFixtureMeta(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
