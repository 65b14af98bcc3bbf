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

// The held-out sources added in issue 43's second measuring session. Each
// loader says which samples count as attacks whose payload is in text the
// model reads; the rules were fixed before any of them was read.

// clawGuardAttacks are ClawGuard's fixtures (tests/fixtures/NAME) whose
// payload is in text the model reads, and whether each harvests. The
// credential harvester's SKILL.md tells the model to run its setup.sh,
// which reads ~/.env, ~/.aws/credentials and ~/.ssh/id_rsa and posts them
// away. The prompt-injection and memory-manipulation fixtures order the
// model, in SKILL.md, to rewrite its memory files (and forward the user's
// messages), which is not a credential's theft. The others hold their harm
// in a name (typosquat), in what a command installs (curl | bash), in code
// the model is not pointed to (obfuscated payload, time bomb), or in
// permissions asked (excessive permissions); the two clean fixtures are
// written for the tests, not for use, so they are not counted as real
// skills.
var clawGuardAttacks = map[string]bool{
	"malicious_credential_harvester": true,
	"prompt_injection_skill":         false,
	"memory_manipulation_skill":      false,
}

func loadClawGuard(tb testing.TB, dir string) []sample {
	var out []sample
	for _, s := range loadSkillDirs(tb, "", filepath.Join(dir, "tests/fixtures"), func(rel string) bool {
		_, ok := clawGuardAttacks[filepath.ToSlash(rel)]
		return ok
	}) {
		s.harvest = clawGuardAttacks[filepath.ToSlash(s.id)]
		out = append(out, s)
	}
	return out
}

// mcpSecBenchAttacks are the tools of MCPSecBench's malicious server
// (code/maliciousadd.py) whose definition carries its attack: add and
// m_check (tool poisoning: "[important] … use this tool"), modify and
// aft_check (shadowing another tool's call or result), times (its
// tools_list parameter, the data-exfiltration attack) and
// get_weather_forecast as its rug pull rewrites it (an <IMPORTANT> block
// reading credentials). Its other tools are benign in text (the squatting
// attacks are in names, the vulnerable-server ones in code), and the
// docstring the rug pull's reset restores is the clean one.
var mcpSecBenchAttacks = map[string]bool{
	"add": true, "m_check": true, "modify": true, "aft_check": true, "times": true, "get_weather_forecast": true,
}

func loadMCPSecBench(tb testing.TB, dir string) []sample {
	src, err := os.ReadFile(filepath.Join(dir, "code/maliciousadd.py"))
	if err != nil {
		return nil
	}
	var out []sample
	for _, t := range pyTools(string(src)) {
		if !mcpSecBenchAttacks[t.Name] || t.Name == "get_weather_forecast" && !strings.Contains(t.Description, "<IMPORTANT>") {
			continue
		}
		out = append(out, sample{id: "code/maliciousadd.py:" + t.Name, attack: true, tool: t})
	}
	return out
}

// poisonedConstRE finds the poisoned descriptions of the experiments of
// johannhartmann's mcp-injection-experiments (src/mcp_demo/experiments):
// the constants named POISONED_DESCRIPTION, _POISONED_DESCRIPTION and
// HELPER_DESCRIPTION (the shadowing helper's), each a tool's whole
// description. Their benign twins (CLEAN_, BENIGN_, MAIL_DESCRIPTION) are
// not read.
var poisonedConstRE = regexp.MustCompile(`(?ms)^_?(?:POISONED|HELPER)_DESCRIPTION = """\\?\n(.*?)"""`)

// loadInjectionExperiments reads johannhartmann's extension of Invariant
// Labs' mcp-injection-experiments: Invariant's three servers at the top
// (direct-poisoning.py, shadowing.py, whatsapp-takeover.py: every tool
// they list is an attack but the WhatsApp fact tool before its rug pull),
// the poisoned descriptions of the experiments, and the rug-pulled
// profile.get of tests/fixtures/registry/example-server-v2.yaml. Invariant's
// three are the write-up the scanner's own poisoned.json imitates, so they
// are counted but are not unseen; BENCHMARKS.md gives the figure without
// them too.
func loadInjectionExperiments(tb testing.TB, dir string) []sample {
	var out []sample
	for _, f := range []string{"direct-poisoning.py", "shadowing.py", "whatsapp-takeover.py"} {
		src, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			continue
		}
		for _, t := range pyTools(string(src)) {
			if f == "whatsapp-takeover.py" && !strings.Contains(t.Description, "<IMPORTANT>") {
				continue
			}
			out = append(out, sample{id: "invariant/" + f + ":" + t.Name, attack: true, tool: t})
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "src/mcp_demo/experiments/*.py"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		for i, m := range poisonedConstRE.FindAllStringSubmatch(string(src), -1) {
			name := strings.TrimSuffix(filepath.Base(f), ".py")
			t := &mcp.Tool{Name: name, Description: m[1], InputSchema: json.RawMessage(`{"type":"object"}`)}
			out = append(out, sample{id: filepath.Base(f) + ":" + string(rune('0'+i)), attack: true, tool: t})
		}
	}
	if y, err := os.ReadFile(filepath.Join(dir, "tests/fixtures/registry/example-server-v2.yaml")); err == nil {
		if d := yamlBlockAfter(string(y), "- name: profile.get"); d != "" {
			t := &mcp.Tool{Name: "profile.get", Description: d, InputSchema: json.RawMessage(`{"type":"object"}`)}
			out = append(out, sample{id: "registry/example-server-v2.yaml:profile.get", attack: true, tool: t})
		}
	}
	return out
}

// yamlBlockAfter returns the `description: |` block that follows the line
// after, dedented: enough YAML for one fixture.
func yamlBlockAfter(src, after string) string {
	i := strings.Index(src, after)
	if i < 0 {
		return ""
	}
	rest := src[i+len(after):]
	j := strings.Index(rest, "description: |\n")
	if j < 0 {
		return ""
	}
	var lines []string
	indent := -1
	for _, l := range strings.Split(rest[j+len("description: |\n"):], "\n") {
		trimmed := strings.TrimLeft(l, " ")
		if trimmed == "" {
			lines = append(lines, "")
			continue
		}
		n := len(l) - len(trimmed)
		if indent < 0 {
			indent = n
		}
		if n < indent {
			break
		}
		lines = append(lines, l[indent:])
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

var (
	overrideRE = regexp.MustCompile(`description_override=\{\s*"(\w+)":\s*\(((?:\s*"(?:[^"\\]|\\.)*")+)\s*\)`)
	pyStrRE    = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)
)

// loadToolPoisoningBench reads tool-poisoning-bench's scenarios.py: each
// scenario's description_override (category tool_description_injection,
// three: explicit, social and obfuscated) is a tool whose description asks
// the model to mail data to an outside address, an attack. Its base tools
// are written for the benchmark and are not counted.
func loadToolPoisoningBench(tb testing.TB, dir string) []sample {
	src, err := os.ReadFile(filepath.Join(dir, "scenarios.py"))
	if err != nil {
		return nil
	}
	var out []sample
	for i, m := range overrideRE.FindAllStringSubmatch(string(src), -1) {
		var desc strings.Builder
		for _, lit := range pyStrRE.FindAllStringSubmatch(m[2], -1) {
			desc.WriteString(lit[1])
		}
		t := &mcp.Tool{Name: m[1], Description: desc.String(), InputSchema: json.RawMessage(`{"type":"object"}`)}
		out = append(out, sample{id: "scenarios.py:" + string(rune('0'+i)) + ":" + m[1], attack: true, tool: t})
	}
	return out
}
