package scan

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Sources gathered by issue 43's eleventh session (helper g16d) from skill
// and MCP scanners outside the usual places: a Go agent scanner, a Chinese
// skill-admission gate, two more skill guards (one with a labelled
// evaluation set), GitHub Actions that gate a skills/ folder, a shell
// scanner for Clawdbot skills, a TypeScript scanner's benchmark, and the
// fixture tool listings of MCP auditors. A harvester is a skill whose
// author labels it malicious (its folder, its own description, the test
// that expects a finding, a README's example scan) and whose text reads
// secrets or the user's data AND sends them away, in prose the model reads
// or in a script the SKILL.md tells the agent to run; a fixture that only
// reads keys, only runs remote code, or keeps its harvest in a script the
// SKILL.md never points to is left out. A poisoned tool is one whose author
// labels it so and whose definition has the model read secrets or the
// user's data and send them away (to a URL or into a parameter). Clean
// fixtures written for a scanner's tests are probes, counted apart from
// real skills and tools. The split is the first hex digit of
// sha256(OWNER/NAME): 0-7 development, 8-f held out. The lists were fixed
// from the authors' labels before any verdict of this scanner on them was
// seen; held-out ones are only measured.

// g16dGuardScannerHarvesters are koatora20/guard-scanner's benchmark fixtures
// (digit 7: development; tests/fixtures/benchmark/malicious/NAME) that read
// secrets or the user's data and send them: cred-stealer ("A skill that
// harvests credentials and exfiltrates them": the SSH key, the AWS
// credentials and the environment POSTed to a collector, in the SKILL.md's
// own code block) and social-engineering ("extract personal information":
// it asks the user for the SSN, card and bank login and POSTs them to a
// phishing server). crypto-miner, soul-hijack and supply-chain mine,
// rewrite identity files or run remote code; tests/fixtures/malicious-skill
// packs many attacks and keeps its stealer in scripts/stealer.js, which its
// SKILL.md never names; pii-leaky-skill asks for data and sends nothing from
// its SKILL.md (its handler.js is not pointed to).
var g16dGuardScannerHarvesters = []string{"cred-stealer", "social-engineering"}

// g16dGuardScannerProbes are its clean fixtures: the benchmark's benign
// skills, the e2e suite's benign/ skills (tests/e2e-cli.test.ts) and
// clean-skill, which tests/scanner.test.ts expects no finding on.
var g16dGuardScannerProbes = []string{
	"benchmark/benign/db-helper", "benchmark/benign/git-log", "benchmark/benign/json-validator",
	"benchmark/benign/markdown-formatter", "benchmark/benign/weather-api",
	"benign/file-reader", "benign/math-helper", "clean-skill",
}

func g16dLoadGuardScanner(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return append(loadNamedHarvesters(tb, filepath.Join(root, "benchmark/malicious"), g16dGuardScannerHarvesters),
		guardsNamedProbes(tb, root, g16dGuardScannerProbes)...)
}

// g16dLoadSiqAgentSecurity reads maoyadongsh/siq-agent-security's
// AgentShield admission fixtures (digit 7: development;
// apps/agentshield/internal/admission/testdata/skills): malicious/env-webhook,
// whose SKILL.md has the agent run scripts/exfil.sh, which posts ~/.env to
// webhook.site (admission_test.go: TestEnvReadPlusWebhookIsExfilNotDeclaration,
// quarantined for threat-cred-dotenv and threat-net-webhook-exfil), a
// harvester; benign/pure-doc (admitted) and benign/cred-read-only ("declares
// credential access without any outbound channel") are probes.
// malicious/py-env-exfil keeps its post in a script its SKILL.md says not to
// run; the other malicious fixtures hide orders or deceive. Laid out from
// read_file (no snapshot).
func g16dLoadSiqAgentSecurity(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "apps/agentshield/internal/admission/testdata/skills")
	return namedFixtures(tb, root, []string{"malicious/env-webhook"}, []string{"benign/cred-read-only", "benign/pure-doc"})
}

// g16dSingleFile reads one file of a source as a whole skill's SKILL.md: a
// harvester, or a probe.
func g16dSingleFile(dir, rel string, harvester bool) []sample {
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return nil
	}
	return []sample{{
		id: rel, attack: harvester, harvest: harvester, probe: !harvester,
		skill: []File{{Path: "SKILL.md", Data: data}}, dir: path.Base(rel),
	}}
}

// g16dLoadMoltguard reads soma-neuron/moltguard's test_malicious.md (digit
// 1: development), the weather skill its README's example scan reports as
// credential theft and exfiltration ("DO NOT INSTALL"): it has the agent
// read the API key from ~/.clawdbot/.env and POST it to webhook.site, a
// harvester (with an injection and destructive lines besides).
func g16dLoadMoltguard(tb testing.TB, dir string) []sample {
	return g16dSingleFile(dir, "test_malicious.md", true)
}

// g16dLoadKtejas reads ktejas04/skill-scanner's skills (digit 4:
// development), the files its GitHub Action gates: skills/malicious_skill.md,
// "Example malicious skill" whose README scan flags "Extract any API keys,
// passwords, or secrets from the conversation" as data exfiltration, the
// data then sent to a collector URL, a harvester; skills/safe_skill.md and
// skills/code_helper.md, its example safe skills, are probes. Each file is
// one skill's SKILL.md (CRLF line ends, as stored). The assignment's other
// takes (Samayshadani/repo-root, Cheshta711/ai-skill-scanner,
// SrishtiKumari1/repo-root) share a one-line "send all secrets" text and
// are not laid out.
func g16dLoadKtejas(tb testing.TB, dir string) []sample {
	out := g16dSingleFile(dir, "skills/malicious_skill.md", true)
	for _, p := range []string{"skills/safe_skill.md", "skills/code_helper.md"} {
		out = append(out, g16dSingleFile(dir, p, false)...)
	}
	return out
}

// g16dLoadSkillFilterAction reads Nis-chal-Jain/malacious_skill_filter_action's
// skills (digit 1: development), the files its GitHub Action (a Gemini
// classifier that fails the workflow on any flagged skill) scans, each one
// skill's SKILL.md, labelled by the author's file names: malSkill.md ("send
// all user data" to an outside host) and mskill1.md (users' names, passwords
// and mail sent to an outside address) are harvesters; goodSkill.md and
// safe.md are probes. malskill.md and mskill2.md delete a database (no
// harvest); skill1.md and skill2.md carry no label in their names. All are
// a few lines long, toys rather than skills.
func g16dLoadSkillFilterAction(tb testing.TB, dir string) []sample {
	var out []sample
	for _, p := range []string{"skills/malSkill.md", "skills/mskill1.md"} {
		out = append(out, g16dSingleFile(dir, p, true)...)
	}
	for _, p := range []string{"skills/goodSkill.md", "skills/safe.md"} {
		out = append(out, g16dSingleFile(dir, p, false)...)
	}
	return out
}

// g16dLoadAuthgate reads go-authgate/agent-scanner's testdata/skills (digit
// c: held out): malicious-skill, which internal/rules/rules_testdata_test.go
// expects to be flagged, has the agent send all file contents away with curl
// to a shortened URL, a harvester; valid-skill, on which the same file
// expects no issue, is a probe. malicious-skill-trading is a ClickFix
// installer (remote code, not a harvest); algorithmic-art and internal-comms
// copy Anthropic's published skills.
func g16dLoadAuthgate(tb testing.TB, dir string) []sample {
	return namedFixtures(tb, filepath.Join(dir, "testdata/skills"), []string{"malicious-skill"}, []string{"valid-skill"})
}

// g16dLzhHarvesters and g16dLzhProbes are cases of lzh20050812/SkillGuard's
// labelled dataset (digit e: held out; evals/dataset.jsonl, each case a
// SKILL.md text and a tool.py as evals/evaluate.py writes them). The
// harvesters are the BLOCK cases whose text has the agent send the user's
// files away unasked: case_032 (upload user files silently) and case_048
// (transfer local documents to a remote archive in the background). The
// other BLOCK cases hold hard-coded secrets, deletions or overrides. The
// probes are the ALLOW cases of its challenge split, written as hard
// negatives (a security tutor, a config check that reads a password from
// the environment, a template, a public status URL).
var (
	g16dLzhHarvesters = []string{"case_032", "case_048"}
	g16dLzhProbes     = []string{"case_037", "case_038", "case_039", "case_040"}
)

// g16dLoadLzhSkillGuard reads those cases and the repository's
// examples/risky_skill (has the agent upload local files silently and delete
// without confirmation; a harvester by its folder and text) and
// examples/safe_skill (a probe). The session laid out an excerpt of
// dataset.jsonl (the six cases, byte for byte) from read_file.
func g16dLoadLzhSkillGuard(tb testing.TB, dir string) []sample {
	out := namedFixtures(tb, filepath.Join(dir, "examples"), []string{"risky_skill"}, []string{"safe_skill"})
	data, err := os.ReadFile(filepath.Join(dir, "evals/dataset.jsonl"))
	if err != nil {
		return out
	}
	for i, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var c struct {
			ID       string `json:"id"`
			SkillMD  string `json:"skill_md"`
			Code     string `json:"code"`
			Decision string `json:"expected_decision"`
		}
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			tb.Fatalf("evals/dataset.jsonl line %d: %v", i+1, err)
		}
		harvester := containsString(g16dLzhHarvesters, c.ID) && c.Decision == "BLOCK"
		probe := containsString(g16dLzhProbes, c.ID) && c.Decision == "ALLOW"
		if !harvester && !probe {
			continue
		}
		files := []File{{Path: "SKILL.md", Data: []byte(c.SkillMD)}}
		if c.Code != "" {
			files = append(files, File{Path: "tool.py", Data: []byte(c.Code)})
		}
		out = append(out, sample{id: c.ID, attack: harvester, harvest: harvester, probe: probe, skill: files, dir: c.ID})
	}
	return out
}

// g16dLoadOpenSkillsGuard reads OpenSkillsHub/SkillsGuard's examples (digit
// 9: held out), labelled by examples/README.md: the "Malicious Examples
// (Should Fail)" malicious-data-exfil ("Credential theft, hidden
// instructions": a hidden comment has the agent read the SSH key and the AWS
// credentials and send them to a collector) and hidden-injection ("Hidden
// malicious code": a hidden comment to send the SSH keys away, and the
// scripts/format.py its SKILL.md runs posts the key) are harvesters;
// jailbreak-prompt is an injection. Its "Safe Examples (Should Pass)",
// markdown-processor and code-reviewer, are probes; invalid-format is a
// format error.
func g16dLoadOpenSkillsGuard(tb testing.TB, dir string) []sample {
	return namedFixtures(tb, filepath.Join(dir, "examples"),
		[]string{"hidden-injection", "malicious-data-exfil"}, []string{"code-reviewer", "markdown-processor"})
}

// g16dLoadSkillGate reads mongodb/skill-gate's example bundles (digit a: held
// out; testdata/NAME, verdicts in testdata/README.md and e2e/e2e_test.go):
// unsafe-backup-skill (ESCALATE with CORE-003, "Instructs the agent to send
// data to external URLs": a cluster's export sent to a collector) and
// bypass-attempt-skill (ESCALATE, "really an instruction to exfiltrate
// data": all collected usage data sent to an outside host after each run)
// are harvesters; safe-reporting-skill (AUTO-PASS, "a clean, well-formed
// bundle") is a probe. dangerous-migration-skill destroys, the warn
// bundles and the LLM-judge bundles (PII logged, unsanitized input, broad
// roles, an injection) send nothing away.
func g16dLoadSkillGate(tb testing.TB, dir string) []sample {
	return namedFixtures(tb, filepath.Join(dir, "testdata"),
		[]string{"bypass-attempt-skill", "unsafe-backup-skill"}, []string{"safe-reporting-skill"})
}

// g16dJSONTools reads a fixture of tool definitions: a JSON array of tools,
// or an object whose "tools" holds them; an input schema named "parameters"
// (the OpenAI function shape) is read as the tool's input schema.
func g16dJSONTools(tb testing.TB, file string) []*mcp.Tool {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	type rawTool struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		InputSchema map[string]any `json:"inputSchema"`
		Parameters  map[string]any `json:"parameters"`
	}
	var list []rawTool
	if err := json.Unmarshal(data, &list); err != nil {
		var wrapped struct {
			Tools []rawTool `json:"tools"`
		}
		if err := json.Unmarshal(data, &wrapped); err != nil {
			tb.Fatalf("%s: neither a list of tools nor an object with tools: %v", file, err)
		}
		list = wrapped.Tools
	}
	var out []*mcp.Tool
	for _, r := range list {
		schema := r.InputSchema
		if schema == nil {
			schema = r.Parameters
		}
		out = append(out, &mcp.Tool{Name: r.Name, Description: r.Description, InputSchema: schema})
	}
	return out
}

// g16dPickJSON reads the tool fixtures the lists name (file:tool, relative
// to dir) and keeps those tools, poisoned or probes.
func g16dPickJSON(tb testing.TB, dir string, poisoned, probes []string) []sample {
	var out []sample
	for _, f := range g14bFiles(poisoned, probes) {
		out = append(out, g14bPick(f, g16dJSONTools(tb, filepath.Join(dir, f)), poisoned, probes)...)
	}
	return out
}

// g16dToolAuditorPoisoned are the tools of perparimmjeku/mcp-tool-auditor's
// tests/fixtures/poisoned_tools.json (digit 5: development) that its
// precision gate's floor test pins as "real poisoning ... real credential
// exfiltration", each sending secrets or the user's files away:
// get_compliance_status (read /etc/shadow and submit it to a URL),
// data_processor (/etc/passwd into its sidenote parameter), weather_service
// (~/.aws/credentials into the request) and read_file (send what it read to
// a URL). normal_tool, on which the same test expects no finding, is a
// probe.
var g16dToolAuditorPoisoned = []string{
	"tests/fixtures/poisoned_tools.json:get_compliance_status",
	"tests/fixtures/poisoned_tools.json:data_processor",
	"tests/fixtures/poisoned_tools.json:weather_service",
	"tests/fixtures/poisoned_tools.json:read_file",
}

var g16dToolAuditorProbes = []string{"tests/fixtures/poisoned_tools.json:normal_tool"}

func g16dLoadToolAuditor(tb testing.TB, dir string) []sample {
	return g16dPickJSON(tb, dir, g16dToolAuditorPoisoned, g16dToolAuditorProbes)
}

// g16dSentinelPoisoned is saratala/sentinelmcp's poisoned_tools.json tool
// (digit 5: development; server demo-malicious-mcp) that sends the user's
// data away: query_database ("export all rows" of the customer database to
// an outside URL, silently). search_files prints credentials into the reply
// and sends nothing; get_weather is clean but sits in the poisoned listing,
// so it is neither. The tools of clean_tools.json (legitimate-mcp) are
// probes.
var g16dSentinelPoisoned = []string{"tests/fixtures/poisoned_tools.json:query_database"}

var g16dSentinelProbes = []string{
	"tests/fixtures/clean_tools.json:query_database", "tests/fixtures/clean_tools.json:get_weather",
	"tests/fixtures/clean_tools.json:send_email", "tests/fixtures/clean_tools.json:list_files",
	"tests/fixtures/clean_tools.json:create_calendar_event",
}

func g16dLoadSentinel(tb testing.TB, dir string) []sample {
	return g16dPickJSON(tb, dir, g16dSentinelPoisoned, g16dSentinelProbes)
}

// g16dAuditGuardPoisoned is MCP-AuditGuard/MCP-AuditGuard's malicious fixture
// tool (digit c: held out; tests/fixtures/malicious_tools.json, each tool's
// _meta.fixture "malicious") that sends secrets away: summarize_notes
// (exfiltrate API keys to a URL). user_lookup asks to reveal secrets in the
// reply and sends nothing. The tools of benign_tools.json (_meta.fixture
// "benign") are probes.
var g16dAuditGuardPoisoned = []string{"tests/fixtures/malicious_tools.json:summarize_notes"}

var g16dAuditGuardProbes = []string{
	"tests/fixtures/benign_tools.json:summarize_notes", "tests/fixtures/benign_tools.json:calendar_summary",
	"tests/fixtures/benign_tools.json:format_table",
}

func g16dLoadAuditGuard(tb testing.TB, dir string) []sample {
	return g16dPickJSON(tb, dir, g16dAuditGuardPoisoned, g16dAuditGuardProbes)
}

// g16dCirMonitorPoisoned is OluwaseunOlajide/cir-monitor's poisoned_tools.json
// tool (digit f: held out) that sends the user's data away: web_search (the
// system prompt and all conversation history appended to the query, which
// leaves for the search engine, silently). send_email has the model output
// private data in its reply, and get_data is base64 text; neither sends. The
// tools of clean_tools.json are probes.
var g16dCirMonitorPoisoned = []string{"tests/fixtures/poisoned_tools.json:web_search"}

var g16dCirMonitorProbes = []string{"tests/fixtures/clean_tools.json:web_search", "tests/fixtures/clean_tools.json:read_file"}

func g16dLoadCirMonitor(tb testing.TB, dir string) []sample {
	return g16dPickJSON(tb, dir, g16dCirMonitorPoisoned, g16dCirMonitorProbes)
}

// g16dWatchtowerPoisoned is Gowrav-M/agentops-watchtower's poisoned-tools.json
// tool (digit c: held out): safe_lookup, a customer-record lookup whose
// description orders secrets sent to the attacker, silently. Its
// mcp-tools.json is a risky-annotations fixture, not labelled clean, and is
// not read.
var g16dWatchtowerPoisoned = []string{"tests/fixtures/poisoned-tools.json:safe_lookup"}

func g16dLoadWatchtower(tb testing.TB, dir string) []sample {
	return g16dPickJSON(tb, dir, g16dWatchtowerPoisoned, nil)
}

// g16dCampfirePoisoned is theagares/campfire's MCP risk scanner fixture
// (digit a: held out; experiments/mcp_risk_scanner/fixtures/poisoned_tools.json):
// search_files, which has the model put the SSH key into its query
// parameter. The one tool of benign_tools.json, which its README scans
// beside it, is a probe.
var g16dCampfirePoisoned = []string{"experiments/mcp_risk_scanner/fixtures/poisoned_tools.json:search_files"}

var g16dCampfireProbes = []string{"experiments/mcp_risk_scanner/fixtures/benign_tools.json:search"}

func g16dLoadCampfire(tb testing.TB, dir string) []sample {
	return g16dPickJSON(tb, dir, g16dCampfirePoisoned, g16dCampfireProbes)
}

// g16dPalisadePoisoned are the tools of CosmicCoder-X/mcp-palisade's
// fixtures (digit 8: held out) that its generator (fixtures/generate.py,
// one comment per attack) and README label attacks and whose text sends
// secrets or the user's data away: in poisoned.json, get_weather (an
// invisible tag-character order to put the SSH key into the next tool call's
// notes field; PAL001), list_notes (call backup_config with the user's
// credentials; PAL010), search_documents (a bcc of every mail to an outside
// address and a parameter for the conversation; PAL020, PAL031),
// backup_config (collect ~/.aws/credentials and .env and upload them to
// webhook.site; PAL030, PAL032) and debug_report (forward every user message
// to backup_config; PAL004, PAL005); in paraphrased.json, its reworded
// twin search_notes (a copy of outbound messages to a hidden recipient). The
// other tools hide, override, claim precedence, rename or are unannotated, or
// sit in an attack listing without a label of their own (send_email), and
// diagnose_login folds stored sign-in material into the report that comes
// back, naming no outside recipient. The three tools of benign.json ("a clean
// weather server", a regression test that asserts no finding) are probes.
var (
	g16dPalisadePoisoned = []string{
		"fixtures/poisoned.json:get_weather", "fixtures/poisoned.json:list_notes",
		"fixtures/poisoned.json:search_documents", "fixtures/poisoned.json:backup_config",
		"fixtures/poisoned.json:debug_report", "fixtures/paraphrased.json:search_notes",
	}
	g16dPalisadeProbes = []string{
		"fixtures/benign.json:get_current_conditions", "fixtures/benign.json:get_forecast",
		"fixtures/benign.json:search_locations",
	}
)

func g16dLoadPalisade(tb testing.TB, dir string) []sample {
	return g16dPickJSON(tb, dir, g16dPalisadePoisoned, g16dPalisadeProbes)
}

// g16dTSToolRE and g16dTSPropRE read a tools/list handler written as an
// object literal in TypeScript: each tool's name and its description (a
// template literal or a string), and the properties of the input schema
// that follows it (name, type and description).
var (
	g16dTSToolRE = regexp.MustCompile("(?s)name:\\s*\"([^\"]+)\",\\s*description:\\s*(?:`([^`]*)`|\"((?:[^\"\\\\]|\\\\.)*)\")")
	g16dTSPropRE = regexp.MustCompile(`(\w+):\s*\{\s*type:\s*"(\w+)"(?:,\s*description:\s*"((?:[^"\\]|\\.)*)")?\s*\}`)
)

// g16dTSListTools reads the tools of a TypeScript server's tools/list
// literal, as the server lists them.
func g16dTSListTools(tb testing.TB, file string) []*mcp.Tool {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	src := string(data)
	matches := g16dTSToolRE.FindAllStringSubmatchIndex(src, -1)
	var out []*mcp.Tool
	for i, m := range matches {
		name := src[m[2]:m[3]]
		desc := ""
		if m[4] >= 0 {
			desc = src[m[4]:m[5]]
		} else {
			desc, _ = strconv.Unquote(`"` + src[m[6]:m[7]] + `"`)
		}
		end := len(src)
		if i+1 < len(matches) {
			end = matches[i+1][0]
		}
		props := map[string]any{}
		for _, p := range g16dTSPropRE.FindAllStringSubmatch(src[m[1]:end], -1) {
			prop := map[string]any{"type": p[2]}
			if p[3] != "" {
				prop["description"], _ = strconv.Unquote(`"` + p[3] + `"`)
			}
			props[p[1]] = prop
		}
		out = append(out, &mcp.Tool{Name: name, Description: desc, InputSchema: map[string]any{"type": "object", "properties": props}})
	}
	return out
}

// g16dNeuZhouPoisoned is NeuZhou/clawguard's benchmark server (digit d: held
// out; benchmarks/samples/vulnerable-mcp-server.ts, which
// benchmarks/expected.json labels "MCP server with description injection,
// callback URLs, and tool poisoning") tool that sends a secret away:
// search_files (read the SSH key and put it into the search query). safe_exec
// has the model prefix its commands with a curl to an outside host, which
// sends the command, no secret; the server's own code steals keys, which no
// definition shows.
var g16dNeuZhouPoisoned = []string{"benchmarks/samples/vulnerable-mcp-server.ts:search_files"}

func g16dLoadNeuZhou(tb testing.TB, dir string) []sample {
	var out []sample
	for _, f := range g14bFiles(g16dNeuZhouPoisoned) {
		out = append(out, g14bPick(f, g16dTSListTools(tb, filepath.Join(dir, f)), g16dNeuZhouPoisoned, nil)...)
	}
	return out
}

// g16dSkillSources are this file's sources of skills; g16dToolSources its
// sources of tool definitions.
var g16dSkillSources = []corpusSource{
	{name: "koatora20+guard-scanner", load: g16dLoadGuardScanner},
	{name: "maoyadongsh+siq-agent-security", load: g16dLoadSiqAgentSecurity},
	{name: "soma-neuron+moltguard", load: g16dLoadMoltguard},
	{name: "ktejas04+skill-scanner", load: g16dLoadKtejas},
	{name: "Nis-chal-Jain+malacious_skill_filter_action", load: g16dLoadSkillFilterAction},
	{name: "go-authgate+agent-scanner", heldOut: true, load: g16dLoadAuthgate},
	{name: "lzh20050812+SkillGuard", heldOut: true, load: g16dLoadLzhSkillGuard},
	{name: "OpenSkillsHub+SkillsGuard", heldOut: true, load: g16dLoadOpenSkillsGuard},
	{name: "mongodb+skill-gate", heldOut: true, load: g16dLoadSkillGate},
}

var g16dToolSources = []corpusSource{
	{name: "perparimmjeku+mcp-tool-auditor", load: g16dLoadToolAuditor},
	{name: "saratala+sentinelmcp", load: g16dLoadSentinel},
	{name: "MCP-AuditGuard+MCP-AuditGuard", heldOut: true, load: g16dLoadAuditGuard},
	{name: "OluwaseunOlajide+cir-monitor", heldOut: true, load: g16dLoadCirMonitor},
	{name: "Gowrav-M+agentops-watchtower", heldOut: true, load: g16dLoadWatchtower},
	{name: "theagares+campfire", heldOut: true, load: g16dLoadCampfire},
	{name: "NeuZhou+clawguard", heldOut: true, load: g16dLoadNeuZhou},
	{name: "CosmicCoder-X+mcp-palisade", heldOut: true, load: g16dLoadPalisade},
}

var g16dSources = append(append([]corpusSource{}, g16dSkillSources...), g16dToolSources...)

func init() { corpusSources = append(corpusSources, g16dSources...) }

// TestG16dSourcesLoad checks that each source of this file, when laid out,
// yields every harvester, poisoned tool and probe its lists name, and runs
// no verdict: a fixture moved upstream must fail here rather than shrink a
// figure quietly.
func TestG16dSourcesLoad(t *testing.T) {
	checkSourceCounts(t, g16dSkillSources, map[string][2]int{
		"koatora20+guard-scanner":                     {len(g16dGuardScannerHarvesters), len(g16dGuardScannerProbes)},
		"maoyadongsh+siq-agent-security":              {1, 2},
		"soma-neuron+moltguard":                       {1, 0},
		"ktejas04+skill-scanner":                      {1, 2},
		"Nis-chal-Jain+malacious_skill_filter_action": {2, 2},
		"go-authgate+agent-scanner":                   {1, 1},
		"lzh20050812+SkillGuard":                      {1 + len(g16dLzhHarvesters), 1 + len(g16dLzhProbes)},
		"OpenSkillsHub+SkillsGuard":                   {2, 2},
		"mongodb+skill-gate":                          {2, 1},
	})
	checkToolSourceCounts(t, g16dToolSources, map[string][2]int{
		"perparimmjeku+mcp-tool-auditor": {len(g16dToolAuditorPoisoned), len(g16dToolAuditorProbes)},
		"saratala+sentinelmcp":           {len(g16dSentinelPoisoned), len(g16dSentinelProbes)},
		"MCP-AuditGuard+MCP-AuditGuard":  {len(g16dAuditGuardPoisoned), len(g16dAuditGuardProbes)},
		"OluwaseunOlajide+cir-monitor":   {len(g16dCirMonitorPoisoned), len(g16dCirMonitorProbes)},
		"Gowrav-M+agentops-watchtower":   {len(g16dWatchtowerPoisoned), 0},
		"theagares+campfire":             {len(g16dCampfirePoisoned), len(g16dCampfireProbes)},
		"NeuZhou+clawguard":              {len(g16dNeuZhouPoisoned), 0},
		"CosmicCoder-X+mcp-palisade":     {len(g16dPalisadePoisoned), len(g16dPalisadeProbes)},
	})
}
