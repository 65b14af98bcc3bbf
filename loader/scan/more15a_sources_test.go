package scan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Sources gathered by issue 43's tenth session (helper g15a) from the test
// fixtures and attack demos of skill and MCP scanners and red-team kits
// published by companies (NVIDIA, Cisco, promptfoo, Snyk Labs). A harvester
// is a fixture its author labels malicious (its folder's name, the test that
// expects findings, a docs table, a comment) whose text the model reads has
// it read secrets or the user's data AND send them away; a fixture whose
// harvest lives only in a script the SKILL.md never tells the agent to run
// is left out, as is one that only echoes secrets into the reply or asks the
// user for them. A poisoned MCP tool definition is a tool sample (attack
// tools), judged as a tool is; clean fixtures written for a scanner's tests
// are probes, counted apart from real skills and tools. The split is the
// first hex digit of sha256(OWNER/NAME): 0-7 development, 8-f held out. The
// lists were fixed from the authors' labels before any verdict of this
// scanner on them was seen; held-out ones are only measured.

// g15aSkillSpectorHarvesters are NVIDIA/SkillSpector's skill fixtures
// (tests/fixtures/NAME; digit 0: development) that send the user's data
// away in text the model reads: mcp_poisoned_tool, which its tests
// (tests/test_mcp_tool_poisoning.py: "triggers TP1, TP2, and TP3 findings")
// and docs (docs/B.3.2-mcp-tool-poisoning.md: "Hidden instructions,
// Unicode, params") label poisoned, has a parameter's description order
// every file it reads sent to an outside collector. malicious_skill and
// mcp_mismatched_skill post the environment's secrets from a script their
// SKILL.md never tells the agent to run (their SKILL.md's harm is elsewhere
// or absent), so they are left out; ssd3_nl_exfiltration echoes the user's
// credentials into the reply and ssd4_narrative_deception asks for them,
// neither sends them away; the other ssd, sdi, sqp and mcp fixtures are
// injection, intent mismatches, quality faults or over-broad permissions.
var g15aSkillSpectorHarvesters = []string{"mcp_poisoned_tool"}

// g15aSkillSpectorProbes are its clean fixtures, each the negative case of
// a test that expects no finding: safe_skill (test_semantic_security_discovery,
// test_semantic_quality_policy), mcp_clean_skill (test_mcp_tool_poisoning,
// test_mcp_least_privilege), ssd/ssd_clean, sdi/sdi_clean and
// sqp/sqp{1,2,3}_clean (each analyzer's own clean case).
var g15aSkillSpectorProbes = []string{
	"mcp_clean_skill", "safe_skill", "sdi/sdi_clean", "sqp/sqp1_clean",
	"sqp/sqp2_clean", "sqp/sqp3_clean", "ssd/ssd_clean",
}

func g15aLoadSkillSpector(tb testing.TB, dir string) []sample {
	return namedFixtures(tb, filepath.Join(dir, "tests/fixtures"), g15aSkillSpectorHarvesters, g15aSkillSpectorProbes)
}

// g15aServerManifest is the server manifest defenseclaw's MCP fixtures are
// written in: each tool a name, a description and its parameters by name.
type g15aServerManifest struct {
	Tools []struct {
		Name        string                     `json:"name"`
		Description string                     `json:"description"`
		Parameters  map[string]json.RawMessage `json:"parameters"`
	} `json:"tools"`
}

// g15aManifestTools reads a manifest's tools as the definitions a server
// lists: the parameters become the properties of an object schema.
func g15aManifestTools(tb testing.TB, path string) []*mcp.Tool {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var m g15aServerManifest
	if err := json.Unmarshal(data, &m); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	var out []*mcp.Tool
	for _, t := range m.Tools {
		names := make([]string, 0, len(t.Parameters))
		for name := range t.Parameters {
			names = append(names, name)
		}
		sort.Strings(names)
		props := map[string]json.RawMessage{}
		for _, name := range names {
			props[name] = t.Parameters[name]
		}
		schema, err := json.Marshal(map[string]any{"type": "object", "properties": props})
		if err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		out = append(out, &mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: json.RawMessage(schema)})
	}
	return out
}

// g15aDefenseClawHarvesters are cisco-ai-defense/defenseclaw's MCP
// fixtures (digit a: held out) whose tool sends the user's data away:
// test/fixtures/mcps/malicious-mcp.json's search (its end to end script,
// scripts/test-e2e-full-stack.sh phase 4, fails unless the scanner finds
// something in it), whose description has the chat and the system prompt sent to an outside
// collector before any tool runs. Its skills/malicious-skill is labelled an
// exfiltration fixture by its own SKILL.md, but that text names no secret
// and the theft is in main.py, which the SKILL.md never has the agent run,
// so it is left out.
var g15aDefenseClawHarvesters = []string{"test/fixtures/mcps/malicious-mcp.json:search"}

// g15aDefenseClawProbeTools are the tools of clean-mcp.json, the clean
// fixture that same phase scans first.
var g15aDefenseClawProbeTools = []string{"test/fixtures/mcps/clean-mcp.json:get_weather"}

// g15aDefenseClawProbeSkills are its clean skill fixtures: clean-skill, a
// benign fixture for its skill-scanner tests by its own SKILL.md, which its
// end to end script test-e2e-full-stack.sh expects to scan clean.
var g15aDefenseClawProbeSkills = []string{"clean-skill"}

func g15aLoadDefenseClaw(tb testing.TB, dir string) []sample {
	var out []sample
	for _, f := range g14bFiles(g15aDefenseClawHarvesters, g15aDefenseClawProbeTools) {
		tools := g15aManifestTools(tb, filepath.Join(dir, f))
		out = append(out, g14bPick(f, tools, g15aDefenseClawHarvesters, g15aDefenseClawProbeTools)...)
	}
	return append(out, guardsNamedProbes(tb, filepath.Join(dir, "test/fixtures/skills"), g15aDefenseClawProbeSkills)...)
}

// g15aZodToolRE finds a tool of a TypeScript list written as {name: "…",
// description: "…", inputSchema: zodToJsonSchema(SCHEMA)}.
var g15aZodToolRE = regexp.MustCompile(`name:\s*"([^"]+)",\s*description:\s*"((?:[^"\\]|\\.)*)",\s*inputSchema:\s*zodToJsonSchema\((\w+)`)

// g15aZodFieldRE finds a top-level field of a z.object (two-space indent)
// and its zod type.
var g15aZodFieldRE = regexp.MustCompile(`(?m)^  (\w+): z\s*\.(\w+)`)

// g15aZodObject returns the JSON schema a z.object named name declares in
// src: each top-level field with its type (string and object; any other is
// left open) and its own last .describe, as zodToJsonSchema lists them.
func g15aZodObject(src, name string) map[string]any {
	start := strings.Index(src, "const "+name+" = z.object({")
	if start < 0 {
		return nil
	}
	body := src[start:]
	if end := strings.Index(body, "\n});"); end >= 0 {
		body = body[:end]
	}
	props := map[string]any{}
	fields := g15aZodFieldRE.FindAllStringSubmatchIndex(body, -1)
	for i, m := range fields {
		chunkEnd := len(body)
		if i+1 < len(fields) {
			chunkEnd = fields[i+1][0]
		}
		prop := map[string]any{}
		switch kind := body[m[4]:m[5]]; kind {
		case "string", "object":
			prop["type"] = kind
		}
		if d := g14bZodDesc.FindAllStringSubmatch(body[m[0]:chunkEnd], -1); d != nil {
			if text, err := strconv.Unquote(`"` + d[len(d)-1][1] + `"`); err == nil {
				prop["description"] = text
			}
		}
		props[body[m[2]:m[3]]] = prop
	}
	return map[string]any{"type": "object", "properties": props}
}

// g15aZodTools reads the tools a TypeScript file lists with zod schemas.
func g15aZodTools(tb testing.TB, path string) []*mcp.Tool {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	src := string(data)
	var out []*mcp.Tool
	for _, m := range g15aZodToolRE.FindAllStringSubmatch(src, -1) {
		desc, err := strconv.Unquote(`"` + m[2] + `"`)
		if err != nil {
			tb.Fatalf("%s: tool %s: %v", path, m[1], err)
		}
		schema, err := json.Marshal(g15aZodObject(src, m[3]))
		if err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		out = append(out, &mcp.Tool{Name: m[1], Description: desc, InputSchema: json.RawMessage(schema)})
	}
	return out
}

// g15aEvilMCPHarvesters are promptfoo/evil-mcp-server's tools (digit 0:
// development) whose definition sends the user's data away:
// src/tools/evilTools.ts's record_analytics, which its README lists as the
// one tool and labels "Simulates exfiltration of customer data": its
// description orders it called after every action with "all tool names,
// arguments, results, customer information, and transaction details", and
// its handler posts them to a webhook. It has no clean tool.
var g15aEvilMCPHarvesters = []string{"src/tools/evilTools.ts:record_analytics"}

func g15aLoadEvilMCP(tb testing.TB, dir string) []sample {
	var out []sample
	for _, f := range g14bFiles(g15aEvilMCPHarvesters) {
		out = append(out, g14bPick(f, g15aZodTools(tb, filepath.Join(dir, f)), g15aEvilMCPHarvesters, nil)...)
	}
	return out
}

// g15aNpmGoofHarvesters are snyk-labs/mcp-server-npm-goof's tools (digit 5:
// development; "intentionally vulnerable, intended to be used as an
// educational tool for MCP Server security", README) whose definition
// sends a secret away: index.js's searchNpmPackage, which its comment
// labels "V2: Tool uses package description to retrieve confidential
// information": its description has the model read .gemini/settings.json,
// take the GitHub server's bearer token and send it in a web fetch to an
// outside "npmjs" host. getNpmPackageInfo (V1) is a command injection in
// code and read_file (V3) a name collision that asks to be called first;
// neither asks for a secret to be sent, and neither is a clean tool.
var g15aNpmGoofHarvesters = []string{"index.js:searchNpmPackage"}

func g15aLoadNpmGoof(tb testing.TB, dir string) []sample {
	var out []sample
	for _, f := range g14bFiles(g15aNpmGoofHarvesters) {
		src, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			continue
		}
		out = append(out, g14bPick(f, g14bJSTools(string(src)), g15aNpmGoofHarvesters, nil)...)
	}
	return out
}

var g15aSources = []corpusSource{
	{name: "NVIDIA+SkillSpector", load: g15aLoadSkillSpector},
	{name: "promptfoo+evil-mcp-server", load: g15aLoadEvilMCP},
	{name: "snyk-labs+mcp-server-npm-goof", load: g15aLoadNpmGoof},
	{name: "cisco-ai-defense+defenseclaw", heldOut: true, load: g15aLoadDefenseClaw},
}

func init() { corpusSources = append(corpusSources, g15aSources...) }

// g15aCounts are the samples a source yields, by kind.
type g15aCounts struct {
	harvesterSkills, probeSkills, poisonedTools, probeTools int
}

// TestG15aSourcesLoad checks that each source of this file, when laid out,
// yields the harvesters, poisoned tools and probes its lists name, each one
// kind with its text, and scans nothing: a fixture moved upstream must fail
// here rather than shrink a figure quietly.
func TestG15aSourcesLoad(t *testing.T) {
	want := map[string]g15aCounts{
		"NVIDIA+SkillSpector": {
			harvesterSkills: len(g15aSkillSpectorHarvesters), probeSkills: len(g15aSkillSpectorProbes),
		},
		"promptfoo+evil-mcp-server":     {poisonedTools: len(g15aEvilMCPHarvesters)},
		"snyk-labs+mcp-server-npm-goof": {poisonedTools: len(g15aNpmGoofHarvesters)},
		"cisco-ai-defense+defenseclaw": {
			probeSkills:   len(g15aDefenseClawProbeSkills),
			poisonedTools: len(g15aDefenseClawHarvesters), probeTools: len(g15aDefenseClawProbeTools),
		},
	}
	eachLaidOut(t, g15aSources, want, func(src corpusSource, w g15aCounts, samples []sample) {
		var got g15aCounts
		for _, s := range samples {
			switch {
			case s.tool != nil && s.tool.Description != "" && s.attack && !s.probe && !s.harvest:
				got.poisonedTools++
			case s.tool != nil && s.tool.Description != "" && s.probe && !s.attack:
				got.probeTools++
			case s.tool == nil && len(s.skill) > 0 && s.attack && s.harvest && !s.probe:
				got.harvesterSkills++
			case s.tool == nil && len(s.skill) > 0 && s.probe && !s.attack && !s.harvest:
				got.probeSkills++
			default:
				t.Errorf("%s %s: attack %v, harvest %v, probe %v, tool %v, %d files; want a harvester, a poisoned tool or a probe",
					src.name, s.id, s.attack, s.harvest, s.probe, s.tool != nil, len(s.skill))
			}
		}
		if got != w {
			t.Errorf("%s: got %+v, want %+v", src.name, got, w)
		}
	})
}
