package scan

import (
	"path/filepath"
	"testing"
)

// Sources gathered by issue 43's tenth session (helper g14a), whose share was
// the artifacts of research papers and teaching material: a paper's labelled
// skills, a course's or lab's "deliberately vulnerable" scenarios, and the
// fixtures a skill evaluator, linter or gate ships to prove its own checks
// (found through the false-positive reports registries filed against them,
// and by the fixture paths such tools share: tests/fixtures/malicious-skill,
// examples/risky-skill, examples/bad-skill and the like).
// Most paper artifacts looked at keep their skills off GitHub (Hugging Face
// releases, zips that cannot be read here) or label categories that are not
// a harvest; the report of g14a names them. A harvester is a fixture whose
// author labels it malicious (a scenario's solution, an expected-results
// file, a test that expects a failing verdict) and whose text reads secrets
// or the user's data AND sends them away, in prose the model reads or in a
// script the SKILL.md tells the agent to run; one that only reads keys,
// echoes them into the reply, runs remote code, or keeps its harvest in code
// the SKILL.md never names is left out. Clean fixtures written for a tool's
// tests are probes, counted apart from real skills. The split is the first
// hex digit of sha256(OWNER/NAME): 0-7 development, 8-f held out. The lists
// were fixed from the authors' labels before any verdict of this scanner on
// them was seen; held-out ones are only measured. A fixture that packs many
// attacks into one skill counts only from a development source, and one
// that copies another source's fixture is left out.

// g14aLoadSkillCompass reads Evol-ai/SkillCompass's test-fixtures (digit 4:
// development), the security-layer fixtures of a skill evaluator, each with
// an expected-results file beside it (not read as part of the skill).
// malicious-base64-exfil.expected.json blocks it as "data_exfiltration:
// Reading SSH private keys": its block base64-decodes and evals a command
// that posts ~/.ssh/id_rsa away, a harvester. benign-normal-skill and
// benign-with-code-blocks are expected to pass every layer ("should NOT flag
// legitimate npm commands", "GitHub API calls"): probes. The curl-pipe,
// prompt-injection and ascii-smuggling fixtures are other attacks; the
// d1–d6, edge and audit-batch fixtures grade quality (audit-batch's
// env-checker echoes secrets, it sends nothing). Laid out from read_file at
// 406b071d1ab243aa31bad17bb30ff9ae7b7dd5a4.
func g14aLoadSkillCompass(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "test-fixtures")
	return namedFixtures(tb, root, []string{"malicious-base64-exfil"},
		[]string{"benign-normal-skill", "benign-with-code-blocks"})
}

// g14aLoadAgentAuditKit reads sattyamjjain/agent-audit-kit's fixtures for its
// issue 742 (digit 4: development), a cross-tool corpus a user filed and
// the maintainers pinned in tests/test_issue_742_cross_tool.py: the
// positive SKILL.md "hid an exfiltration instruction in a body HTML comment"
// (the SSH key sent to a collector), which AAK-SKILL-006 must flag, a
// harvester; the negative SKILL.md (TODO comments) must stay silent, a
// probe. Only the two SKILL.md files are laid out: the folders' other files
// (a hostile prompt, a runbook, a note about injection) are separate reported
// documents, not part of either skill. Laid out from read_file at
// 8966cc29c9a9f2ca2af3a51449f7a017fc470ebc.
func g14aLoadAgentAuditKit(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return namedFixtures(tb, root, []string{"issue_742_cross_tool/positive"},
		[]string{"issue_742_cross_tool/negative"})
}

// g14aLoadJanefskills reads AL-JANEF/janefskills' tests/fixtures (digit 7:
// development): risky-skill, "a fixture skill that contains patterns the
// static auditor must flag" (tests/test_tooling.py expects the audit to fail
// on it), has the agent cat the AWS credentials and post them to a webhook
// besides a curl|sh and an override, a harvester; safe-skill, which the same
// test expects to pass, is a probe. Laid out from read_file at
// 7e50c6c8ef115929c860af65d0e1c35647c34d45 (risky-skill) and
// 1f19f449f0afd8cb3e0628d3d7c7c94cfc9a94df (safe-skill).
func g14aLoadJanefskills(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return namedFixtures(tb, root, []string{"risky-skill"}, []string{"safe-skill"})
}

// g14aDVASHarvesters are fevziegeyurtsevenler/damn-vulnerable-agent-skill's
// scenarios (digit b: held out), a hands-on lab of "deliberately vulnerable,
// defanged" skills whose solutions/NN-*.md name each lesson:
// 04-data-exfiltration ("secret read + outbound channel (lethal trifecta)")
// and 06-pii-leak ("bulk PII exfiltration + stealth"), harvesters both.
// 02-hidden-unicode hides, in Unicode tag characters, the very payload of
// fevziegeyurtsevenler/uncloak's malicious fixture (same author, already a
// source) and is left out as a copy; 07-rug-pull is labelled a
// trigger-conditioned behaviour, not an exfiltration; the others are
// injection, tool poisoning (an MCP config), permission bypass and a
// fetch-and-run script. The lab has no clean scenario. Laid out from
// read_file at b41c446ad49bc338f1a65b22b54fafebe1832f99.
var g14aDVASHarvesters = []string{"04-data-exfiltration", "06-pii-leak"}

func g14aLoadDVAS(tb testing.TB, dir string) []sample {
	return loadNamedHarvesters(tb, filepath.Join(dir, "scenarios"), g14aDVASHarvesters)
}

// g14aLoadSkillRiskAuditor reads
// honouralexwill/skill-risk-auditor-v1-without-saturnday's test-fixtures
// (digit 5: development): malicious-skill, the auditor's failing case, has
// the agent send its credentials to a collector among an override, a
// curl|sudo bash, destructive commands, a hard-coded key and an encoded
// payload (many attacks in one: development only), a harvester;
// clean-skill, "a perfectly safe skill that formats JSON files", is a
// probe. Laid out from read_file at
// 2f502209742f4e7b98b735eb28014c0ace97486f.
func g14aLoadSkillRiskAuditor(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "test-fixtures")
	return namedFixtures(tb, root, []string{"malicious-skill"}, []string{"clean-skill"})
}

// g14aLoadIpanalyticsSkillScan reads ipanalytics/SkillScan's examples (digit
// 2: development): bad-skill, the linter's failing example, has the agent
// read a secret config file and mail it away, among curl|sh, destructive
// commands, an override, a hard-coded key and front-matter faults (many
// attacks in one: development only), a harvester; good-skill ("skillscan
// reports zero findings") is a probe. duplicate-a and duplicate-b are
// quality fixtures. Laid out from read_file at
// 2a6ca7e93d7a1a5d3a4a89cdebfab1181b229265.
func g14aLoadIpanalyticsSkillScan(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "examples")
	return namedFixtures(tb, root, []string{"bad-skill"}, []string{"good-skill"})
}

// Left out when the sources were merged: agent-contracts/skill-preflight,
// which more14d_sources_test.go reads from its stored mirror, and the held-out
// T-Zevin/SkillGuardrail malicious-skill and buzzicra/skillguard bad-skill,
// which pack several attacks into one skill (a harvest beside persistence,
// remote code and an override): such skills count from development sources
// only, and two of this session's helpers judged them so.
var g14aSources = []corpusSource{
	{name: "Evol-ai+SkillCompass", load: g14aLoadSkillCompass},
	{name: "sattyamjjain+agent-audit-kit", load: g14aLoadAgentAuditKit},
	{name: "AL-JANEF+janefskills", load: g14aLoadJanefskills},
	{name: "honouralexwill+skill-risk-auditor-v1-without-saturnday", load: g14aLoadSkillRiskAuditor},
	{name: "ipanalytics+SkillScan", load: g14aLoadIpanalyticsSkillScan},
	{name: "fevziegeyurtsevenler+damn-vulnerable-agent-skill", heldOut: true, load: g14aLoadDVAS},
}

func init() { corpusSources = append(corpusSources, g14aSources...) }

// TestMore14aSourcesLoad checks that each source of this file, when laid
// out, yields every harvester and probe its lists name, and runs no
// verdict: a fixture moved upstream must fail here rather than shrink a
// figure quietly.
func TestMore14aSourcesLoad(t *testing.T) {
	want := map[string][2]int{
		"Evol-ai+SkillCompass":                                   {1, 2},
		"sattyamjjain+agent-audit-kit":                           {1, 1},
		"AL-JANEF+janefskills":                                   {1, 1},
		"fevziegeyurtsevenler+damn-vulnerable-agent-skill":       {len(g14aDVASHarvesters), 0},
		"honouralexwill+skill-risk-auditor-v1-without-saturnday": {1, 1},
		"ipanalytics+SkillScan":                                  {1, 1},
	}
	checkSourceCounts(t, g14aSources, want)
}
