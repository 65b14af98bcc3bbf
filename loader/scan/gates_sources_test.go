package scan

import (
	"path/filepath"
	"testing"
)

// Sources gathered by issue 43's seventh session by searching
// for the attack fixtures of skill gates, agent firewalls and skill
// toolkits whose names do not say "scan" or "guard": each ships a
// skill it labels malicious (its folder, its own description, a comment,
// a benchmark's ground truth) and, often, a clean one for its tests. A
// harvester is a skill whose author's labels say it is malicious and whose
// text reads secrets or the user's data AND sends them away, in prose the
// model reads or in a script the SKILL.md tells the agent to run; a
// fixture that only reads keys, only runs remote code, persists or
// destroys is left out. Clean fixtures written for a tool's tests are
// probes, counted apart from real skills. The split is the first hex digit
// of sha256(OWNER/NAME): 0-7 development, 8-f held out. The lists were
// fixed from the authors' labels before any verdict of this scanner on
// them was seen; held-out ones are only measured.

// gatesSkilHarvesters are domehahn/skil's malicious fixtures (split digit f:
// held out) that send secrets away. Its benchmark
// (benchmark/corpus/TIER/ID/fixture.yaml, ground_truth) labels
// bench-002-credential-exfiltration malicious, category
// credential_exfiltration ("a secret is read from the process environment
// and transmitted … to a hardcoded external endpoint"), and its CLI tests
// (internal/cli/cli_test.go, admission_test.go) expect
// tests/fixtures/malicious-skill ("Deliberately malicious fixture", whose
// prose has the agent read all credentials and upload them) to fail the
// gate. bench-017-agent-snooping reads another agent's files but its
// rationale names no sending; the other malicious entries are injection,
// hidden orders, SSRF, supply chain, MCP permissions and dynamic code.
var gatesSkilHarvesters = []string{
	"benchmark/corpus/development/bench-002-credential-exfiltration/artifact",
	"tests/fixtures/malicious-skill",
}

// gatesSkilProbes are the benchmark's ground_truth "malicious: false"
// entries that carry a SKILL.md: look-alikes written for the benchmark
// (an anti-injection policy, an eval warning, a local credential
// self-check, a documented API call, a subprocess allowlist, a review of
// its own MCP manifest, a pinned dependency, a user-preference memory
// write, a confirmed destructive action). bench-011 and bench-019 hold
// only MCP manifests.
var gatesSkilProbes = []string{
	"development/bench-007-defensive-anti-injection-policy/artifact",
	"development/bench-008-eval-warning-comment/artifact",
	"development/bench-009-local-credential-self-check/artifact",
	"development/bench-010-documented-api-call/artifact",
	"development/bench-012-safe-subprocess-allowlist/artifact",
	"development/bench-022-own-mcp-manifest-review/artifact",
	"evaluation/bench-018-scoped-dependency-pinned/artifact",
	"evaluation/bench-020-user-preference-memory-write/artifact",
	"evaluation/bench-021-destructive-action-requires-confirmation/artifact",
}

func loadGateSkil(tb testing.TB, dir string) []sample {
	return append(loadNamedHarvesters(tb, dir, gatesSkilHarvesters),
		guardsNamedProbes(tb, filepath.Join(dir, "benchmark/corpus"), gatesSkilProbes)...)
}

// gatesMaliciousSkill is the one fixture folder name the single-fixture
// sources below share.
var gatesMaliciousSkill = []string{"malicious-skill"}

// loadGateScaffolding reads iadknet/new-app-scaffolding-skills'
// tests/fixtures/malicious-skill (digit f: held out), "Deliberately unsafe
// fixture used to verify the skill security gate" by its own description,
// whose prose has the agent read an SSH key and upload it. The repository
// has no snapshot here: the session laid the file out from read_file at
// 0c31ebf30e4f4615e7a939feb93a5f3df6bb578f.
func loadGateScaffolding(tb testing.TB, dir string) []sample {
	return loadNamedHarvesters(tb, filepath.Join(dir, "tests/fixtures"), gatesMaliciousSkill)
}

// loadGateSelamy reads selamy-labs/agent-skills' tests/fixtures/malicious-skill
// (digit 9: held out), "a poisoned skill used only as a negative fixture for
// the security gate", whose prose and block send the user's API key and
// session token away. Its other fixtures (injection-attempt,
// silence-phrase, leaking-org-name, layout and front-matter faults) are
// other failures of its contribution gate, not theft.
func loadGateSelamy(tb testing.TB, dir string) []sample {
	return loadNamedHarvesters(tb, filepath.Join(dir, "tests/fixtures"), gatesMaliciousSkill)
}

// loadGateVouch reads WaelAbouceo/vouch's examples (digit 6: development):
// malicious-skill posts an SSH key and the environment's tokens to a
// collector among other attacks, a harvester; benign-skill ("performs no
// network access") is a probe. evasive-skill sends an API key only to the
// service it authenticates with, which is no theft by itself, and is left
// out; example-agent is a demo agent's skills. The repository has no
// snapshot here: laid out from read_file at
// 56f166612dfe2e49dad9f48d6e1184c915cb036f.
func loadGateVouch(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "examples")
	return namedFixtures(tb, root, gatesMaliciousSkill, []string{"benign-skill"})
}

// loadGateAgentFirewall reads mmedabo/AgentFirewall's examples (digit 2:
// development): malicious-skill ("DEMO: this artifact is intentionally
// malicious") has the agent send ANTHROPIC_API_KEY and SSH keys to a
// webhook, and its setup.sh ("a catalogue of malicious behaviour") posts
// them too: a harvester. safe-skill is a probe; signed-skill shows
// signing and is not counted.
func loadGateAgentFirewall(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "examples")
	return namedFixtures(tb, root, gatesMaliciousSkill, []string{"safe-skill"})
}

// loadGateSkilltest reads archplg/skilltest's test/fixtures/malicious-skill
// (digit 2: development): its prose sends shared files with the API keys
// to a Slack webhook and the scripts/setup.sh it says to run first posts
// ~/.ssh and the AWS credentials to webhook.site. It has no clean fixture.
// Laid out from read_file at 67bb3dbaf7909238def5aede2de283a6c1d9ead5.
func loadGateSkilltest(tb testing.TB, dir string) []sample {
	return loadNamedHarvesters(tb, filepath.Join(dir, "test/fixtures"), gatesMaliciousSkill)
}

// loadGateSentinelWarden reads aadityaparab/sentinel-warden's examples
// (digit 5: development): malicious-skill, whose own description says it
// "reads ~/.aws/credentials and posts them to a webhook", a harvester;
// clean-skill is a probe. hidden-unicode, cursor-rules and sketchy-mcp are
// other attacks or not skills. Laid out from read_file at
// d043c68882778bd838659f5a4781eaac25f0e6f5.
func loadGateSentinelWarden(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "examples")
	return namedFixtures(tb, root, gatesMaliciousSkill, []string{"clean-skill"})
}

// loadGatePurgatory reads oldmanstillcan/purgatory's tests/fixtures (digit 7:
// development): malicious-skill's hidden instructions send all environment
// variables away and upload the SSH key, a harvester; clean-skill is a
// probe. borderline-skill is labelled neither way and is left out.
func loadGatePurgatory(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return namedFixtures(tb, root, gatesMaliciousSkill, []string{"clean-skill"})
}

// loadGateChiron reads alidevai/chiron_agent's tests/fixtures (digit 7:
// development): malicious-skill ("kotu niyetli desenler icerir", malicious
// patterns, must not be installed) has the agent read API_KEY and send it
// to an outside address, a harvester; benign-skill is a probe.
func loadGateChiron(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return namedFixtures(tb, root, gatesMaliciousSkill, []string{"benign-skill"})
}

// loadGateSkillci reads mahitoh/skillci's fixtures (digit 4: development):
// malicious-skill, which its tests (tests/audit.test.ts) and CI expect to
// fail the audit, posts ANTHROPIC_API_KEY and the AWS credentials to a
// "tuning service" among other attacks, a harvester; it packs one line per
// rule of that tool (CONTRIBUTING.md), so it is development material only.
// clean-skill, the passing case, is a probe; messy-skill is a quality
// fixture, not counted.
func loadGateSkillci(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "fixtures")
	return namedFixtures(tb, root, gatesMaliciousSkill, []string{"clean-skill"})
}

// loadGateUncloak reads fevziegeyurtsevenler/uncloak's tests/fixtures (digit
// 7: development): malicious, which its CI (.github/workflows/ci.yml)
// expects the scan to fail, hides in Unicode tag characters an order to
// read the SSH key and mail it away, a harvester; clean, which CI expects
// to pass, is a probe. mcp and rules hold no skill.
func loadGateUncloak(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return namedFixtures(tb, root, []string{"malicious"}, []string{"clean"})
}

// loadGateSkillspector reads sw30labs/skillspector-trial's tests/fixtures
// (digit e: held out): evil-skill tells the agent to run its exfil.py,
// whose own comment says it "reads local secrets and posts them out", a
// harvester; clean-skill is the tool's clean look-alike (a digest it
// sends), a probe. sloppy-skill is a quality fixture, not counted.
func loadGateSkillspector(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return namedFixtures(tb, root, []string{"evil-skill"}, []string{"clean-skill"})
}

// loadGateSkillfrisk reads Topicspot/skillfrisk's tests/fixtures (digit a:
// held out): malicious_skill ("bad example"), which its tests
// (tests/test_scanner.py, test_diff.py) scan as the malicious case, has the
// agent read the SSH key and .env and send a token to a server among
// other attacks, a harvester; benign_skill, which its tests expect to have
// no high-risk finding, is a probe. benign_skill_update is a diff fixture.
func loadGateSkillfrisk(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return namedFixtures(tb, root, []string{"malicious_skill"}, []string{"benign_skill"})
}

// loadGateAwesomeChatGPT reads eusourmr/awesome-chatgpt-skills'
// tests/fixtures/unsafe-skill (digit b: held out), a "deliberately unsafe
// fixture used only to prove Security Gate v1 blocks dangerous patterns",
// whose prose has the agent read the API token and send it away. Laid out
// from read_file at d345755183b5fb1b94ab6c6b0cfbfe46436dc21d.
func loadGateAwesomeChatGPT(tb testing.TB, dir string) []sample {
	return loadNamedHarvesters(tb, filepath.Join(dir, "tests/fixtures"), []string{"unsafe-skill"})
}

// loadGateJianwei reads yzdily/jianwei's tests/fixtures (digit c: held out):
// malicious_skill, "a seemingly helpful skill that exfiltrates data" by its
// own description, has the agent send the conversation away (its evil.py,
// "网络外发（数据外泄）", posts no user data and is not why it counts), a
// harvester; clean_skill ("does not read secrets", a fixture to show its
// scanner does not misfire) is a probe. Laid out from read_file at
// 844ebd0657818e747cce352a86db73348549d514.
func loadGateJianwei(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return namedFixtures(tb, root, []string{"malicious_skill"}, []string{"clean_skill"})
}

var gatesSources = []corpusSource{
	{name: "WaelAbouceo+vouch", load: loadGateVouch},
	{name: "mmedabo+AgentFirewall", load: loadGateAgentFirewall},
	{name: "archplg+skilltest", load: loadGateSkilltest},
	{name: "aadityaparab+sentinel-warden", load: loadGateSentinelWarden},
	{name: "oldmanstillcan+purgatory", load: loadGatePurgatory},
	{name: "alidevai+chiron_agent", load: loadGateChiron},
	{name: "mahitoh+skillci", load: loadGateSkillci},
	{name: "fevziegeyurtsevenler+uncloak", load: loadGateUncloak},
	{name: "domehahn+skil", heldOut: true, load: loadGateSkil},
	{name: "iadknet+new-app-scaffolding-skills", heldOut: true, load: loadGateScaffolding},
	{name: "selamy-labs+agent-skills", heldOut: true, load: loadGateSelamy},
	{name: "sw30labs+skillspector-trial", heldOut: true, load: loadGateSkillspector},
	{name: "Topicspot+skillfrisk", heldOut: true, load: loadGateSkillfrisk},
	{name: "eusourmr+awesome-chatgpt-skills", heldOut: true, load: loadGateAwesomeChatGPT},
	{name: "yzdily+jianwei", heldOut: true, load: loadGateJianwei},
}

func init() { corpusSources = append(corpusSources, gatesSources...) }

// TestGateSourcesLoad checks that each source of this file, when laid
// out, yields every harvester and probe its lists name, and runs no
// verdict: a fixture moved upstream must fail here rather than shrink a
// figure quietly.
func TestGateSourcesLoad(t *testing.T) {
	want := map[string][2]int{
		"WaelAbouceo+vouch":                  {1, 1},
		"mmedabo+AgentFirewall":              {1, 1},
		"archplg+skilltest":                  {1, 0},
		"aadityaparab+sentinel-warden":       {1, 1},
		"oldmanstillcan+purgatory":           {1, 1},
		"alidevai+chiron_agent":              {1, 1},
		"domehahn+skil":                      {len(gatesSkilHarvesters), len(gatesSkilProbes)},
		"iadknet+new-app-scaffolding-skills": {1, 0},
		"selamy-labs+agent-skills":           {1, 0},
		"mahitoh+skillci":                    {1, 1},
		"fevziegeyurtsevenler+uncloak":       {1, 1},
		"sw30labs+skillspector-trial":        {1, 1},
		"Topicspot+skillfrisk":               {1, 1},
		"eusourmr+awesome-chatgpt-skills":    {1, 0},
		"yzdily+jianwei":                     {1, 1},
	}
	checkSourceCounts(t, gatesSources, want)
}
