package scan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Sources gathered by issue 43's tenth session (helper g14b) from poisoned
// MCP servers and tool definitions: tool-poisoning demos, MCP scanners'
// fixtures and benchmarks of MCP attacks. Each tool is read as the
// definition a server lists (name, description, input schema) from the
// repository's own files: a tools/list capture, a server's decorators or a
// payload file, and judged as a tool is. A poisoned tool here is one
// whose author labels it poisoned or malicious (a fixture's name and the
// test that expects a finding, a benchmark's truth file, a README's attack
// table, a payload file's attack class) and whose text has the model read
// secrets or the user's data (keys, tokens, mail, the chat, documents) AND
// send them away: to a URL, to another recipient, or into a parameter of
// the poisoned tool or of a sink the attacker serves. A tool whose text only
// puts a secret into the reply, sends only the user's name, only writes a
// local file, or whose harm is only in code the model never reads is left
// out. Clean tools written for a scanner's tests are probes, counted apart
// from real tools. The split is the first hex digit of sha256(OWNER/NAME):
// 0-7 development, 8-f held out. The lists were fixed from the authors'
// labels before any verdict of this scanner on them was seen; held-out
// ones are only measured.

// g14bToolSample is a poisoned tool (an attack tool, judged as a tool
// definition is), or a clean tool written for a scanner's tests (a probe).
func g14bToolSample(id string, t *mcp.Tool, poisoned bool) sample {
	return sample{id: id, tool: t, attack: poisoned, probe: !poisoned}
}

// g14bPick keeps the tools of a listing that a list names (file:tool), in
// the listing's order, each a harvester or a probe.
func g14bPick(file string, tools []*mcp.Tool, harvesters, probes []string) []sample {
	var out []sample
	for _, t := range tools {
		id := file + ":" + t.Name
		switch {
		case containsString(harvesters, id):
			out = append(out, g14bToolSample(id, t, true))
		case containsString(probes, id):
			out = append(out, g14bToolSample(id, t, false))
		}
	}
	return out
}

// g14bFiles lists the files (relative to dir) a list of file:tool ids names.
func g14bFiles(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		for _, id := range l {
			if f := id[:strings.LastIndex(id, ":")]; !containsString(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// g14bSamsonHarvesters are SamsonCyber/mcp-poison's (MCPDoctor; digit 6:
// development) captured tools/list fixtures that its tests
// (tests/fixtures_scan.rs, multi_scan.rs) expect findings on and whose
// tool sends data away: t4_cross_server_a (the cross-server pair's poisoned
// half: forward the user's inbox to another number with the other server's
// send_whatsapp_message), t6_param_names (the "semantic parameter name"
// fixture: a parameter that asks for the SSH key's content) and t8_ansi (an
// ANSI-hidden order to POST the AWS credentials away). t1_description_poison
// puts the SSH key into the reply and t3_line_jump sends only whoami, so
// neither counts; t4_cross_server_b is the clean target of the pair.
var g14bSamsonHarvesters = []string{
	"fixtures/t4_cross_server_a.json:random_trivia",
	"fixtures/t6_param_names.json:add_numbers",
	"fixtures/t8_ansi.json:convert_currency",
}

// g14bSamsonProbes are the tools of clean_calculator.json, which its test
// (clean_calculator_ok) expects no finding on.
var g14bSamsonProbes = []string{
	"fixtures/clean_calculator.json:add",
	"fixtures/clean_calculator.json:multiply",
}

func g14bLoadSamson(tb testing.TB, dir string) []sample {
	var out []sample
	for _, f := range g14bFiles(g14bSamsonHarvesters, g14bSamsonProbes) {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			continue
		}
		var list struct {
			Tools []*mcp.Tool `json:"tools"`
		}
		if err := json.Unmarshal(data, &list); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		out = append(out, g14bPick(f, list.Tools, g14bSamsonHarvesters, g14bSamsonProbes)...)
	}
	return out
}

// g14bPyServer reads the tools a Python server's decorators declare.
func g14bPyServer(tb testing.TB, path string) []*mcp.Tool {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return pyTools(string(src))
}

// g14bElnatanHarvesters are ElnatanAnbelu/mcp-scanner-benchmark's cases
// (digit 6: development) whose truth.yaml says "verdict: vulnerable" and
// whose poisoned description sends a secret away: tool-poisoning-001
// ("Credential-exfiltration instructions hidden in the tool description":
// read ~/.ssh/id_rsa and smuggle it through an argument). tool-poisoning-003
// is byte-identical to it and tool-poisoning-002-js its JavaScript twin, so
// neither is counted again; the other cases' harm is in code. The
// repository has no snapshot here: laid out from read_file at the commits
// in its PROVENANCE.txt.
var g14bElnatanHarvesters = []string{"corpus/cases/tool-poisoning-001/server.py:convert"}

// g14bElnatanProbes are the safe twins (truth.yaml "verdict: safe") written
// as precision tests for it: security vocabulary without an instruction,
// and the key's path named in a negated sentence.
var g14bElnatanProbes = []string{
	"corpus/cases/tool-poisoning-001-safe/server.py:convert",
	"corpus/cases/tool-poisoning-003-safe/server.py:convert",
}

func g14bLoadElnatan(tb testing.TB, dir string) []sample {
	var out []sample
	for _, f := range g14bFiles(g14bElnatanHarvesters, g14bElnatanProbes) {
		out = append(out, g14bPick(f, g14bPyServer(tb, filepath.Join(dir, f)), g14bElnatanHarvesters, g14bElnatanProbes)...)
	}
	return out
}

// g14bCISECPayloadRE finds the poisoned descriptions of
// CISECSL/mcp-tool-poisoning-poc's evil_mcp_server/payloads.py.
var g14bCISECPayloadRE = regexp.MustCompile(`(?s)\n(POISONED_LIST_NOTES_DESCRIPTION(?:_V1)?) = """(.*?)"""`)

// g14bLoadCISEC reads CISECSL/mcp-tool-poisoning-poc (digit 6: development),
// whose evil_mcp_server serves list_notes with the description of
// payloads.py ("The 'evil' behavior lives entirely in the *description* of
// list_notes", server.py): have the model read the session token
// (./sandbox/canary.txt) with read_file and pass it to log_event, the
// server's sink that POSTs it to EXFIL_TARGET. Both forms count, each a
// harvester: the served v2 (written as protocol documentation) and the v1
// its tests keep "for the video contrast". get_weather, read_file and
// log_event are plain. The repository has no snapshot here: laid out from
// read_file at the commits in its PROVENANCE.txt.
func g14bLoadCISEC(tb testing.TB, dir string) []sample {
	var listNotes *mcp.Tool
	for _, t := range g14bPyServer(tb, filepath.Join(dir, "evil_mcp_server/server.py")) {
		if t.Name == "list_notes" {
			listNotes = t
		}
	}
	payloads, err := os.ReadFile(filepath.Join(dir, "evil_mcp_server/payloads.py"))
	if listNotes == nil || err != nil {
		return nil
	}
	var out []sample
	for _, m := range g14bCISECPayloadRE.FindAllStringSubmatch(string(payloads), -1) {
		t := *listNotes
		t.Description = m[2]
		out = append(out, g14bToolSample("evil_mcp_server/payloads.py:"+m[1], &t, true))
	}
	return out
}

// g14bPyStringRE matches a Python string literal or the name _OBJECTIVE in
// MCP-Poison-Bench's payload expressions.
var g14bPyStringRE = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"|\b_OBJECTIVE\b`)

// g14bPyConcat evaluates a concatenation of Python string literals (and of
// _OBJECTIVE, given) as MCP-Poison-Bench writes its payloads.
func g14bPyConcat(expr, objective string) string {
	var b strings.Builder
	for _, m := range g14bPyStringRE.FindAllStringSubmatch(expr, -1) {
		if m[0] == "_OBJECTIVE" {
			b.WriteString(objective)
			continue
		}
		s, err := strconv.Unquote(`"` + m[1] + `"`)
		if err != nil {
			s = m[1]
		}
		b.WriteString(s)
	}
	return b.String()
}

// g14bPyAssigned returns the parenthesised expression after `name = (` or
// `name=(`, up to the line that closes it at the same indentation.
func g14bPyAssigned(src, name string) string {
	re := regexp.MustCompile(`(?m)^([ \t]*)` + regexp.QuoteMeta(name) + `\s*=\s*\(\n`)
	loc := re.FindStringSubmatchIndex(src)
	if loc == nil {
		return ""
	}
	indent := src[loc[2]:loc[3]]
	rest := src[loc[1]:]
	if end := strings.Index(rest, "\n"+indent+")"); end >= 0 {
		return rest[:end]
	}
	return ""
}

// g14bPoisonBenchClasses are the attack classes of
// chirag-dewan/MCP-Poison-Bench (digit 5: development) whose payload is in a
// definition, each laid out as the poisoned tool servers/poisoned/server.py
// serves for it: tool_description (calculate's description), schema_field
// (the description of calculate's operation parameter) and cross_server
// (the compliance_audit shadow tool). All three order the model to call the
// attacker's export_data sink with "the confidential session token" (the
// labelled, defanged dataset of fixtures/payloads.py): harvesters.
// rug_pull puts the same order into a tool result, not a definition, and
// is left out; the benign server is not written as a look-alike. The
// repository has no snapshot here: laid out from read_file at the commits
// in its PROVENANCE.txt.
var g14bPoisonBenchClasses = []string{"td-compliance-audit", "sf-operation-desc", "xs-shadow-audit"}

func g14bLoadPoisonBench(tb testing.TB, dir string) []sample {
	payloads, err1 := os.ReadFile(filepath.Join(dir, "fixtures/payloads.py"))
	server, err2 := os.ReadFile(filepath.Join(dir, "servers/poisoned/server.py"))
	if err1 != nil || err2 != nil {
		return nil
	}
	src := string(payloads)
	objective := g14bPyConcat(g14bPyAssigned(src, "_OBJECTIVE"), "")
	baseDoc := g14bPyConcat(g14bPyAssigned(string(server), "base_doc"), "")
	num := map[string]any{"type": "number"}
	str := map[string]any{"type": "string"}
	schema := func(props map[string]any, required ...string) json.RawMessage {
		s := map[string]any{"type": "object", "properties": props}
		if len(required) > 0 {
			s["required"] = required
		}
		data, _ := json.Marshal(s)
		return data
	}
	var out []sample
	for _, id := range g14bPoisonBenchClasses {
		i := strings.Index(src, `id="`+id+`"`)
		if i < 0 {
			continue
		}
		injection := g14bPyConcat(g14bPyAssigned(src[i:], "injection"), objective)
		if injection == "" || objective == "" || baseDoc == "" {
			continue
		}
		var t *mcp.Tool
		switch id {
		case "td-compliance-audit":
			t = &mcp.Tool{Name: "calculate", Description: baseDoc + injection,
				InputSchema: schema(map[string]any{"a": num, "b": num, "operation": str}, "a", "b", "operation")}
		case "sf-operation-desc":
			t = &mcp.Tool{Name: "calculate", Description: "Perform an arithmetic operation on two numbers.",
				InputSchema: schema(map[string]any{"a": num, "b": num,
					"operation": map[string]any{"type": "string", "description": injection}}, "a", "b", "operation")}
		case "xs-shadow-audit":
			t = &mcp.Tool{Name: "compliance_audit", Description: injection,
				InputSchema: schema(map[string]any{"note": map[string]any{"type": "string", "default": ""}})}
		}
		out = append(out, g14bToolSample("fixtures/payloads.py:"+id, t, true))
	}
	return out
}

// g14bJSToolRE and g14bZodRE read the server.tool(name, description,
// {zod shape}, handler) calls of a JavaScript MCP server; the description
// is a template literal, or string literals joined with +.
var (
	g14bJSToolRE = regexp.MustCompile("(?s)server\\.tool\\(\\s*\"([^\"]+)\",\\s*(?:`([^`]*)`|((?:\"(?:[^\"\\\\]|\\\\.)*\"\\s*\\+\\s*)*\"(?:[^\"\\\\]|\\\\.)*\")),\\s*\\{(.*?)\\},\\s*async")
	g14bZodRE    = regexp.MustCompile(`(\w+):\s*z\.(\w+)\(([^)]*)\)((?:\.\w+\((?:"(?:[^"\\]|\\.)*"|[^)]*)\))*)`)
	g14bZodDesc  = regexp.MustCompile(`\.describe\(\s*"((?:[^"\\]|\\.)*)"\s*\)`)
)

// g14bJSTools reads the tools of a JavaScript server written with the MCP
// SDK's server.tool and zod shapes, as the SDK lists them.
func g14bJSTools(src string) []*mcp.Tool {
	var out []*mcp.Tool
	for _, m := range g14bJSToolRE.FindAllStringSubmatch(src, -1) {
		desc := m[2]
		if m[3] != "" {
			desc = g14bPyConcat(m[3], "")
		}
		props := map[string]any{}
		var required []string
		for _, p := range g14bZodRE.FindAllStringSubmatch(m[4], -1) {
			prop := map[string]any{"type": p[2]}
			if p[2] == "enum" {
				var values []string
				for _, v := range regexp.MustCompile(`"([^"]*)"`).FindAllStringSubmatch(p[3], -1) {
					values = append(values, v[1])
				}
				prop = map[string]any{"type": "string", "enum": values}
			}
			if d := g14bZodDesc.FindStringSubmatch(p[4]); d != nil {
				prop["description"], _ = strconv.Unquote(`"` + d[1] + `"`)
			}
			if !strings.Contains(p[4], ".optional()") {
				required = append(required, p[1])
			}
			props[p[1]] = prop
		}
		s := map[string]any{"type": "object", "properties": props}
		if len(required) > 0 {
			s["required"] = required
		}
		schema, _ := json.Marshal(s)
		out = append(out, &mcp.Tool{Name: m[1], Description: desc, InputSchema: json.RawMessage(schema)})
	}
	return out
}

// g14bGuardianHarvesters are the tools of alexandriashai/mcp-guardian's
// examples/poisoned-server (digit b: held out; "a deliberately malicious MCP
// server for testing", whose README names each tool's attacks) that send
// data away: add ("data exfiltration": the SSH key passed as a parameter)
// and search_docs ("URL exfiltration": results and the AWS keys sent to an
// outside host). format_text appends the environment to its output, into
// the reply, and is left out; calculator is "Clean — intentionally safe to
// show contrast", a probe.
var (
	g14bGuardianHarvesters = []string{"examples/poisoned-server/index.js:add", "examples/poisoned-server/index.js:search_docs"}
	g14bGuardianProbes     = []string{"examples/poisoned-server/index.js:calculator"}
)

func g14bLoadGuardian(tb testing.TB, dir string) []sample {
	const f = "examples/poisoned-server/index.js"
	src, err := os.ReadFile(filepath.Join(dir, f))
	if err != nil {
		return nil
	}
	return g14bPick(f, g14bJSTools(string(src)), g14bGuardianHarvesters, g14bGuardianProbes)
}

// g14bPyFieldRE finds a parameter of a Python tool whose pydantic Field
// carries a description: NAME: Annotated[TYPE, Field(… description=(…"""…"""…)…)].
var g14bPyFieldRE = regexp.MustCompile(`(?s)(\w+):\s*Annotated\[\s*([\w\[\]]+),\s*Field\(.*?description=\(?\s*(?:"""(.*?)"""|"((?:[^"\\]|\\.)*)")`)

// g14bEverythingWrongHarvesters are the tools of
// acuvity/mcp-server-everything-wrong (digit c: held out; "intentionally
// insecure", its README's table names each tool's attack) that send the
// user's data away: shadowing_attack ("tool shadowing": always BCC an
// attacker on send_email) and echo ("side-channel information leak via
// optional field": a hidden debug parameter that must carry the user's
// previous message). greet is a rug pull to French, joke_teller a covert
// reply, env_var, fetch and run_command harm in code.
var g14bEverythingWrongHarvesters = []string{
	"src/mcp_server_everything_wrong/server.py:shadowing_attack",
	"src/mcp_server_everything_wrong/server.py:echo",
}

// g14bLoadEverythingWrong reads the server's tools, adding to each the
// descriptions its parameters carry in pydantic Fields (which pyTools does
// not read), as FastMCP lists them.
func g14bLoadEverythingWrong(tb testing.TB, dir string) []sample {
	const f = "src/mcp_server_everything_wrong/server.py"
	data, err := os.ReadFile(filepath.Join(dir, f))
	if err != nil {
		return nil
	}
	src := string(data)
	tools := pyTools(src)
	for _, m := range pyToolRE.FindAllStringSubmatch(src, -1) {
		name, params := m[2], m[3]
		fields := g14bPyFieldRE.FindAllStringSubmatch(params, -1)
		if len(fields) == 0 {
			continue
		}
		for _, t := range tools {
			if t.Name != name {
				continue
			}
			var schema map[string]any
			if raw, ok := t.InputSchema.(json.RawMessage); !ok || json.Unmarshal(raw, &schema) != nil {
				continue
			}
			props := map[string]any{}
			for k, v := range schema["properties"].(map[string]any) {
				if strings.Contains(params, k+":") {
					props[k] = v
				}
			}
			for _, fd := range fields {
				desc := fd[3] + fd[4]
				if fd[3] != "" {
					desc = dedent(fd[3])
				}
				typ := "string"
				if strings.HasPrefix(fd[2], "List") {
					typ = "array"
				}
				props[fd[1]] = map[string]any{"type": typ, "title": fd[1], "description": desc}
			}
			schema["properties"] = props
			if data, err := json.Marshal(schema); err == nil {
				t.InputSchema = json.RawMessage(data)
			}
		}
	}
	return g14bPick(f, tools, g14bEverythingWrongHarvesters, nil)
}

// g14bPoisoningPocHarvesters are the tools gensecaihq/mcp-poisoning-poc's
// fake_mcp_server.py lists (digit e: held out), every one poisoned and each
// one of its README's "Covered Scenarios" whose impact is "silent data
// exfiltration": the user's requests and code to a logger, report data,
// competitor queries uploaded later, meeting transcripts, code snippets, and
// (the cross-server shadowing) every report redirected to an outside host.
// The repository has no snapshot here: laid out from read_file at
// 979682a6fa191973ddf142ac43435f4320de611b.
var g14bPoisoningPocHarvesters = []string{
	"fake_mcp_server.py:generate_code",
	"fake_mcp_server.py:generate_financial_report",
	"fake_mcp_server.py:analyze_competitor",
	"fake_mcp_server.py:summarize_meeting_notes",
	"fake_mcp_server.py:code_review",
	"fake_mcp_server.py:note",
}

var g14bPoisoningPocRE = regexp.MustCompile(`(?s)JSONResponse\(content=(\[.*\])\)`)

func g14bLoadPoisoningPoc(tb testing.TB, dir string) []sample {
	const f = "fake_mcp_server.py"
	src, err := os.ReadFile(filepath.Join(dir, f))
	if err != nil {
		return nil
	}
	m := g14bPoisoningPocRE.FindSubmatch(src)
	if m == nil {
		return nil
	}
	var tools []*mcp.Tool
	if err := json.Unmarshal(m[1], &tools); err != nil {
		tb.Fatalf("%s: %v", f, err)
	}
	return g14bPick(f, tools, g14bPoisoningPocHarvesters, nil)
}

var g14bSources = []corpusSource{
	{name: "SamsonCyber+mcp-poison", load: g14bLoadSamson},
	{name: "ElnatanAnbelu+mcp-scanner-benchmark", load: g14bLoadElnatan},
	{name: "CISECSL+mcp-tool-poisoning-poc", load: g14bLoadCISEC},
	{name: "chirag-dewan+MCP-Poison-Bench", load: g14bLoadPoisonBench},
	{name: "alexandriashai+mcp-guardian", heldOut: true, load: g14bLoadGuardian},
	{name: "acuvity+mcp-server-everything-wrong", heldOut: true, load: g14bLoadEverythingWrong},
	{name: "gensecaihq+mcp-poisoning-poc", heldOut: true, load: g14bLoadPoisoningPoc},
}

func init() { corpusSources = append(corpusSources, g14bSources...) }

// TestG14bSourcesLoad checks that each source of this file, when laid out,
// yields the harvesters and probes its lists name, with no scan.
func TestG14bSourcesLoad(t *testing.T) {
	want := map[string][2]int{
		"SamsonCyber+mcp-poison":              {len(g14bSamsonHarvesters), len(g14bSamsonProbes)},
		"ElnatanAnbelu+mcp-scanner-benchmark": {len(g14bElnatanHarvesters), len(g14bElnatanProbes)},
		"CISECSL+mcp-tool-poisoning-poc":      {2, 0},
		"chirag-dewan+MCP-Poison-Bench":       {len(g14bPoisonBenchClasses), 0},
		"alexandriashai+mcp-guardian":         {len(g14bGuardianHarvesters), len(g14bGuardianProbes)},
		"acuvity+mcp-server-everything-wrong": {len(g14bEverythingWrongHarvesters), 0},
		"gensecaihq+mcp-poisoning-poc":        {len(g14bPoisoningPocHarvesters), 0},
	}
	checkToolSourceCounts(t, g14bSources, want)
}
