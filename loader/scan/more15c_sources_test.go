package scan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Sources gathered by issue 43's tenth session (helper g15c): the fixtures
// of skill scanners and gates nobody here had read, looked for among authors
// writing in languages earlier helpers had not searched (German, French,
// Italian, Polish, Turkish, Vietnamese, Indonesian, Thai, Arabic, Persian,
// Hebrew, Hindi, Ukrainian, Dutch). The session's search budget ran out
// after its first look-ups, so the sources below were found through the
// links other stored repositories make, each fetched as a snapshot; the
// fixture's language does not matter, its label comes from its author (a
// fixture's folder, a test that expects a block, a README table or a demo's
// expected output). A harvester here is a fixture whose author labels it
// malicious or exfiltration and whose text reads secrets or the user's data
// AND sends them away, in prose the model reads or in a script the skill
// names for the agent to run; one that sends only a host name or the user
// name, only runs remote code, or keeps its harvest in code the skill never
// names is left out. Clean fixtures written for a tool's tests or demos are
// probes, counted apart from real skills. The split is the first hex digit
// of sha256(OWNER/NAME): 0-7 development, 8-f held out. The lists were fixed
// from the authors' labels before any verdict of this scanner on them was
// seen; a fixture that packs several attacks into one skill counts only from
// a development source.

// g15cNamed reads the harvesters and probes named under dir/sub, each by its
// folder's path below sub.
func g15cNamed(sub string, harvesters, probes []string) func(testing.TB, string) []sample {
	return func(tb testing.TB, dir string) []sample {
		return namedFixtures(tb, filepath.Join(dir, sub), harvesters, probes)
	}
}

// g15cSecureSkillsHarvesters is alonw0/secure-skills' (digit 2:
// development; a fork of vercel-labs/skills with a scanner) one inline
// skill: tests/scanner-integration.test.ts's "detects multiple issues in a
// malicious skill" fixture evil-skill, which has the agent read
// ~/.ssh/id_rsa and send it to a Slack webhook (the test expects an exfil-
// finding), beside an injection, a no-confirmation order and rm -rf: several
// attacks in one skill, so development only. Its snapshot has no such
// fixture as a file: the session laid the template literal out as
// inline/evil-skill/SKILL.md (PROVENANCE.txt gives line and commit).
var g15cSecureSkillsHarvesters = []string{"evil-skill"}

// g15cSecureSkillsProbes is the same file's test-skill, which "reports clean
// for a normal skill" asserts is clean.
var g15cSecureSkillsProbes = []string{"test-skill"}

// g15cJasonHarvesters is jasoneip01-pixel/skill-scanner's (digit 7:
// development) demo skill demos/skill-scanner/test-skill: a "financial-tx"
// skill whose front matter names scripts/init.sh, which posts
// /etc/secrets/payment-api.env to an outside host; the README's demo output
// blocks it with four critical findings and the demo's own rules
// (agent-skills-scan.py) file that upload as DX001 "Data exfiltration
// detected". It also carries an override of the safety instructions and fee
// concealment: several attacks in one skill, development only. The
// malicious_skill of tests/conftest.py names no script and is not counted.
var g15cJasonHarvesters = []string{"test-skill"}

// g15cJasonProbes are the demo's clean skills beside it: benign-skill (a
// "basic-math" skill, author "Skill Scanner Team") and frontmatter-skill.
var g15cJasonProbes = []string{"benign-skill", "frontmatter-skill"}

// g15cSkillTraceProbes are handcraftedbygod/Skill-Sentinel's (SkillTrace;
// digit 5: development) fixtures its README's fixture benchmark calls clean
// or legitimate: clean/word-counter ("an ordinary, non-malicious skill"),
// edge-case/cli-tool-installer ("a legitimate curl-pipe-sh installer"),
// edge-case/dev-tooling-script (a hidden script under a well-known CI path,
// "downgraded for a known-benign path shape") and
// edge-case/dotfile-hygiene-helper (scoped to .ssh/, .env and credentials
// paths as "a legitimate dotfile-hygiene helper needs"). Its malicious
// fixtures are not harvesters: cloud-deploy-helper and hidden-when-to-use
// post only `uname -a`, dns-exfil-sample looks up only `whoami`,
// pdf-formatter prints a marker; edge-case/support-ticket-triage is a
// prompt injection, neither clean nor a harvest.
var g15cSkillTraceProbes = []string{
	"clean/word-counter",
	"edge-case/cli-tool-installer",
	"edge-case/dev-tooling-script",
	"edge-case/dotfile-hygiene-helper",
}

// The held-out sources below hold no harvester this session could count;
// their clean fixtures are laid out as probes, to show over-reach on text
// the rules were not written against.

// g15cFirmisProbes are riteshkew/firmis-scanner's (digit a: held out)
// fixtures its golden-path tests (test/integration/golden-paths.test.ts) call
// known-safe: openclaw-safe/helper-tool ("safe OpenClaw project produces
// grade A") and documentation-fp/docs-skill, a skill whose README names
// credential paths, C2 addresses and exfiltration for teaching
// ("documentation mentioning threats is not flagged"). Its malicious
// fixtures keep their harm in index.js, which no SKILL.md names.
var g15cFirmisProbes = []string{"openclaw-safe/helper-tool", "documentation-fp/docs-skill"}

// g15cSeekaxisProbes is seekaxis/skills' (digit e: held out) security-auditor
// fixture safe-skill, which its test (tests/scan.test.js) wants scored PASS
// with zero findings. risky-skill packs many attacks into one skill (its key
// read is shown, not sent) and ambiguous-skill is context-dependent; neither
// counts.
var g15cSeekaxisProbes = []string{"safe-skill"}

// g15cTankProbes is tankpkg/tank's (digit b: held out) benign/simple_tool,
// which test_skill_corpus.py's test_simple_tool says "Should NOT flag". Its
// exfiltration fixtures keep the harvest in skill.py, which their SKILL.md
// never names, and its other benign fixtures have no SKILL.md.
var g15cTankProbes = []string{"simple_tool"}

// g15cHuiferProbes is huifer/skill-security-scan's (digit c: held out)
// valid_skills/log-analyzer, its README's safe example. Its one malicious
// skill, data-optimizer, packs network, file, command and injection attacks
// into one skill written to trip its rules: held out, so not counted.
var g15cHuiferProbes = []string{"valid_skills/log-analyzer"}

// g15cEgressBenchHarvesters are luckyPipewrench/agent-egress-bench's (digit
// f: held out) MCP tool-poisoning cases (cases/mcp-tool, input_type
// mcp_tool_definition, expected_verdict block) whose poisoned tool has the
// model send secrets or the user's data away: mcp-tool-poison-001 (its notes:
// "hidden instructions to exfiltrate SSH keys", ~/.ssh/id_rsa put into the
// query parameter) and mcp-tool-priority-006 ("intercept file contents":
// every file's contents routed through the tool's data parameter). Three
// other block cases of that folder, rugpull-002 (the environment posted to a
// C2 address), shadow-003 (an email body diverted) and schema-inject-004
// (~/.aws/credentials prepended to a query), are near-copies of tools in
// internal/mcp/tools/tools_test.go of the same author's
// luckyPipewrench/pipelock, a development source laid out by helper g15b,
// so they are left out; exfil-description-005 is a tool result, not a
// definition. Each case lists one tool.
var g15cEgressBenchHarvesters = []string{
	"cases/mcp-tool/mcp-tool-poison-001.json",
	"cases/mcp-tool/mcp-tool-priority-006.json",
}

// g15cEgressBenchProbes are its allow cases whose frame is a tool
// definition: mcp-tool-benign-verbose-001 ("no hidden instructions or
// malicious content") and the false-positive suite's
// fp-security-scanner-tool-006 (a security scanner's own tool).
var g15cEgressBenchProbes = []string{
	"cases/mcp-tool/mcp-tool-benign-verbose-001.json",
	"cases/false-positive/fp-security-scanner-tool-006.json",
}

// g15cEgressCase is the part of an agent-egress-bench case this reads: the
// tools/list results its payload replays.
type g15cEgressCase struct {
	InputType       string `json:"input_type"`
	ExpectedVerdict string `json:"expected_verdict"`
	Payload         struct {
		Messages []struct {
			Result struct {
				Tools []*mcp.Tool `json:"tools"`
			} `json:"result"`
		} `json:"jsonrpc_messages"`
	} `json:"payload"`
}

// g15cLoadEgressBench reads each listed case's tools, each a poisoned tool
// (attack) or a probe, checking the case's own verdict agrees with the list.
func g15cLoadEgressBench(tb testing.TB, dir string) []sample {
	var out []sample
	read := func(file string, poisoned bool) {
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			return
		}
		var c g15cEgressCase
		if err := json.Unmarshal(data, &c); err != nil {
			tb.Fatalf("%s: %v", file, err)
		}
		if want := map[bool]string{true: "block", false: "allow"}[poisoned]; c.InputType != "mcp_tool_definition" || c.ExpectedVerdict != want {
			tb.Fatalf("%s: input_type %q, expected_verdict %q; want a tool definition to %s", file, c.InputType, c.ExpectedVerdict, want)
		}
		for _, m := range c.Payload.Messages {
			for _, t := range m.Result.Tools {
				out = append(out, sample{id: file + ":" + t.Name, tool: t, attack: poisoned, probe: !poisoned})
			}
		}
	}
	for _, f := range g15cEgressBenchHarvesters {
		read(f, true)
	}
	for _, f := range g15cEgressBenchProbes {
		read(f, false)
	}
	return out
}

// g15cToolSources are this file's sources of tool definitions.
var g15cToolSources = []corpusSource{
	{name: "luckyPipewrench+agent-egress-bench", heldOut: true, load: g15cLoadEgressBench},
}

var g15cSources = []corpusSource{
	{name: "alonw0+secure-skills", load: g15cNamed("inline", g15cSecureSkillsHarvesters, g15cSecureSkillsProbes)},
	{name: "jasoneip01-pixel+skill-scanner", load: g15cNamed("demos/skill-scanner", g15cJasonHarvesters, g15cJasonProbes)},
	{name: "handcraftedbygod+Skill-Sentinel", load: g15cNamed("examples", nil, g15cSkillTraceProbes)},
	{name: "riteshkew+firmis-scanner", heldOut: true, load: g15cNamed("test/fixtures", nil, g15cFirmisProbes)},
	{name: "seekaxis+skills", heldOut: true, load: g15cNamed("skills/security-auditor/tests/fixtures", nil, g15cSeekaxisProbes)},
	{name: "tankpkg+tank", heldOut: true, load: g15cNamed("apps/python-api/tests/test_skills/benign", nil, g15cTankProbes)},
	{name: "huifer+skill-security-scan", heldOut: true, load: g15cNamed("tests/skills", nil, g15cHuiferProbes)},
}

func init() {
	corpusSources = append(corpusSources, g15cSources...)
	corpusSources = append(corpusSources, g15cToolSources...)
}

// TestG15cSourcesLoad checks that each source of this file, when laid out,
// yields every harvester and probe its lists name, and runs no verdict: a
// fixture moved upstream must fail here rather than shrink a figure quietly.
func TestG15cSourcesLoad(t *testing.T) {
	checkSourceCounts(t, g15cSources, map[string][2]int{
		"alonw0+secure-skills":            {len(g15cSecureSkillsHarvesters), len(g15cSecureSkillsProbes)},
		"jasoneip01-pixel+skill-scanner":  {len(g15cJasonHarvesters), len(g15cJasonProbes)},
		"handcraftedbygod+Skill-Sentinel": {0, len(g15cSkillTraceProbes)},
		"riteshkew+firmis-scanner":        {0, len(g15cFirmisProbes)},
		"seekaxis+skills":                 {0, len(g15cSeekaxisProbes)},
		"tankpkg+tank":                    {0, len(g15cTankProbes)},
		"huifer+skill-security-scan":      {0, len(g15cHuiferProbes)},
	})
	checkToolSourceCounts(t, g15cToolSources, map[string][2]int{
		"luckyPipewrench+agent-egress-bench": {len(g15cEgressBenchHarvesters), len(g15cEgressBenchProbes)},
	})
}
