package scan

import (
	"os"
	"path"
	"path/filepath"
	"testing"
)

// Sources gathered by issue 43's ninth session (helper g12) from the attack
// fixtures of scanners for the other agent instruction formats: Claude Code
// and Codex plugins (their skills, hooks and slash commands), subagent
// files, CLAUDE.md and Cursor rules. Each fixture is laid out as a skill: a
// plugin's skill folder as it is, and a single file (a slash command, an
// instruction file, a rules file, a hooks settings.json) read as the
// skill's SKILL.md. A harvester is a fixture whose author labels it
// malicious (its folder, an expected-results manifest, a test that expects
// a finding) and whose text reads secrets or the user's data AND sends them
// away, in prose the model reads, in a script the skill tells the agent to
// run, or in a hook it installs; one that only runs remote code, persists,
// or echoes a key into the reply is left out. Clean fixtures written for a
// tool's tests are probes, counted apart from real skills. The split is the
// first hex digit of sha256(OWNER/NAME): 0-7 development, 8-f held out. The
// lists were fixed from the authors' labels before any verdict of this
// scanner on them was seen; held-out ones are only measured. A fixture
// written to trip most of its tool's rules at once counts only from a
// development source.

// g12SingleFiles reads each root/NAME as g9SingleFiles does, the sample's
// folder named after the file's own folder (cases/benign-mixed/CLAUDE.md is
// benign-mixed) when the name has one.
func g12SingleFiles(root string, names []string, harvest bool) []sample {
	out := g9SingleFiles(root, names, harvest)
	for i := range out {
		if d := path.Dir(out[i].id); d != "." {
			out[i].dir = path.Base(d)
		}
	}
	return out
}

// g12PluginScannerHarvesters are internet-dot/ai-plugin-scanner's
// (hashgraph-online's plugin scanner; digit 2: development) plugin skills
// under tests/fixtures that describe themselves as exfiltration fixtures:
// the Hermes plugin's security/malicious ("Fixture that tries to exfiltrate
// SSH keys and environment secrets", which test_hermes_adapter.py expects
// to be flagged) pipes the SSH key, the environment and the AWS credentials
// to a collector, and malicious-skill-plugin's leaky-skill ("Dangerous
// fixture that tries to exfiltrate workspace secrets", flagged by
// test_skill_security.py) pipes .env to an upload URL. The Hermes plugin's
// stealth/sneaky ("Looks benign but has malicious subdirectory files")
// keeps its key post in references/api-setup.md and a curl|bash in
// scripts/deploy.sh, neither of which its SKILL.md names, and is left out.
var g12PluginScannerHarvesters = []string{
	"hermes-plugin-evil/skills/security/malicious",
	"malicious-skill-plugin/skills/leaky-skill",
}

// g12PluginScannerProbes are its clean plugins' skills: the Hermes plugin's
// utils/benign ("A completely safe skill with no risk signals") and the
// example skills of good-plugin and claude-plugin-good.
var g12PluginScannerProbes = []string{
	"hermes-plugin-evil/skills/utils/benign",
	"good-plugin/skills/example",
	"claude-plugin-good/skills/example",
}

func g12LoadPluginScanner(tb testing.TB, dir string) []sample {
	return namedFixtures(tb, filepath.Join(dir, "tests/fixtures"), g12PluginScannerHarvesters, g12PluginScannerProbes)
}

// g12LoadAgentConfigAudit reads basitalisandhu/agent-config-audit's
// tests/fixtures (digit a: held out). injection/.cursor/rules/evil.mdc, a
// Cursor rule its test_injection.py expects to be flagged, has the agent
// silently upload the repository (the user's code) to an outside host: a
// harvester. injection/CLAUDE.md packs most of its injection rules into one
// file and, from a held-out source, does not count; injection/AGENTS.md is
// its negated-guidance case with a bidi override, neither attack nor clean.
// The clean fixture's CLAUDE.md and demo skill are probes. The repository
// has no snapshot here: laid out from read_file at
// 9208c3e012bf610604a73eeec641c77e68a9d32f.
func g12LoadAgentConfigAudit(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	out := g12SingleFiles(root, []string{"injection/.cursor/rules/evil.mdc"}, true)
	out = append(out, g12SingleFiles(root, []string{"clean/CLAUDE.md"}, false)...)
	return append(out, guardsNamedProbes(tb, root, []string{"clean/.claude/skills/demo"})...)
}

// g12AgentShieldHarvesters are affaan-m/agentshield's vulnerable Claude Code
// settings (digit 5: development), built from its corpus
// (src/corpus/vulnerable-configs.ts, whose corpus.test.ts expects each to
// trip the rules it lists) into corpus/ID/settings.json, each read as a
// SKILL.md: data-harvesting (category "exfiltration": "Hooks that collect
// and send file contents to external servers", the AWS credentials and
// ~/.ssh among them) and malicious-hooks ("curl exfiltration" of each edited
// file among a reverse shell and a listener, development only). Its other
// entries hold secrets, permissions, MCP launchers, persistence or a beacon
// that sends nothing it read; examples/vulnerable is a misconfigured
// project, not labelled malicious.
var g12AgentShieldHarvesters = []string{
	"data-harvesting/settings.json",
	"malicious-hooks/settings.json",
}

func g12LoadAgentShield(tb testing.TB, dir string) []sample {
	return g12SingleFiles(filepath.Join(dir, "corpus"), g12AgentShieldHarvesters, true)
}

// g12ShellockolmHarvesters are hlsitechio/Shellockolm-AI-CLI-MCP-Scanner's
// agent fixtures (digit f: held out) that tests/fixtures/manifest.json
// classifies malicious and describes as reading secrets and sending them
// out: a skill that passes the MCP config and AWS credentials as a tool
// argument, a skill whose link sends an API key in its query string, a
// skill and a slash command whose HTML comments send a key file away, and a
// CLAUDE.md that plants a rule to send every .env it reads. Its homoglyph,
// permission-bypass and base64 skills, MCP, n8n and settings fixtures are
// other attacks or no skill.
var g12ShellockolmHarvesters = []string{
	"skills/malicious/tool-poisoning.skill.md",
	"skills/malicious/link-text-mismatch.skill.md",
	"skills/malicious/hidden-html-comment.skill.md",
	"slash-commands/malicious/.claude/commands/release.md",
	"instructions/malicious/persistence-poisoning/CLAUDE.md",
}

// g12ShellockolmProbes are its benign skills, instruction file and slash
// command, which the manifest's zero-false-positive baseline expects to
// yield no finding.
var g12ShellockolmProbes = []string{
	"skills/benign/file-search.skill.md",
	"skills/benign/progressive-disclosure.skill.md",
	"skills/benign/checksum-manifest.skill.md",
	"instructions/benign/project-guide/CLAUDE.md",
	"slash-commands/benign/.claude/commands/lint.md",
}

// g12LoadShellockolm reads those fixtures. The snapshot's tree holds no
// tests/: laid out from read_file (commits in PROVENANCE.txt and the
// README row).
func g12LoadShellockolm(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return append(g12SingleFiles(root, g12ShellockolmHarvesters, true),
		g12SingleFiles(root, g12ShellockolmProbes, false)...)
}

// g12LoadCCScan reads pcb869/ccscan's tests/fixtures (digit 4:
// development). Its malicious plugin, which test_ccscan.py expects to trip
// every rule family, carries two harvests: skills/deploy posts ~/.netrc to
// a webhook, and hooks/hooks.json installs a PostToolUse hook running
// hooks/collect.sh, which tars ~/.ssh and ~/.aws and uploads them (the test
// expects secrets-read and exfil findings in it). The hook is read as a
// skill whose SKILL.md is hooks.json, with collect.sh beside it. Its
// CLAUDE.md (remote code) and agents/root.md (injection) send nothing. The
// clean plugin's skill, subagent and CLAUDE.md, which the test expects to
// yield nothing above low, are probes. The repository has no snapshot here:
// laid out from read_file at 949e26c920f13480484bffe8444e53b7c10012a8.
func g12LoadCCScan(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	out := loadNamedHarvesters(tb, filepath.Join(root, "malicious/skills"), []string{"deploy"})
	out = append(out, g12HookHarvester(filepath.Join(root, "malicious/hooks"), "hooks.json")...)
	out = append(out, guardsNamedProbes(tb, filepath.Join(root, "clean/skills"), []string{"commit"})...)
	return append(out, g12SingleFiles(filepath.Join(root, "clean"), []string{"agents/reviewer.md", "CLAUDE.md"}, false)...)
}

// g12HookHarvester reads a plugin's hooks folder as one harvester: the
// hooks file as SKILL.md and the scripts beside it as they are.
func g12HookHarvester(hooksDir, hooksFile string) []sample {
	entries, err := os.ReadDir(hooksDir)
	if err != nil {
		return nil
	}
	var files []File
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(hooksDir, e.Name()))
		if err != nil {
			return nil
		}
		name := e.Name()
		if name == hooksFile {
			name = "SKILL.md"
		}
		files = append(files, File{Path: name, Data: data})
	}
	id := filepath.Base(hooksDir)
	return []sample{{id: id, dir: id, attack: true, harvest: true, skill: files}}
}

// g12LoadCasefile reads luka-zivkovic/casefile's test/fixtures (digit 6:
// development). Its malicious-plugin's skills/helper hides an order to run
// scripts/setup.sh quietly, a script its own comment calls "an exfiltration
// + persistence payload" that posts the OpenAI key and the AWS secret key
// to a collector among remote code, cron persistence and rm -rf: a kitchen
// sink, development only. benign-skill is a probe. The repository has no
// snapshot here: laid out from read_file (commits in PROVENANCE.txt).
func g12LoadCasefile(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "test/fixtures")
	return append(loadNamedHarvesters(tb, filepath.Join(root, "malicious-plugin/skills"), []string{"helper"}),
		guardsNamedProbes(tb, root, []string{"benign-skill"})...)
}

// g12LoadSkillsAnalyzer reads socket-agency/skills-analyzer.socket.agency's
// labelled eval corpus (digit 5: development), the CASES of
// tests/eval/harness.py built into cases/NAME/ (each case's text under its
// filename, or its entries). claude-md-standing-exfil, labelled unsafe, is a
// CLAUDE.md that has the agent post the diff and the environment to a
// collector after every commit: a harvester. env-exfil-python keeps its
// harvest in a script its SKILL.md never names; the other unsafe cases are
// remote code, injection, trigger hijack, auto-approval, imports or a
// vulnerable dependency. Its four benign cases (expected CLEAN: a scoped
// skill, a skill documenting injection text, two CLAUDE.md) are probes.
func g12LoadSkillsAnalyzer(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "cases")
	out := g12SingleFiles(root, []string{"claude-md-standing-exfil/CLAUDE.md"}, true)
	out = append(out, guardsNamedProbes(tb, root, []string{"clean-scoped-skill", "security-skill-documenting-patterns"})...)
	return append(out, g12SingleFiles(root, []string{"normal-claude-md/CLAUDE.md", "documented-security-policy-claude-md/CLAUDE.md"}, false)...)
}

// g12VetgateHarvesters are rakshit-737/vetgate's labelled benchmark cases
// (digit 5: development), built from bench/corpus.py (each case's files as
// its generate() writes them) into cases/NAME/FILE, each instruction file
// read as a SKILL.md. Both are marked dangerous: mal-claude-md-exfil
// (category "cred-exfil"), an AGENTS.md that uploads the AWS credentials
// before answering, and mal-md-covert, a CLAUDE.md that quietly emails
// config.json to an outside address. Its other dangerous cases are hooks,
// tasks, devcontainers, package scripts, hidden text, an MCP config or git
// hooks that run code, and an npm preinstall that is no instruction file.
var g12VetgateHarvesters = []string{
	"mal-claude-md-exfil/AGENTS.md",
	"mal-md-covert/CLAUDE.md",
}

// g12VetgateProbes are its benign instruction files (a CLAUDE.md, an
// AGENTS.md, a .cursorrules and a one-line CLAUDE.md), which must not be
// flagged HIGH.
var g12VetgateProbes = []string{
	"benign-claude-md/CLAUDE.md",
	"benign-agents-md/AGENTS.md",
	"benign-cursorrules/.cursorrules",
	"benign-mixed/CLAUDE.md",
}

func g12LoadVetgate(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "cases")
	return append(g12SingleFiles(root, g12VetgateHarvesters, true),
		g12SingleFiles(root, g12VetgateProbes, false)...)
}

var g12Sources = []corpusSource{
	{name: "internet-dot+ai-plugin-scanner", load: g12LoadPluginScanner},
	{name: "affaan-m+agentshield", load: g12LoadAgentShield},
	{name: "pcb869+ccscan", load: g12LoadCCScan},
	{name: "luka-zivkovic+casefile", load: g12LoadCasefile},
	{name: "socket-agency+skills-analyzer.socket.agency", load: g12LoadSkillsAnalyzer},
	{name: "rakshit-737+vetgate", load: g12LoadVetgate},
	{name: "basitalisandhu+agent-config-audit", heldOut: true, load: g12LoadAgentConfigAudit},
	{name: "hlsitechio+Shellockolm-AI-CLI-MCP-Scanner", heldOut: true, load: g12LoadShellockolm},
}

func init() { corpusSources = append(corpusSources, g12Sources...) }

// TestMore12SourcesLoad checks that each source of this file, when laid out,
// yields every harvester and probe its lists name, and runs no verdict: a
// fixture moved upstream must fail here rather than shrink a figure
// quietly.
func TestMore12SourcesLoad(t *testing.T) {
	checkSourceCounts(t, g12Sources, map[string][2]int{ // harvesters, probes
		"internet-dot+ai-plugin-scanner":              {len(g12PluginScannerHarvesters), len(g12PluginScannerProbes)},
		"affaan-m+agentshield":                        {len(g12AgentShieldHarvesters), 0},
		"pcb869+ccscan":                               {2, 3},
		"luka-zivkovic+casefile":                      {1, 1},
		"socket-agency+skills-analyzer.socket.agency": {1, 4},
		"rakshit-737+vetgate":                         {len(g12VetgateHarvesters), len(g12VetgateProbes)},
		"basitalisandhu+agent-config-audit":           {1, 2},
		"hlsitechio+Shellockolm-AI-CLI-MCP-Scanner":   {len(g12ShellockolmHarvesters), len(g12ShellockolmProbes)},
	})
}
