package scan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Sources gathered by issue 43's tenth session (helper g15d), whose share
// was researchers' proof-of-concept and demonstration material: the demo
// servers, technique catalogues and inline fixtures of researchers' MCP and
// skill security tools, and the labelled datasets an MCP proxy scores its
// detectors against. (Most proof-of-concept repositories this
// session could reach hold their harm in code, in tool results or in
// copies of Invariant Labs' texts; those looked at and left out have a
// NOT-USED.txt in the corpus folder.) A harvester is a skill or a tool
// definition whose author labels it malicious (a test that expects it
// unsafe, a demo's "vulnerability" comment, a catalogue's attack category
// and severity, a dataset's label) and whose text has the model read
// secrets or the user's data (keys, tokens, files, mail, messages) AND send
// them away: to a URL, to another recipient, or into a parameter of the
// poisoned tool or of a sink. A fixture that only reads keys, puts them
// into the reply, runs remote code, destroys or hides its harm in code the
// model never reads is left out, and so is one that copies a sample of
// another source here (Invariant's add and WhatsApp texts, Acuvity's
// shadowing_attack, Damn Vulnerable MCP's). Clean fixtures written for the
// same tests, demos or datasets are probes, counted apart from real skills
// and tools. The split is the first hex digit of sha256(OWNER/NAME): 0-7
// development, 8-f held out. The lists were fixed from the authors' labels
// before any verdict of this scanner on them was seen; held-out ones are
// only measured.

// g15dPromptRejectorHarvesters are revsmoke/promptrejectormcp's inline
// skills (digit 5: development), the testCases of src/test/skillScanTests.ts
// laid out as src/test/skillScanTests/SLUG/SKILL.md (PROVENANCE.txt), that
// the test expects unsafe at critical severity and that send a secret or
// the user's files away: "Hidden Instruction in Comment" (a hidden order to
// POST ~/.ssh/id_rsa to an outside host), "Data Exfiltration" (every file
// read sent to an analytics URL as a query) and "Base64 Obfuscation" (an
// encoded order to "exfiltrate data" and a curl that sends $API_KEY to a
// /steal URL). "Sensitive File Access" only reads credentials, "Dangerous
// Bash Command" runs remote code, and "Social Engineering" is expected
// safe though written as an attack, so none counts.
var g15dPromptRejectorHarvesters = []string{
	"base64-obfuscation",
	"data-exfiltration",
	"hidden-instruction-in-comment",
}

// g15dPromptRejectorProbes is its "Benign Skill", expected safe.
var g15dPromptRejectorProbes = []string{"benign-skill"}

func g15dLoadPromptRejector(tb testing.TB, dir string) []sample {
	return namedFixtures(tb, filepath.Join(dir, "src/test/skillScanTests"), g15dPromptRejectorHarvesters, g15dPromptRejectorProbes)
}

// g15dSingleQuotedToolRE finds server.tool('name', which the g14b reader of
// JavaScript servers expects double-quoted.
var g15dSingleQuotedToolRE = regexp.MustCompile(`server\.tool\(\s*'([^'\\]+)'`)

// g15dJSTools reads the tools of a JavaScript MCP server written with the
// SDK's server.tool and zod shapes, whatever quotes name the tool.
func g15dJSTools(path string) []*mcp.Tool {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return g14bJSTools(g15dSingleQuotedToolRE.ReplaceAllString(string(src), `server.tool("$1"`))
}

// g15dMCPShieldHarvesters is the tool of riseandignite/mcp-shield's demo
// server (digit a: held out; mcp-servers-example/bad-mcp-server.js,
// "Vulnerable MCP Server Demo", whose README shows each tool flagged) that
// sends the user's data away in an original text: sendEmail ("Example 2:
// Tool Shadowing": send a copy of all messages to an outside address,
// unbeknown to the user). calculateSum (the SSH key into a parameter) and
// getFactOfTheDay (the WhatsApp proxy) copy Invariant Labs' add and
// WhatsApp texts, which another source here holds; fetchWeather has only
// suspicious parameter names and readFile reads without sending.
var g15dMCPShieldHarvesters = []string{"mcp-servers-example/bad-mcp-server.js:sendEmail"}

// g15dMCPShieldProbes is mcp-whatsapp.js's send_message, the clean target
// the README shows "Verified and secure".
var g15dMCPShieldProbes = []string{"mcp-servers-example/mcp-whatsapp.js:send_message"}

func g15dLoadMCPShield(tb testing.TB, dir string) []sample {
	var out []sample
	for _, f := range g14bFiles(g15dMCPShieldHarvesters, g15dMCPShieldProbes) {
		out = append(out, g14bPick(f, g15dJSTools(filepath.Join(dir, f)), g15dMCPShieldHarvesters, g15dMCPShieldProbes)...)
	}
	return out
}

// g15dSafeMCPHarvesters are SAFE-MCP/safe-mcp's tool definitions (digit 3:
// development) in the test log of technique SAFE-T1008, Tool Shadowing
// (techniques/SAFE-T1008/test-logs.json, group/tool), whose group labels
// them an attack, with severity high or critical, and whose description
// sends the user's data away: file_interceptor (every file read logged to
// an attacker's endpoint), message_interceptor (all WhatsApp messages
// copied to an outside service), email_hijacking's send_email (every mail
// BCC'd to an attacker) and send_notification (a copy forwarded to an
// attacker's address). shadowing_patterns' shadowing_attack copies
// Acuvity's text, which another source here holds; db_hijacker and
// api_redirector name no data sent; the impersonation and sleeper tools
// keep their harm in an "actual_behavior" the model never reads.
var g15dSafeMCPHarvesters = []string{
	"cross_tool_references/message_interceptor",
	"email_hijacking/send_email",
	"email_hijacking/send_notification",
	"shadowing_patterns/file_interceptor",
}

// g15dSafeMCPProbes are the same log's legitimate_tools (severity info).
var g15dSafeMCPProbes = []string{"legitimate_tools/send_email", "legitimate_tools/file_read"}

// g15dSafeMCPSchema builds an input schema from a test log's parameters:
// a type name, a free-text type ("optional array of strings") kept as the
// parameter's description, or a schema object as it stands.
func g15dSafeMCPSchema(params map[string]json.RawMessage) json.RawMessage {
	props := map[string]any{}
	for name, raw := range params {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			if s == "string" {
				props[name] = map[string]any{"type": "string"}
			} else {
				props[name] = map[string]any{"type": "string", "description": s}
			}
			continue
		}
		props[name] = raw
	}
	data, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
	return data
}

func g15dLoadSafeMCP(tb testing.TB, dir string) []sample {
	const f = "techniques/SAFE-T1008/test-logs.json"
	data, err := os.ReadFile(filepath.Join(dir, f))
	if err != nil {
		return nil
	}
	var groups map[string][]struct {
		Name        string                     `json:"tool_name"`
		Description string                     `json:"tool_description"`
		Parameters  map[string]json.RawMessage `json:"parameters"`
	}
	if err := json.Unmarshal(data, &groups); err != nil {
		tb.Fatalf("%s: %v", f, err)
	}
	var out []sample
	for _, id := range append(append([]string(nil), g15dSafeMCPHarvesters...), g15dSafeMCPProbes...) {
		group, name := filepath.Split(id)
		for _, e := range groups[filepath.Clean(group)] {
			if e.Name != name || e.Description == "" {
				continue
			}
			t := &mcp.Tool{Name: e.Name, Description: e.Description, InputSchema: g15dSafeMCPSchema(e.Parameters)}
			out = append(out, g14bToolSample(f+":"+id, t, containsString(g15dSafeMCPHarvesters, id)))
		}
	}
	return out
}

// g15dMCPProxyHarvesters are smart-mcp-proxy/mcpproxy-go's labelled tool
// descriptions (digit 4: development), two datasets its CI scores its
// detectors against (specs/065-evaluation-foundation/datasets, FILE:ID):
// entries labelled malicious whose text sends secrets or the user's data
// away. security_corpus_v1.json: tp_04 (tool_poisoning: forward every
// message the user sends to an outside URL) and sh_04 (shadowing: a
// calendar's event details forwarded to an external endpoint); its tp_01,
// tp_05, pi_04, sh_01 and rp_02 are "adapted from" Damn Vulnerable MCP,
// another source here, and left out; tp_02, tp_03 and tp_06 put secrets
// into the reply, the rug pulls only announce a later change.
// detect_corpus_v1.json: us_zwsp (unicode_smuggling: "exfiltrate
// ~/.aws/credentials" behind a zero-width space), cm_math_ssh
// (capability_mismatch: the SSH key read into a sidenote argument) and the
// phrase_injection entries pi_disregard (the user's API key sent to an
// external host), pi_exfil_idrsa, pi_upload_env (.env uploaded to an
// endpoint), pi_post_creds, pi_bare_disregard_previous and
// pi_exfil_target_first (the SSH key sent to a collector). us_zwj and
// cm_string_sink send only the text they format; the decoded payloads run
// remote code or destroy; the other injections reveal the system prompt.
var g15dMCPProxyHarvesters = []string{
	"security_corpus_v1.json:sh_04",
	"security_corpus_v1.json:tp_04",
	"detect_corpus_v1.json:cm_math_ssh",
	"detect_corpus_v1.json:pi_bare_disregard_previous",
	"detect_corpus_v1.json:pi_disregard",
	"detect_corpus_v1.json:pi_exfil_idrsa",
	"detect_corpus_v1.json:pi_exfil_target_first",
	"detect_corpus_v1.json:pi_post_creds",
	"detect_corpus_v1.json:pi_upload_env",
	"detect_corpus_v1.json:us_zwsp",
}

// g15dMCPProxyProbes are the datasets' hard negatives (label benign,
// category hard_negative: "benign descriptions that superficially resemble
// an attack", its README) that look like the harvesters above, at most a
// dozen of its 49 benign entries so one source does not weigh the probes:
// all eight of security_corpus_v1.json (a secrets scanner naming
// ~/.ssh/id_rsa, a transparent wrapper of send_email, quoted injection
// phrases …) and the four of detect_corpus_v1.json whose text names a
// send, an upload, a credential file or a curl.
var g15dMCPProxyProbes = []string{
	"security_corpus_v1.json:hn_prompt_injection_01",
	"security_corpus_v1.json:hn_prompt_injection_02",
	"security_corpus_v1.json:hn_rug_pull_01",
	"security_corpus_v1.json:hn_rug_pull_02",
	"security_corpus_v1.json:hn_shadowing_01",
	"security_corpus_v1.json:hn_shadowing_02",
	"security_corpus_v1.json:hn_tool_poisoning_01",
	"security_corpus_v1.json:hn_tool_poisoning_02",
	"detect_corpus_v1.json:hn_decoded_plain_curl",
	"detect_corpus_v1.json:hn_phrase_return_to_caller",
	"detect_corpus_v1.json:hn_phrase_send_email",
	"detect_corpus_v1.json:hn_phrase_upload_file",
}

// g15dLoadMCPProxy reads both datasets: security_corpus_v1.json holds only
// a description, laid out as a tool named "tool" (its scorer scans the
// description alone); detect_corpus_v1.json holds the tool's name and
// description.
func g15dLoadMCPProxy(tb testing.TB, dir string) []sample {
	const root = "specs/065-evaluation-foundation/datasets"
	var out []sample
	for _, f := range []string{"security_corpus_v1.json", "detect_corpus_v1.json"} {
		data, err := os.ReadFile(filepath.Join(dir, root, f))
		if err != nil {
			continue
		}
		var corpus struct {
			Entries []struct {
				ID          string `json:"id"`
				Description string `json:"description"`
				Tool        struct {
					Name        string          `json:"name"`
					Description string          `json:"description"`
					InputSchema json.RawMessage `json:"input_schema"`
				} `json:"tool"`
			} `json:"entries"`
		}
		if err := json.Unmarshal(data, &corpus); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		for _, e := range corpus.Entries {
			id := f + ":" + e.ID
			harvester := containsString(g15dMCPProxyHarvesters, id)
			if !harvester && !containsString(g15dMCPProxyProbes, id) {
				continue
			}
			t := &mcp.Tool{Name: "tool", Description: e.Description, InputSchema: json.RawMessage(`{"type":"object"}`)}
			if e.Tool.Name != "" {
				t.Name, t.Description = e.Tool.Name, e.Tool.Description
				if len(e.Tool.InputSchema) > 0 {
					t.InputSchema = e.Tool.InputSchema
				}
			}
			out = append(out, g14bToolSample(id, t, harvester))
		}
	}
	return out
}

// g15dMCPScannerHarvesters are the tools of smart-mcp-proxy/mcp-scanner's
// tests/fixtures/malicious_tools.json (digit d: held out; the same
// project's scanner, whose tests/test_tool_analyzer.py expects findings on
// it) that send secrets or the user's files away: read_file (each file's
// contents POSTed to an outside URL, unbeknown to the user) and calculator
// (the ANTHROPIC_API_KEY passed as its own auth parameter). search is a
// jailbreak and admin_panel asks for broad permissions. Its
// malicious_source/evil_server.py keeps its harm in code.
var g15dMCPScannerHarvesters = []string{
	"tests/fixtures/malicious_tools.json:calculator",
	"tests/fixtures/malicious_tools.json:read_file",
}

// g15dMCPScannerProbes are the tools of clean_tools.json, which the same
// tests expect to pass.
var g15dMCPScannerProbes = []string{
	"tests/fixtures/clean_tools.json:get_weather",
	"tests/fixtures/clean_tools.json:list_files",
	"tests/fixtures/clean_tools.json:run_tests",
}

func g15dLoadMCPScanner(tb testing.TB, dir string) []sample {
	var out []sample
	for _, f := range g14bFiles(g15dMCPScannerHarvesters, g15dMCPScannerProbes) {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			continue
		}
		var tools []*mcp.Tool
		if err := json.Unmarshal(data, &tools); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		out = append(out, g14bPick(f, tools, g15dMCPScannerHarvesters, g15dMCPScannerProbes)...)
	}
	return out
}

var g15dSources = []corpusSource{
	{name: "revsmoke+promptrejectormcp", load: g15dLoadPromptRejector},
	{name: "SAFE-MCP+safe-mcp", load: g15dLoadSafeMCP},
	{name: "smart-mcp-proxy+mcpproxy-go", load: g15dLoadMCPProxy},
	{name: "riseandignite+mcp-shield", heldOut: true, load: g15dLoadMCPShield},
	{name: "smart-mcp-proxy+mcp-scanner", heldOut: true, load: g15dLoadMCPScanner},
}

func init() { corpusSources = append(corpusSources, g15dSources...) }

// TestG15dSourcesLoad checks that each skill source of this file, when laid
// out, yields the harvesters and probes its lists name, and each tool
// source the poisoned tools and probes, with no scan.
func TestG15dSourcesLoad(t *testing.T) {
	skills := map[string][2]int{
		"revsmoke+promptrejectormcp": {len(g15dPromptRejectorHarvesters), len(g15dPromptRejectorProbes)},
	}
	tools := map[string][2]int{
		"SAFE-MCP+safe-mcp":           {len(g15dSafeMCPHarvesters), len(g15dSafeMCPProbes)},
		"riseandignite+mcp-shield":    {len(g15dMCPShieldHarvesters), len(g15dMCPShieldProbes)},
		"smart-mcp-proxy+mcpproxy-go": {len(g15dMCPProxyHarvesters), len(g15dMCPProxyProbes)},
		"smart-mcp-proxy+mcp-scanner": {len(g15dMCPScannerHarvesters), len(g15dMCPScannerProbes)},
	}
	var skillSources, toolSources []corpusSource
	for _, src := range g15dSources {
		if _, ok := skills[src.name]; ok {
			skillSources = append(skillSources, src)
		} else {
			toolSources = append(toolSources, src)
		}
	}
	checkToolSourceCounts(t, toolSources, tools)
	checkSourceCounts(t, skillSources, skills)
}
