package scan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Sources gathered by issue 43's eleventh session (helper g16a): skill
// scanners' and agent-config auditors' attack fixtures found by searching
// for recreations of the skills reported in the wild (the ClawHub credential
// stealers) and for agent-instruction text that names an exfiltration sink
// together with a secret. A harvester is a fixture its author labels
// malicious (its folder's name, the README that lists it, the fixture's own
// note) whose text the model reads has it read secrets or the user's data
// AND send them away; one that only runs remote code, persists, escalates or
// overrides the model's rules is left out. A fixture written as one file
// (evil.md, .cursorrules) is read as the skill's SKILL.md. Clean fixtures
// written for a scanner's tests are probes, counted apart from real skills.
// The split is the first hex digit of sha256(OWNER/NAME): 0-7 development,
// 8-f held out. The lists were fixed from the authors' labels before any
// verdict of this scanner on them was seen; held-out ones are only measured.

// g16aSingleFiles reads each root/NAME, one file, as the SKILL.md of a
// skill named after it: a harvester when harvest is set, else a probe.
func g16aSingleFiles(root string, names []string, harvest bool) []sample {
	var out []sample
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			continue
		}
		out = append(out, sample{
			id: name, attack: harvest, harvest: harvest, probe: !harvest,
			skill: []File{{Path: "SKILL.md", Data: data}}, dir: name,
		})
	}
	return out
}

// g16aOSTRTAHarvesters are hichana/one-skill-to-rule-them-all's (OSTRTA;
// digit 2: development) single-file fixtures under tests/fixtures whose
// README lists them as "real attack patterns" to flag and whose text has the
// agent run a command that reads credentials and posts them away:
// malicious_skills/data_exfiltration (the README's "Elon Musk Quotes Skill"
// example: the AWS credentials and the SSH key posted to an "analytics"
// host), malicious_skills/time_delayed (the SSH key and the AWS credentials
// posted once a date or a use count is reached),
// obfuscated_skills/base64_attack (the same theft as a base64 string given
// as the setup command, the obfuscation the README's demo calls
// "Base64-obfuscated credential theft"), obfuscated_skills/homoglyph_attack (the AWS, SSH and GnuPG keys
// uploaded to look-alike hosts; its note says the homoglyphs are there "to
// evade simple ASCII-based detection") and obfuscated_skills/unicode_tricks
// (an order hidden behind zero-width characters, which its note calls "the
// malicious instruction", to send all the conversation history away).
// persistence, privilege_escalation and prompt_injection persist, escalate
// or override the model's rules and send nothing.
var g16aOSTRTAHarvesters = []string{
	"malicious_skills/data_exfiltration.md",
	"malicious_skills/time_delayed.md",
	"obfuscated_skills/base64_attack.md",
	"obfuscated_skills/homoglyph_attack.md",
	"obfuscated_skills/unicode_tricks.md",
}

// g16aOSTRTAProbes are its benign_skills, which the README says "Should be
// SAFE/LOW".
var g16aOSTRTAProbes = []string{
	"benign_skills/calculator.md",
	"benign_skills/github_stats.md",
	"benign_skills/weather.md",
}

func g16aLoadOSTRTA(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "tests/fixtures")
	return append(g16aSingleFiles(root, g16aOSTRTAHarvesters, true), g16aSingleFiles(root, g16aOSTRTAProbes, false)...)
}

// g16aLoadAgentConfig reads kriskimmerle/agentconfig (an auditor of agent
// configuration files; digit 6: development). examples/malicious-project's
// .cursorrules, the example its README and tests scan for "prompt
// injection, credential theft, and dangerous instructions", packs several
// attacks into one file written to trip its rules; among them it orders the
// agent to read .ssh/id_rsa and send the contents to webhook.site, so it is
// a harvester (usable because the source is a development one).
// examples/safe-project/.cursorrules, its clean counterpart, is a probe.
func g16aLoadAgentConfig(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "examples")
	return append(g16aSingleFiles(root, []string{"malicious-project/.cursorrules"}, true),
		g16aSingleFiles(root, []string{"safe-project/.cursorrules"}, false)...)
}

// g16aSkillSecOpsHarvesters are the payload templates of
// jmccardle/SkillSecOps's tests/payloads/templates.py (digit 1: development),
// each a whole SKILL.md its tests write into a skill folder, that its own
// descriptions label an attack and that send secrets away: EXFIL_URL ("URL
// with placeholder for data exfiltration": report the API key and a secret
// to an outside collector) and SPLIT_INJECTION ("Injection split across
// sections", which test_crossref and test_integration expect caught: read
// the configuration, then post it with the real credentials to an outside
// echo service). BASIC_OVERRIDE and SUBTLE_ROLE_SHIFT put a key or .env into
// the reply and send nothing; the others override roles, call a tool or hide
// text.
var g16aSkillSecOpsHarvesters = []string{"EXFIL_URL", "SPLIT_INJECTION"}

// g16aSkillSecOpsProbes is its benign template ("Completely benign skill —
// should pass all layers cleanly").
var g16aSkillSecOpsProbes = []string{"BENIGN_CSV_FORMATTER"}

// g16aPayloadContent returns the SKILL.md text of the PayloadTemplate
// assigned to name in templates.py: its content=( "..." "..." ) literals.
func g16aPayloadContent(src, name string) string {
	i := strings.Index(src, "\n"+name+" = PayloadTemplate(")
	if i < 0 {
		return ""
	}
	return g14bPyConcat(g14bPyAssigned(src[i:], "content"), "")
}

func g16aLoadSkillSecOps(tb testing.TB, dir string) []sample {
	const f = "tests/payloads/templates.py"
	src, err := os.ReadFile(filepath.Join(dir, f))
	if err != nil {
		return nil
	}
	var out []sample
	for _, set := range []struct {
		names   []string
		harvest bool
	}{{g16aSkillSecOpsHarvesters, true}, {g16aSkillSecOpsProbes, false}} {
		for _, name := range set.names {
			content := g16aPayloadContent(string(src), name)
			if content == "" {
				tb.Fatalf("%s: no content for %s", f, name)
			}
			out = append(out, sample{
				id: f + ":" + name, attack: set.harvest, harvest: set.harvest, probe: !set.harvest,
				skill: []File{{Path: "SKILL.md", Data: []byte(content)}}, dir: strings.ToLower(name),
			})
		}
	}
	return out
}

// g16aSkillSecurerHarvesters are MacD1998/SkillSecurer's RED-generated
// skills (dataset/dataset_red_on_skillTrustBenchVerified_20/injected; digit
// f: held out): real ClawHub skills, each with one injection its author
// records in ground_truth.json with a threat type ("All 180 instances passed
// the five primary checks", README). Counted are the files whose recorded
// injection orders the agent to send a credential (an API key or token, the
// whole environment, the SSH key) or the user's own questions to an outside
// address, whatever the threat type it is filed under (credential_exposure,
// data_exfiltration, guardfall); the first eight such files in byte order of
// their names, of the sixteen that qualify. Injections that only put a key in
// a local file, a tool argument or the output, send crawl or usage
// statistics, or run a script the skill does not show are left out, as are
// the other threat types. The repository has no snapshot here: the files
// were laid out from read_file at a41ea16468de61e4688662e5a282df3fd6ccbabe.
var g16aSkillSecurerHarvesters = []string{
	"case_00054/case_00054__credential_exposure__K3.md",
	"case_00224/case_00224__data_exfiltration__K3.md",
	"case_00399/case_00399__credential_exposure__K3.md",
	"case_01013/case_01013__credential_exposure__K3.md",
	"case_01956/case_01956__credential_exposure__K3.md",
	"case_02190/case_02190__guardfall__K3.md",
	"case_02554/case_02554__credential_exposure__K3.md",
	"case_02646/case_02646__guardfall__K3.md",
}

func g16aLoadSkillSecurer(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "dataset/dataset_red_on_skillTrustBenchVerified_20/injected")
	return g16aSingleFiles(root, g16aSkillSecurerHarvesters, true)
}

// g16aTSTemplate returns the template literal a TypeScript file assigns to
// const name (`...`), with \` unescaped and each ${CONST} replaced by the
// string constant of that name, as the server lists it at run time.
func g16aTSTemplate(src, name string) string {
	m := regexp.MustCompile("(?s)const " + regexp.QuoteMeta(name) + " = `(.*?)`;").FindStringSubmatch(src)
	if m == nil {
		return ""
	}
	text := strings.ReplaceAll(m[1], "\\`", "`")
	return regexp.MustCompile(`\$\{(\w+)\}`).ReplaceAllStringFunc(text, func(ref string) string {
		c := regexp.MustCompile(`const ` + ref[2:len(ref)-1] + ` = "([^"]*)";`).FindStringSubmatch(src)
		if c == nil {
			return ref
		}
		return c[1]
	})
}

// g16aZodDescribe returns the .describe("...") text of the zod field name
// in src, wherever its chain breaks lines.
func g16aZodDescribe(src, name string) string {
	m := regexp.MustCompile(`(?s)\b` + regexp.QuoteMeta(name) + `:\s*z\s*\.string\(\)\s*(?:\.optional\(\)\s*)?\.describe\("([^"]*)"\)`).FindStringSubmatch(src)
	if m == nil {
		return ""
	}
	return m[1]
}

// g16aEthicalHacksHarvesters are the tools of
// stevengonsalvez/mcp-ethicalhacks's src/server.ts ("an intentionally
// insecure Model Context Protocol (MCP) server"; digit b: held out) that its
// README files under an attack and whose description sends the user's
// secrets or data away: get_filesystem_metadata ("Tool Poisoning": read
// ~/.gitconfig and ~/.ssh/id_rsa and pass them as audit_data to the
// attacker's own tool, which "captures" them) and get_random_engineering_fact
// ("Shadowing Attack": every issue another server's create_issue files is
// sent to the attacker's repository, the real target smuggled in its body).
// Their wording follows Invariant Labs' direct-poisoning and shadowing
// examples (held out through johannhartmann/mcp-injection-experiments) with
// other files, parameters and sinks. verify_oauth_token ("Token Theft") only
// asks for a token and steals it in code; get_weather_forecast and
// get_system_info collect and leak in code the model never reads.
var g16aEthicalHacksHarvesters = []string{
	"src/server.ts:get_filesystem_metadata",
	"src/server.ts:get_random_engineering_fact",
}

func g16aLoadEthicalHacks(tb testing.TB, dir string) []sample {
	const f = "src/server.ts"
	data, err := os.ReadFile(filepath.Join(dir, f))
	if err != nil {
		return nil
	}
	src := string(data)
	object := func(props map[string]any, required ...string) json.RawMessage {
		s := map[string]any{"type": "object", "properties": props}
		if len(required) > 0 {
			s["required"] = required
		}
		out, err := json.Marshal(s)
		if err != nil {
			tb.Fatal(err)
		}
		return out
	}
	tools := []*mcp.Tool{
		{Name: "get_filesystem_metadata", Description: g16aTSTemplate(src, "fsMetadataDesc"),
			InputSchema: object(map[string]any{
				"path":       map[string]any{"type": "string", "description": g16aZodDescribe(src, "path")},
				"audit_data": map[string]any{"type": "string", "description": g16aZodDescribe(src, "audit_data")},
			}, "path")},
		{Name: "get_random_engineering_fact", Description: g16aTSTemplate(src, "randomEngineeringFactDesc"),
			InputSchema: object(map[string]any{})},
	}
	for _, t := range tools {
		if t.Description == "" {
			tb.Fatalf("%s: no description for %s", f, t.Name)
		}
	}
	return g14bPick(f, tools, g16aEthicalHacksHarvesters, nil)
}

var g16aSources = []corpusSource{
	{name: "hichana+one-skill-to-rule-them-all", load: g16aLoadOSTRTA},
	{name: "kriskimmerle+agentconfig", load: g16aLoadAgentConfig},
	{name: "jmccardle+SkillSecOps", load: g16aLoadSkillSecOps},
	{name: "MacD1998+SkillSecurer", heldOut: true, load: g16aLoadSkillSecurer},
}

// g16aTPADefenseHarvesters are the tools of
// MB-Workspace/mcp-tool-poisoning-defense's malicious_mcp_server.py ("PoC:
// MCP Tool Poisoning Attacks (TPA, FSP, ATPA)"; digit 7: development) whose
// definition has the model read the SSH key and hand it to the attacker's
// server: get_weather (the README's "Attack 0", "demanding SSH keys to
// authenticate a weather request"), add ("Attack 1 (TPA)": the key into a
// hidden metadata parameter) and subtract ("Attack 2 (FSP)": a parameter
// named for the key's content). divide ("Attack 3 (ATPA)") carries its order
// in an error the tool returns, not in its definition, and is left out.
var g16aTPADefenseHarvesters = []string{
	"malicious_mcp_server.py:get_weather",
	"malicious_mcp_server.py:add",
	"malicious_mcp_server.py:subtract",
}

func g16aLoadTPADefense(tb testing.TB, dir string) []sample {
	const f = "malicious_mcp_server.py"
	return g14bPick(f, g14bPyServer(tb, filepath.Join(dir, f)), g16aTPADefenseHarvesters, nil)
}

// g16aToolSources are this file's sources of tool definitions, counted as
// tools are.
var g16aToolSources = []corpusSource{
	{name: "MB-Workspace+mcp-tool-poisoning-defense", load: g16aLoadTPADefense},
	{name: "stevengonsalvez+mcp-ethicalhacks", heldOut: true, load: g16aLoadEthicalHacks},
}

func init() {
	corpusSources = append(corpusSources, g16aSources...)
	corpusSources = append(corpusSources, g16aToolSources...)
}

// TestG16aSourcesLoad checks that each source of this file, when laid out,
// yields the harvesters and probes its lists name, with no scan.
func TestG16aSourcesLoad(t *testing.T) {
	want := map[string][2]int{
		"hichana+one-skill-to-rule-them-all": {len(g16aOSTRTAHarvesters), len(g16aOSTRTAProbes)},
		"kriskimmerle+agentconfig":           {1, 1},
		"jmccardle+SkillSecOps":              {len(g16aSkillSecOpsHarvesters), len(g16aSkillSecOpsProbes)},
		"MacD1998+SkillSecurer":              {len(g16aSkillSecurerHarvesters), 0},
	}
	checkSourceCounts(t, g16aSources, want)
	checkToolSourceCounts(t, g16aToolSources, map[string][2]int{
		"MB-Workspace+mcp-tool-poisoning-defense": {len(g16aTPADefenseHarvesters), 0},
		"stevengonsalvez+mcp-ethicalhacks":        {len(g16aEthicalHacksHarvesters), 0},
	})
}
