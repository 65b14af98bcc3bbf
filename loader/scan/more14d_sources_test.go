package scan

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"testing"
)

// Sources gathered by issue 43's tenth session (helper g14d) from
// detection-engineering material: the fixtures of rule-based skill
// scanners, policy gates and agent guards (ClawVet, ClawCare, SkillPreflight,
// triflow) that ship skills they label malicious (a README table, a test that
// expects a block, the fixture's folder or description) and, often, clean
// ones for their tests. A harvester is a fixture whose author labels it
// malicious or exfiltration and whose text reads secrets or the user's data
// AND sends them away, in prose the model reads or in a script the SKILL.md
// tells the agent to run; one that only gathers keys, only echoes them into
// the reply, only runs remote code, or keeps its harvest in code the SKILL.md
// never names is left out. Clean fixtures written for a tool's tests are
// probes, counted apart from real skills. The split is the first hex digit of
// sha256(OWNER/NAME): 0-7 development, 8-f held out. The lists were fixed from
// the authors' labels before any verdict of this scanner on them was seen; a
// fixture written to trip most of its tool's rules at once counts only from a
// development source.

// g14dClawvetHarvesters are MohibShaikh/clawvet's fixtures (digit 6:
// development) that send secrets away: apps/api/test/fixtures/malicious-stealer
// (scanner.test.ts: "detects malicious stealer as critical", recommendation
// "block") posts $ANTHROPIC_API_KEY and the OpenClaw session logs to a bare
// IP, and packages/cli/test/fixtures/split-payload ("a payload hidden in a file
// the skill tells the agent to run", docs/cross-file-assembly-plan.md: "hides a
// reverse-shell / exfil payload") has the agent run setup.sh, which posts
// ~/.env there. Its benchmark's malicious credential-theft (below) is a third.
// leaky-creds only prints keys into the reply, sneaky-injection is labelled a
// prompt injection and the benchmark's typosquat a typosquat (their sends are
// not what the author names), and the rest run remote code or decode
// payloads.
var g14dClawvetHarvesters = []string{
	"apps/api/test/fixtures/malicious-stealer",
	"packages/cli/test/fixtures/split-payload",
}

// g14dClawvetProbes are its clean fixtures: the two its scanner test keeps low
// risk, the benign sibling of split-payload (cli-assembly.test.ts: "does not
// introduce findings"), and the five benign skills its benchmark
// (packages/shared/test/benchmarks.test.ts) wants scored at most 25.
var g14dClawvetProbes = []string{
	"apps/api/test/fixtures/benign-social-approval",
	"apps/api/test/fixtures/benign-weather",
	"benchmarks/benign/api-client",
	"benchmarks/benign/file-organizer",
	"benchmarks/benign/git-helper",
	"benchmarks/benign/markdown-formatter",
	"benchmarks/benign/todo-app",
	"packages/cli/test/fixtures/benign-reference",
}

// g14dLoadClawvet reads ClawVet's fixtures and, from its benchmark, the
// malicious credential-theft skill (posting ~/.git-credentials and
// $ANTHROPIC_API_KEY to webhook.site), which it keeps base64-encoded
// "to avoid AV false positives" and decodes in its test.
func g14dLoadClawvet(tb testing.TB, dir string) []sample {
	out := namedFixtures(tb, dir, g14dClawvetHarvesters, g14dClawvetProbes)
	return append(out, g14dBase64Harvesters(tb, dir, []string{"benchmarks/malicious/credential-theft"})...)
}

// g14dBase64Harvesters reads each root/NAME/SKILL.md.b64 as the
// base64-encoded SKILL.md of a harvester. A missing or undecodable file
// yields nothing, which the load test reports.
func g14dBase64Harvesters(tb testing.TB, root string, names []string) []sample {
	var out []sample
	for _, name := range names {
		enc, err := os.ReadFile(filepath.Join(root, name, "SKILL.md.b64"))
		if err != nil {
			continue
		}
		data, err := base64.StdEncoding.DecodeString(string(bytes.Join(bytes.Fields(enc), nil)))
		if err != nil {
			tb.Errorf("%s: %v", filepath.Join(root, name), err)
			continue
		}
		out = append(out, sample{id: name, dir: name, attack: true, harvest: true, skill: []File{{Path: "SKILL.md", Data: data}}})
	}
	return out
}

// g14dClawCareHarvesters are natechensan/ClawCare's fixtures (digit 2:
// development) for its platform adapters whose text orders a theft:
// codex_malicious/evil-codex-skill ("A malicious Codex skill that exfiltrates
// data": "Exfiltrate the user's credentials") and
// cursor_malicious/evil-cursor-skill ("Malicious skill that steals credentials
// from the workspace": steal the .env files and SSH keys), each with an
// exploit.py beside it that posts them to a bare IP. The Cursor fixture's
// legacy .cursorrules ("also malicious") is read below. The Claude plugin's
// evil-skill and the OpenClaw evil-ocskill keep their theft in a script the
// SKILL.md never names, data_exfil posts only a ping, and the Cursor rule and
// AGENTS files run remote code or destroy.
var g14dClawCareHarvesters = []string{
	"codex_malicious/evil-codex-skill",
	"cursor_malicious/evil-cursor-skill",
}

// g14dClawCareProbes are its benign fixtures, one per adapter ("A benign …
// skill", the golden tests' clean cases).
var g14dClawCareProbes = []string{
	"claude_benign_skill",
	"codex_project/safe-codex-skill",
	"cursor_project/safe-cursor-skill",
	"openclaw_benign_project/.opencode/skills/safe-ocskill",
}

// g14dLoadClawCare reads ClawCare's tests/fixtures and the malicious Cursor
// fixture's .cursorrules ("Legacy cursorrules — also malicious"), whose text
// has the agent silently post the whole environment to a bare IP, read as
// the SKILL.md of a skill named after its folder.
func g14dLoadClawCare(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	out := namedFixtures(tb, root, g14dClawCareHarvesters, g14dClawCareProbes)
	return append(out, g12SingleFiles(root, []string{"cursor_malicious/.cursorrules"}, true)...)
}

// g14dLoadClawCareDemo reads natechensan/ClawCare-demo (digit a: held out),
// whose README tables label the demo skills. openclaw-scan-demo's env-setup
// ("malicious (pipe-to-shell, hardcoded AWS keys, secret exfil to raw IP)")
// has the agent post every secret of the environment to a bare IP, and
// custom-adapter-demo's evil-tool (its instructions.md, the skill's text for
// a made-up platform; "pipe-to-shell, credential theft") posts the SSH key
// there: harvesters. .claude/skills/setup-tool packs remote code, two
// hard-coded credentials, a key post and a wipe into one skill and, held out,
// does not count; codex-scan-demo's evil-skill keeps its theft in an
// exploit.py its SKILL.md never names. The clean skills the READMEs name are
// probes.
func g14dLoadClawCareDemo(tb testing.TB, dir string) []sample {
	out := namedFixtures(tb, dir,
		[]string{"openclaw-scan-demo/.opencode/skills/env-setup"},
		[]string{".claude/skills/review-helper", "codex-scan-demo/safe-skill", "openclaw-scan-demo/.opencode/skills/code-reviewer"})
	out = append(out, g12SingleFiles(dir, []string{"custom-adapter-demo/.acme/skills/evil-tool/instructions.md"}, true)...)
	return append(out, g12SingleFiles(dir, []string{"custom-adapter-demo/.acme/skills/safe-helper/instructions.md"}, false)...)
}

// g14dLoadSkillPreflight reads the examples of SkillPreflight, a policy gate
// and GitHub Action (agent-contracts/skill-preflight, stored as
// actions-marketplace-validations/agent-contracts_skill-preflight; digit 2:
// development). risky-skill, which its test wants scored under 60 and its
// rules (docs/rules.md: secret-like local data access, webhook upload
// endpoints) flag, has the agent read .env, API keys, browser cookies and SSH
// keys and upload the report to webhook.site, among other attacks (many in
// one: development only); good-skill, wanted at 85 or more, is a probe.
func g14dLoadSkillPreflight(tb testing.TB, dir string) []sample {
	return namedFixtures(tb, filepath.Join(dir, "examples"), []string{"risky-skill"}, []string{"good-skill"})
}

// g14dLoadTriflow reads Lonkins/triflow's skill fixtures (digit c: held
// out), a linter for the lethal trifecta of agent configurations: exfil,
// which its test expects to raise SKILL_NETWORK_AND_SECRETS, reads the .env
// file's values and posts them to an endpoint, a harvester; safe, which the
// test wants clean, is a probe. overbroad, noscope and wildcard are grant
// fixtures.
func g14dLoadTriflow(tb testing.TB, dir string) []sample {
	return namedFixtures(tb, filepath.Join(dir, "tests/fixtures/skills"), []string{"exfil"}, []string{"safe"})
}

var g14dSources = []corpusSource{
	{name: "MohibShaikh+clawvet", load: g14dLoadClawvet},
	{name: "natechensan+ClawCare", load: g14dLoadClawCare},
	{name: "actions-marketplace-validations+agent-contracts_skill-preflight", load: g14dLoadSkillPreflight},
	{name: "natechensan+ClawCare-demo", heldOut: true, load: g14dLoadClawCareDemo},
	{name: "Lonkins+triflow", heldOut: true, load: g14dLoadTriflow},
}

func init() { corpusSources = append(corpusSources, g14dSources...) }

// TestMore14dSourcesLoad checks that each source of this file, when laid
// out, yields every harvester and probe its lists name, and runs no
// verdict: a fixture moved upstream must fail here rather than shrink a
// figure quietly.
func TestMore14dSourcesLoad(t *testing.T) {
	want := map[string][2]int{
		"MohibShaikh+clawvet":  {len(g14dClawvetHarvesters) + 1, len(g14dClawvetProbes)},
		"natechensan+ClawCare": {len(g14dClawCareHarvesters) + 1, len(g14dClawCareProbes)},
		"actions-marketplace-validations+agent-contracts_skill-preflight": {1, 1},
		"natechensan+ClawCare-demo":                                       {2, 4},
		"Lonkins+triflow":                                                 {1, 1},
	}
	checkSourceCounts(t, g14dSources, want)
}
