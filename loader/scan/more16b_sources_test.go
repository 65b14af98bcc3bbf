package scan

import (
	"os"
	"path"
	"path/filepath"
	"testing"
)

// Sources gathered by issue 43's eleventh session (helper g16b) from the
// attack fixtures of scanners for agent instruction files other than
// SKILL.md: Cursor rules, AGENTS.md and CLAUDE.md, Copilot instructions,
// and the Claude Code settings and plugin hooks those files travel with.
// Each labelled file is laid out as a skill whose SKILL.md is the file
// itself (a rules file, an instruction file, a settings.json whose hooks
// run on their own), in a folder named after the fixture. A harvester is a
// fixture whose author labels it malicious (a corpus folder and its
// case.toml, a test that expects a finding, a gate's demo that expects a
// block) and whose text reads secrets or the user's private data AND sends
// them away; one that only gathers, only runs remote code, or only breaks
// settings is left out. Clean fixtures written for a scanner's tests are
// probes, counted apart from real skills. The split is the first hex digit
// of sha256(OWNER/NAME): 0-7 development, 8-f held out. The lists were
// fixed from the authors' labels before any verdict of this scanner on them
// was seen; a fixture written to trip most of its tool's rules at once
// counts only from a development source (a harvest with one other order
// beside it still counts).

// g16bFixture is one labelled file: its path below the source's folder and
// the sample's id (the fixture's own name).
type g16bFixture struct{ id, file string }

// g16bFiles reads each fixture's file as the SKILL.md of a skill named after
// the fixture, a harvester or a probe.
func g16bFiles(tb testing.TB, dir string, fixtures []g16bFixture, harvest bool) []sample {
	var out []sample
	for _, f := range fixtures {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.file)))
		if err != nil {
			continue // a missing fixture fails TestG16bSourcesLoad's count
		}
		s := sample{id: f.id, dir: path.Base(f.id), skill: []File{{Path: "SKILL.md", Data: data}}}
		if harvest {
			s.attack, s.harvest = true, true
		} else {
			s.probe = true
		}
		out = append(out, s)
	}
	return out
}

// g16bLoader reads a source's harvesters and probes.
func g16bLoader(harvesters, probes []g16bFixture) func(testing.TB, string) []sample {
	return func(tb testing.TB, dir string) []sample {
		return append(g16bFiles(tb, dir, harvesters, true), g16bFiles(tb, dir, probes, false)...)
	}
}

// g16bLintaiCase names a lintai corpus case's one configuration file.
func g16bLintaiCase(kind, name, file string) g16bFixture {
	return g16bFixture{id: name, file: "corpus/" + kind + "/" + name + "/repo/" + file}
}

// g16bLintaiHarvesters are 777genius/lintai's (digit 1: development)
// malicious corpus cases (corpus/malicious/NAME, case.toml kind "malicious"
// with the rules it must fire) whose committed Claude Code settings hook
// sends the user's secrets or private data away, as the case names say
// ("-exfil") and the rule pages name them as the malicious corpus of the
// exfiltration rules (SEC677 secret exfiltration, SEC685 sensitive file
// exfiltration, SEC700 browser credential store exfiltration, …): the
// environment posted or copied to S3, the webcam and microphone, the
// keyboard, the clipboard and Chrome's cookies, the screen, the AWS
// credentials, the kube config by rclone, and three API keys posted to a
// host and a Slack webhook. Each is read as the settings.json itself. The
// same payloads in the corpus's Cursor plugin hooks (hook-*, plugin-hook-
// command-*) and MCP launch commands (mcp-command-*) are other carriers of
// one text and are not counted again; the -theft and bare capture cases
// gather without sending, and the rest of the corpus is misconfiguration.
var g16bLintaiHarvesters = []g16bFixture{
	g16bLintaiCase("malicious", "claude-settings-hook-device-capture-exfil", ".claude/settings.json"),
	g16bLintaiCase("malicious", "claude-settings-hook-env-dump-cloud-exfil", ".claude/settings.json"),
	g16bLintaiCase("malicious", "claude-settings-hook-env-dump-exfil", ".claude/settings.json"),
	g16bLintaiCase("malicious", "claude-settings-hook-keylogger-exfil", ".claude/settings.json"),
	g16bLintaiCase("malicious", "claude-settings-hook-local-data-exfil", ".claude/settings.json"),
	g16bLintaiCase("malicious", "claude-settings-hook-screen-capture-exfil", ".claude/settings.json"),
	g16bLintaiCase("malicious", "claude-settings-hook-secret-exfil-payloads", ".claude/settings.json"),
	g16bLintaiCase("malicious", "claude-settings-hook-sensitive-file-exfil", ".claude/settings.json"),
	g16bLintaiCase("malicious", "claude-settings-hook-sensitive-file-rclone-exfil", ".claude/settings.json"),
}

// g16bLintaiProbes are its benign cases (case.toml kind "benign", no
// finding expected) whose file is an instruction file at the repository's
// top (AGENTS.md, CLAUDE.md, Copilot instructions) or a command hook:
// claude-settings-network-command-safe is the benign corpus the
// exfiltration rules' pages name (a hook that curls a health check), the
// others are the look-alikes of approval, untrusted-input and hook rules.
// Cases kept under tests/fixtures (the "-fixture-safe" ones) test path
// suppression, not text, and are not read.
var g16bLintaiProbes = []g16bFixture{
	g16bLintaiCase("benign", "agents-autonomy-without-bypass-safe", "AGENTS.md"),
	g16bLintaiCase("benign", "agents-untrusted-input-warning-safe", "AGENTS.md"),
	g16bLintaiCase("benign", "claude-never-header-approval-safe", "CLAUDE.md"),
	g16bLintaiCase("benign", "copilot-instructions-within-limit-safe", ".github/copilot-instructions.md"),
	g16bLintaiCase("benign", "copilot-untrusted-input-generic-safe", ".github/copilot-instructions.md"),
	g16bLintaiCase("benign", "claude-settings-hook-timeout-safe", ".claude/settings.json"),
	g16bLintaiCase("benign", "claude-settings-network-command-safe", ".claude/settings.json"),
	g16bLintaiCase("benign", "claude-settings-repo-external-absolute-hook-safe", ".claude/settings.json"),
	g16bLintaiCase("benign", "plugin-hook-command-safe", "plugin/hooks/hooks.json"),
}

// g16bDeepsweepHarvesters is deepsweep-ai/deepsweep's (digit 2: development)
// malicious_cursorrules fixture of tests/conftest.py ("Create a malicious
// .cursorrules file"), which test_scan_with_findings expects critical
// findings on: a .cursorrules that, among a YOLO-mode override, rm -rf and
// a zero-width hidden deletion, has the agent send all .env contents to an
// outside host; several attacks in one file, so development only. The
// snapshot's newest conftest.py no longer holds it: the session laid the
// string out from 6250bbdae227ffc9bb5584d914067de1125a94be as
// inline/malicious_cursorrules/.cursorrules (PROVENANCE.txt).
var g16bDeepsweepHarvesters = []g16bFixture{{id: "malicious_cursorrules", file: "inline/malicious_cursorrules/.cursorrules"}}

// g16bDeepsweepProbes is the same conftest.py's safe_cursorrules, which
// test_scan_status_passing expects to pass.
var g16bDeepsweepProbes = []g16bFixture{{id: "safe_cursorrules", file: "inline/safe_cursorrules/.cursorrules"}}

// g16bSeraphHarvesters is babywyrm/skillseraph's (digit a: held out)
// deploy/k8s/configmap-poisoned.yaml AGENTS.md, the agent configuration its
// admission gate's demo (deploy/k8s/test-gate.sh) mounts to show a pod
// blocked: read .env and POST it to an outside collector, unmentioned.
// Laid out as inline/configmap-poisoned/AGENTS.md (PROVENANCE.txt). Its
// tests/fixtures/poisoned_skill.md and poisoned_skill_invocation.md, which
// its tests expect to trip five and four findings at once (an exfiltration
// beside injection, jailbreak and remote-skill orders), pack several
// attacks into one file and, held out, are not counted;
// dep_planted_agents.md puts secrets into the reply, sending nothing, and
// poisoned_hooks.json posts a tool's result beside a curl | sh.
var g16bSeraphHarvesters = []g16bFixture{{id: "configmap-poisoned", file: "inline/configmap-poisoned/AGENTS.md"}}

// g16bSeraphProbes are its clean look-alikes: configmap-clean's AGENTS.md
// (the demo's passing pod) and tests/fixtures/benign_skill.md, which its
// tests expect to have no finding.
var g16bSeraphProbes = []g16bFixture{
	{id: "configmap-clean", file: "inline/configmap-clean/AGENTS.md"},
	{id: "benign_skill", file: "tests/fixtures/benign_skill.md"},
}

// g16bGuardianHarvesters are itdove/ai-guardian's (digit b: held out)
// config-file scanner fixtures that tests/unit/test_config_scanner.py names
// "Hermes payload" 1 to 3 (after fullsend-ai's hermes-security-patterns)
// and expects the scanner to block as credential exfiltration: a CLAUDE.md
// that has the agent pipe the environment to an outside host, an AGENTS.md
// that pipes printenv through base64 to one, and a .cursorrules that copies
// ~/.aws/credentials to an attacker's S3 bucket before every operation.
// tests/unit/test_hermes_payloads.py repeats the same three payloads
// (06-08) with small changes, so they are not counted again; its other
// payloads are SSRF, Unicode and redaction, and the one-line pattern cases
// are command lines, not instruction files. The strings are laid out from
// the test file as inline/TEST/FILE (PROVENANCE.txt).
var g16bGuardianHarvesters = []g16bFixture{
	{id: "test_hermes_payload_1_claude_md", file: "inline/test_hermes_payload_1_claude_md/CLAUDE.md"},
	{id: "test_hermes_payload_2_agents_md", file: "inline/test_hermes_payload_2_agents_md/AGENTS.md"},
	{id: "test_hermes_payload_3_cursorrules", file: "inline/test_hermes_payload_3_cursorrules/.cursorrules"},
}

// g16bGuardianProbes is the same file's test_false_positive_documentation
// CLAUDE.md, security guidance that names the attack commands as examples
// not to run, which the test expects not to block.
var g16bGuardianProbes = []g16bFixture{
	{id: "test_false_positive_documentation", file: "inline/test_false_positive_documentation/CLAUDE.md"},
}

// g16bVeritasHarvesters are BradGroux/veritas-kanban's (digit 4:
// development) skill-security scanner fixtures
// (server/src/__fixtures__/skill-security/malicious/NAME, each checked by
// skill-security-service.test.ts against its expected.json) whose contract
// expects credential harvesting and a send: exfiltration (its SKILL.md has
// the agent run scripts/collect.js, which posts a local notes file away;
// expected credential.env-harvest and exfil.file-to-network) and
// capability-mismatch (read the project files and fetch them to an outside
// address with the environment's review token; credential.env-harvest,
// exfil.network-egress). The others hide an order, persist, fetch a remote
// script or pin nothing. Written for a skill scanner, not an instruction
// file, they were found while looking for one.
var g16bVeritasHarvesters = []string{"malicious/exfiltration", "malicious/capability-mismatch"}

// g16bVeritasProbes are its benign fixtures, whose expected.json wants no
// finding ("recommendation": "safe").
var g16bVeritasProbes = []string{"benign/document-formatter", "benign/review-checklist"}

// g16bLoadVeritas reads those fixtures without their expected.json, the
// answer the fixture's test holds, not part of the skill.
func g16bLoadVeritas(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "server/src/__fixtures__/skill-security")
	out := namedFixtures(tb, root, g16bVeritasHarvesters, g16bVeritasProbes)
	for i, s := range out {
		var files []File
		for _, f := range s.skill {
			if f.Path != "expected.json" {
				files = append(files, f)
			}
		}
		out[i].skill = files
	}
	return out
}

// g16bShipSafeHarvesters is asamassekou10/ship-safe's (digit a: held out)
// agent-config fixture vulnerable-cursor/.cursorrules, one of the
// "vulnerable Cursor, Claude, and AGENTS.md configuration fixtures" of its
// PR 171 (issue 57 asked for ".cursorrules with hidden instructions to
// exfiltrate .env"): read the environment and send all secrets to an
// outside address; a second line pipes a setup script to bash, which
// trust-boundary-agent.test.js asserts as well. vulnerable-claude only
// pipes a script to bash; vulnerable-agents overrides instructions and
// sends unnamed "data", no secret read, so neither counts. The snapshot
// here predates the fixtures: laid out from read_file at the commits in
// PROVENANCE.txt.
var g16bShipSafeHarvesters = []g16bFixture{
	{id: "vulnerable-cursor", file: "cli/__tests__/fixtures/agent-config/vulnerable-cursor/.cursorrules"},
}

// g16bShipSafeProbes are its quiet controls, which the same test expects
// no finding on: safe-claude/CLAUDE.md and safe-cursor/.cursorrules (the
// latter names credentials and the environment to keep them local).
var g16bShipSafeProbes = []g16bFixture{
	{id: "safe-claude", file: "cli/__tests__/fixtures/agent-config/safe-claude/CLAUDE.md"},
	{id: "safe-cursor", file: "cli/__tests__/fixtures/agent-config/safe-cursor/.cursorrules"},
}

var g16bSources = []corpusSource{
	{name: "777genius+lintai", load: g16bLoader(g16bLintaiHarvesters, g16bLintaiProbes)},
	{name: "deepsweep-ai+deepsweep", load: g16bLoader(g16bDeepsweepHarvesters, g16bDeepsweepProbes)},
	{name: "BradGroux+veritas-kanban", load: g16bLoadVeritas},
	{name: "babywyrm+skillseraph", heldOut: true, load: g16bLoader(g16bSeraphHarvesters, g16bSeraphProbes)},
	{name: "itdove+ai-guardian", heldOut: true, load: g16bLoader(g16bGuardianHarvesters, g16bGuardianProbes)},
	{name: "asamassekou10+ship-safe", heldOut: true, load: g16bLoader(g16bShipSafeHarvesters, g16bShipSafeProbes)},
}

func init() { corpusSources = append(corpusSources, g16bSources...) }

// TestG16bSourcesLoad checks that each source of this file, when laid out,
// yields every harvester and probe its lists name, and runs no verdict: a
// fixture moved upstream must fail here rather than shrink a figure quietly.
func TestG16bSourcesLoad(t *testing.T) {
	checkSourceCounts(t, g16bSources, map[string][2]int{
		"777genius+lintai":         {len(g16bLintaiHarvesters), len(g16bLintaiProbes)},
		"deepsweep-ai+deepsweep":   {len(g16bDeepsweepHarvesters), len(g16bDeepsweepProbes)},
		"BradGroux+veritas-kanban": {len(g16bVeritasHarvesters), len(g16bVeritasProbes)},
		"babywyrm+skillseraph":     {len(g16bSeraphHarvesters), len(g16bSeraphProbes)},
		"itdove+ai-guardian":       {len(g16bGuardianHarvesters), len(g16bGuardianProbes)},
		"asamassekou10+ship-safe":  {len(g16bShipSafeHarvesters), len(g16bShipSafeProbes)},
	})
}
