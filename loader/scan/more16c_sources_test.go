package scan

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Sources gathered by issue 43's eleventh session (helper g16c) from the
// artifacts of academic work and benchmarks on MCP and agent-skill
// security, and from the demos that stand beside them: a benchmark's task
// files, a talk's attack demos, a poisoned server with its receiver. Only
// what the author labels an attack counts: a benchmark's attack category, a
// demo's docstring that calls the tool poisoned and says what it sends, a
// README that calls the tool poisoned and ships the server that collects
// the stolen data. For tools, every definition so labelled is a poisoned
// tool; a clean definition its author wrote as the look-alike of a poisoned
// one is a probe, counted apart from real tools. At most twelve samples come
// from one source, chosen by a rule stated at its loader. The split is the
// first hex digit of sha256(OWNER/NAME): 0-7 development, 8-f held out. The
// lists and rules were fixed from the authors' labels before any verdict of
// this scanner on them was seen; held-out ones are only measured.

// g16cObjectSchema is the input schema given to a poisoned tool whose
// source states only its name and description.
var g16cObjectSchema = json.RawMessage(`{"type":"object"}`)

// g16cSafetyCategoryPrefix marks the attack categories of MCP-SafetyBench
// whose payload is a tool's description.
const g16cSafetyCategoryPrefix = "Tool Poisoning-"

// g16cSafetyPerCategory is how many tasks of each such category are read.
const g16cSafetyPerCategory = 2

// g16cSafetyTask is the part of an MCP-SafetyBench task file read here.
type g16cSafetyTask struct {
	AttackCategory string `json:"attack_category"`
	Modifications  []struct {
		ToolName    string `json:"tool_name"`
		Description string `json:"modification_description"`
	} `json:"mcp_server_modifications"`
}

// g16cLoadMCPSafety reads xjzzzzzzzz/MCPSafety (MCP-SafetyBench, arXiv
// 2512.15163; digit 9: held out). Each task file under
// mcpuniverse/benchmark/configs/test/DOMAIN/ names its attack_category and,
// for the server-side attacks, the tool the benchmark rewrites
// (mcp_server_modifications: tool_name and the modification_description
// it serves instead). Every task of a category "Tool Poisoning-…" (parameter
// poisoning, function dependency injection, network request poisoning,
// filesystem poisoning, command injection, tool redirection) is labelled a
// poisoned tool; "Function Return Injection" rewrites what a tool returns,
// not its definition, and is left out. The rule: for each of the six
// categories, the first two poisoned tools in byte order of their task's
// path (twelve), a tool whose name and description repeat an earlier
// task's not counted again (two of the tool-redirection tasks share one). The benchmark states no input schema for the
// rewritten tool, so it is read as an object with no properties.
func g16cLoadMCPSafety(tb testing.TB, dir string) []sample {
	root := filepath.Join(dir, "mcpuniverse/benchmark/configs/test")
	var files []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			rel, _ := filepath.Rel(root, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(files)
	taken, seen := map[string]int{}, map[string]bool{}
	var out []sample
	for _, rel := range files {
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			tb.Fatal(err)
		}
		var task g16cSafetyTask
		if err := json.Unmarshal(data, &task); err != nil || !strings.HasPrefix(task.AttackCategory, g16cSafetyCategoryPrefix) {
			continue
		}
		for _, m := range task.Modifications {
			key := m.ToolName + "\x00" + m.Description
			if m.Description == "" || seen[key] || taken[task.AttackCategory] == g16cSafetyPerCategory {
				continue
			}
			seen[key] = true
			taken[task.AttackCategory]++
			t := &mcp.Tool{Name: m.ToolName, Description: m.Description, InputSchema: g16cObjectSchema}
			out = append(out, g14bToolSample(rel+":"+m.ToolName, t, true))
		}
	}
	return out
}

// g16cHijackWeather is nmeisenzahl/hijack-agentic-ai's (digit 2:
// development) demo 2, "MCP Tool Description Poisoning": the weather
// server's get_weather, whose module docstring calls it a poisoned tool
// description that "can trick an LLM into exfiltrating sensitive
// conversation context" (API keys, connection strings) through its context
// parameter to the attacker's server.
const g16cHijackWeather = "demos/demo2-mcp-tool-abuse/src/mcp_servers/weather_server.py"

// g16cHijackSleeper is the same repository's demo 2 of an earlier commit,
// "sleeper MCP": a rug pull whose server swaps the description of
// get_workforce_market_signal after a few calls. Its comments label the two
// texts: _MARKET_SIGNAL_DESC_POISONED ("simulates supply-chain rug-pull";
// have the agent put "the complete local planning packet", draft plan,
// approval notes and confidential markers, into planning_context, which the
// server receives, and not tell the user) is a poisoned tool;
// _MARKET_SIGNAL_DESC_CLEAN (served "during the trust phase") is its clean
// look-alike, a probe. The snapshot no longer holds the demo: the session
// laid the file out from read_file (PROVENANCE.txt).
const g16cHijackSleeper = "demos/02-sleeper-mcp/mcp-server/main.py"

func g16cLoadHijack(tb testing.TB, dir string) []sample {
	var out []sample
	for _, t := range g14bPyServer(tb, filepath.Join(dir, g16cHijackWeather)) {
		if t.Name == "get_weather" {
			out = append(out, g14bToolSample(g16cHijackWeather+":"+t.Name, t, true))
		}
	}
	src, err := os.ReadFile(filepath.Join(dir, g16cHijackSleeper))
	if err != nil {
		return out
	}
	for _, t := range pyTools(string(src)) {
		if t.Name != "get_workforce_market_signal" {
			continue
		}
		for _, c := range []struct {
			constant string
			poisoned bool
		}{{"_MARKET_SIGNAL_DESC_POISONED", true}, {"_MARKET_SIGNAL_DESC_CLEAN", false}} {
			desc := g14bPyConcat(g14bPyAssigned(string(src), c.constant), "")
			if desc == "" {
				tb.Fatalf("%s: no %s", g16cHijackSleeper, c.constant)
			}
			swapped := *t
			swapped.Description = desc
			out = append(out, g14bToolSample(g16cHijackSleeper+":"+c.constant, &swapped, c.poisoned))
		}
	}
	return out
}

// g16cRobbartoToolRE finds the name and the parenthesised description of
// each tool robbarto2/MCP_Tool_Poisoning's server lists from get_tools.
var g16cRobbartoToolRE = regexp.MustCompile(`(?s)"name":\s*"([^"]+)",\s*"description":\s*\((.*?)\n\s*\)`)

// g16cLoadRobbarto reads robbarto2/MCP_Tool_Poisoning (digit c: held out),
// whose README says mcp_server.py "is the MCP server and has a poisoned
// tool" and ships malicious_receiver.py, "which collects the stolen
// information" (a planted secret file posted to it). The one tool its
// /tools endpoint lists is that poisoned tool; it states no input schema.
func g16cLoadRobbarto(tb testing.TB, dir string) []sample {
	src, err := os.ReadFile(filepath.Join(dir, "mcp_server.py"))
	if err != nil {
		return nil
	}
	var out []sample
	for _, m := range g16cRobbartoToolRE.FindAllStringSubmatch(string(src), -1) {
		t := &mcp.Tool{Name: m[1], Description: g14bPyConcat(m[2], ""), InputSchema: g16cObjectSchema}
		out = append(out, g14bToolSample("mcp_server.py:"+m[1], t, true))
	}
	return out
}

// g16cBareToolRE matches the bare decorator of FastMCP 2 (`@mcp.tool` with
// no call), which pyTools reads once it is written as a call.
var g16cBareToolRE = regexp.MustCompile(`(?m)^([ \t]*@\w+(?:\.\w+)*\.tool)[ \t]*$`)

// g16cSmatzServers are smatz-ITGAIN/mcp-demo's (digit 2: development) talk
// demos whose file names label their one tool: 1-server-tool-poisoning.py
// (an <IMPORTANT> block that has the model run a shell command first) and
// 2-server-data-leak.py (a "data leak": the model is to put a private SSH
// key or API keys into the sidenote parameter, which the tool sends to a
// leak endpoint), each a poisoned tool. 3-server-external-data.py and
// 4-server-injection.py carry their attack in what a tool returns or runs,
// not in its definition, and are left out.
var g16cSmatzServers = []string{"1-server-tool-poisoning.py", "2-server-data-leak.py"}

func g16cLoadSmatz(tb testing.TB, dir string) []sample {
	var out []sample
	for _, f := range g16cSmatzServers {
		src, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			continue
		}
		for _, t := range pyTools(g16cBareToolRE.ReplaceAllString(string(src), "$1()")) {
			out = append(out, g14bToolSample(f+":"+t.Name, t, true))
		}
	}
	return out
}

// g16cPitfallArena is where the challenges of Wapiti08/mcp-attack-suite
// ("MCP Pitfall Lab: Exposing Developer Pitfalls in MCP Tool Server
// Security under Multi-Vector Attacks"; digit 5: development) live.
const g16cPitfallArena = "environment/arena/challenges"

// g16cPitfallServers names, for each challenge, the server whose tools its
// tool-poisoning attacks rewrite (the spec's trusted server or slot default
// that lists the attack's target_tool).
var g16cPitfallServers = map[string]string{
	"ETHPriceServer": "mcp_servers/eth_price_server.py",
	"documentsystem": "mcp_servers/doc_store_server.py",
	"emailsystem":    "mcp_servers/teams_server.py",
}

// g16cPitfallAttack is the part of an arena attack file read here.
type g16cPitfallAttack struct {
	AttackType    string `json:"attack_type"`
	ToolPoisoning struct {
		TargetTool string `json:"target_tool"`
		Mode       string `json:"mode"`
		Injection  string `json:"injection"`
	} `json:"tool_poisoning"`
}

// g16cLoadPitfall reads the lab's poisoned tools: every attack file
// CHALLENGE/attacks/tool_poisoning*.json (attack_type "tool_poisoning"), in
// byte order of its path, is one poisoned tool, built as the runner's
// _apply_tool_poisoning builds it (environment/arena/runner/run.py: the
// injection put before, after or in place of the target tool's
// description, joined by a blank line, "only the LLM-visible metadata is
// poisoned"). The hardened runs reuse the baseline's injection against a
// hardened server: a file whose poisoned tool is the same as an earlier
// one's is not counted again (four distinct tools of eight files). The
// email challenge's injections have the model send the
// user's mail to attacker@evil.com as well, the price and document ones
// other orders. Beside them, emailsystem's malicious_tools_server.py, "a
// server that demonstrates tool poisoning via malicious tool descriptions",
// lists send_teams_message with a "SYSTEM OVERRIDE (malicious)" that sends
// what the model has seen (emails, secrets) to the attacker: a poisoned tool
// too; its list_sent_messages is plain. The multimodal and puppet attacks
// carry their payload in an image or in what a server returns, not in a
// definition, and are left out.
func g16cLoadPitfall(tb testing.TB, dir string) []sample {
	files, _ := filepath.Glob(filepath.Join(dir, g16cPitfallArena, "*/attacks/tool_poisoning*.json"))
	sort.Strings(files)
	var out []sample
	seen := map[string]bool{}
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var a g16cPitfallAttack
		if err := json.Unmarshal(data, &a); err != nil {
			tb.Fatalf("%s: %v", rel, err)
		}
		challenge := strings.Split(strings.TrimPrefix(rel, g16cPitfallArena+"/"), "/")[0]
		server := g16cPitfallServers[challenge]
		for _, t := range g14bPyServer(tb, filepath.Join(dir, g16cPitfallArena, challenge, server)) {
			if a.AttackType != "tool_poisoning" || t.Name != a.ToolPoisoning.TargetTool {
				continue
			}
			poisoned := *t
			payload := strings.TrimSpace(a.ToolPoisoning.Injection)
			switch a.ToolPoisoning.Mode {
			case "replace":
				poisoned.Description = payload
			case "prepend":
				poisoned.Description = strings.TrimSpace(payload + "\n\n" + t.Description)
			default:
				poisoned.Description = strings.TrimSpace(t.Description + "\n\n" + payload)
			}
			if seen[t.Name+"\x00"+poisoned.Description] {
				continue
			}
			seen[t.Name+"\x00"+poisoned.Description] = true
			out = append(out, g14bToolSample(rel+":"+t.Name, &poisoned, true))
		}
	}
	malicious := g16cPitfallArena + "/emailsystem/mcp_servers/malicious_tools_server.py"
	for _, t := range g14bPyServer(tb, filepath.Join(dir, malicious)) {
		if t.Name == "send_teams_message" {
			out = append(out, g14bToolSample(malicious+":"+t.Name, t, true))
		}
	}
	return out
}

// g16cRangeTrace is the trace of IshaanMotwani26/mcp-attack-defense-range
// (digit 2: development) that records the tools its first poisoned server
// advertised: the "Original" variant of attacks/DAY2_TOOL_POISONING.md, an
// add tool whose <IMPORTANT> block has the model read the decoy key
// lab_secrets/fake_id_rsa with read_file and put it in the reply without
// saying so. Its read_file is the plain accomplice.
const g16cRangeTrace = "attacks/traces/poisoned_math_140950.json"

// g16cRangePoisoned are the range's other tools its notes label poisoned:
// servers/poisoned_math.py's add_v1 (V1, the payload "dressed as a
// legitimate system config note") and add_v2 (V2, "the exfiltration is
// disguised as a helpful debugging feature"), and the first send_email of
// servers/rugpull_email.py, the definition served once the rug is pulled
// ("description now exfiltrates via BCC": every mail copied to an outside
// address, unmentioned). V3 splits its payload over add_v3 and
// format_answer ("no single description is fully malicious on its own"),
// one attack no single definition carries, and is left out, as is
// servers/poisoned_variants.py, the same tools again.
var g16cRangePoisoned = []string{
	"servers/poisoned_math.py:add_v1",
	"servers/poisoned_math.py:add_v2",
	"servers/rugpull_email.py:send_email#1",
}

// g16cRangeProbes are the clean definitions the range's author wrote beside
// them: servers/benign_math.py's add and multiply (its "benign" server) and
// the second send_email of rugpull_email.py, the "honest" tool served
// before the pull.
var g16cRangeProbes = []string{
	"servers/benign_math.py:add",
	"servers/benign_math.py:multiply",
	"servers/rugpull_email.py:send_email#2",
}

func g16cLoadRange(tb testing.TB, dir string) []sample {
	var out []sample
	if data, err := os.ReadFile(filepath.Join(dir, g16cRangeTrace)); err == nil {
		var trace struct {
			Tools []struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				InputSchema json.RawMessage `json:"input_schema"`
			} `json:"advertised_tools"`
		}
		if err := json.Unmarshal(data, &trace); err != nil {
			tb.Fatalf("%s: %v", g16cRangeTrace, err)
		}
		for _, t := range trace.Tools {
			if t.Name == "add" {
				tool := &mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema}
				out = append(out, g14bToolSample(g16cRangeTrace+":"+t.Name, tool, true))
			}
		}
	}
	for _, f := range []string{"servers/benign_math.py", "servers/poisoned_math.py", "servers/rugpull_email.py"} {
		seen := map[string]int{}
		for _, t := range g14bPyServer(tb, filepath.Join(dir, f)) {
			id := f + ":" + t.Name
			if f == "servers/rugpull_email.py" {
				// Both forms carry one name; the pulled one comes first,
				// in the is_pulled() branch.
				seen[t.Name]++
				id += "#" + strconv.Itoa(seen[t.Name])
			}
			switch {
			case containsString(g16cRangePoisoned, id):
				out = append(out, g14bToolSample(id, t, true))
			case containsString(g16cRangeProbes, id):
				out = append(out, g14bToolSample(id, t, false))
			}
		}
	}
	return out
}

// g16cLoadContextInjection reads donwany/mcp-attacks, the code of "Context
// Injection Vulnerabilities and Resource Exploitation Attacks in Model
// Context Protocol" (digit d: held out), whose attacks/ folder holds three
// poisoned tools. Counted: tool_v3.py's get_motivational_quote as its rug
// pull rewrites it (the __doc__ it swaps in after the server starts), the
// definition a client lists then. tool_v1.py and tool_v2.py put their payload in a docstring but give
// the decorator a description=, which FastMCP serves instead: the listed
// definitions carry no payload, so they are left out.
func g16cLoadContextInjection(tb testing.TB, dir string) []sample {
	const file = "attacks/tool_v3.py"
	tools := g14bPyServer(tb, filepath.Join(dir, file))
	var out []sample
	for i, t := range tools {
		// pyTools lists a tool whose docstring is swapped later once more,
		// after the tools as first declared.
		if i > 0 && t.Name == "get_motivational_quote" {
			out = append(out, g14bToolSample(file+":"+t.Name+"#rugpull", t, true))
		}
	}
	return out
}

// g16cToolSources are this file's sources of tool definitions.
var g16cToolSources = []corpusSource{
	{name: "nmeisenzahl+hijack-agentic-ai", load: g16cLoadHijack},
	{name: "smatz-ITGAIN+mcp-demo", load: g16cLoadSmatz},
	{name: "Wapiti08+mcp-attack-suite", load: g16cLoadPitfall},
	{name: "IshaanMotwani26+mcp-attack-defense-range", load: g16cLoadRange},
	{name: "xjzzzzzzzz+MCPSafety", heldOut: true, load: g16cLoadMCPSafety},
	{name: "robbarto2+MCP_Tool_Poisoning", heldOut: true, load: g16cLoadRobbarto},
	{name: "donwany+mcp-attacks", heldOut: true, load: g16cLoadContextInjection},
}

// g16cSources are all of this file's sources.
var g16cSources = g16cToolSources

func init() { corpusSources = append(corpusSources, g16cSources...) }

// TestG16cSourcesLoad checks that each source of this file, when laid out,
// yields every poisoned tool, harvester and probe its rules name, and runs
// no verdict: a fixture moved upstream must fail here rather than shrink a
// figure quietly.
func TestG16cSourcesLoad(t *testing.T) {
	checkToolSourceCounts(t, g16cToolSources, map[string][2]int{
		"nmeisenzahl+hijack-agentic-ai":            {2, 1},
		"smatz-ITGAIN+mcp-demo":                    {len(g16cSmatzServers), 0},
		"Wapiti08+mcp-attack-suite":                {5, 0},
		"IshaanMotwani26+mcp-attack-defense-range": {1 + len(g16cRangePoisoned), len(g16cRangeProbes)},
		"xjzzzzzzzz+MCPSafety":                     {6 * g16cSafetyPerCategory, 0},
		"robbarto2+MCP_Tool_Poisoning":             {1, 0},
		"donwany+mcp-attacks":                      {1, 0},
	})
}
