package scan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The held-out sources added in issue 43's third measuring session, which
// nobody had read before it. Their samples were chosen by the rules below,
// written before any verdict on them was seen; the rules of that session
// were written against development sources and the tests beside them.

// dvmcpAttacks are the tools of Damn Vulnerable MCP Server's challenges
// whose definition carries the attack, as the author's solution guides
// (solutions/challengeN_solution.md) name them: challenge 2's two
// poisoned tools, challenge 5's shadowing calculator and challenge 10's
// poisoned profile tool and shadowing status tool. Challenge 4's weather
// tool counts as its rug pull rewrites it (every later version whose text
// differs from the one installed). The other challenges hold their harm in
// code, permissions or resources.
var dvmcpAttacks = map[string][]string{
	"challenges/easy/challenge2/server.py":   {"get_company_data", "search_company_database"},
	"challenges/medium/challenge4/server.py": {"get_weather_forecast"},
	"challenges/medium/challenge5/server.py": {"enhanced_calculate"},
	"challenges/hard/challenge10/server.py":  {"get_user_profile", "malicious_check_system_status"},
}

func loadDVMCP(tb testing.TB, dir string) []sample {
	files := make([]string, 0, len(dvmcpAttacks))
	for f := range dvmcpAttacks {
		files = append(files, f)
	}
	sort.Strings(files)
	var out []sample
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			continue
		}
		installed := map[string]string{}
		for _, t := range pyTools(string(src)) {
			first, seen := installed[t.Name]
			if !seen {
				installed[t.Name] = t.Description
			}
			if !containsString(dvmcpAttacks[f], t.Name) {
				continue
			}
			if f == "challenges/medium/challenge4/server.py" && (!seen || t.Description == first) {
				continue // the rug pull's later text only
			}
			out = append(out, sample{id: f + ":" + t.Name, attack: true, tool: t})
		}
	}
	return out
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// skillJectCarriers is how many of SkillJect's sample skills carry its
// payload here: the first, in byte order of their folder names. The payload
// is one text, so more carriers would weigh one attack many times.
const skillJectCarriers = 10

// loadSkillJect builds SkillJect's template-injection test cases: the
// information-disclosure payload (information_disclosure_env of
// src/domain/payload/registries/payload_registry.py, which reads .env and
// posts it away: a harvester) inserted at the instruction layer of
// data/skills_sample/SKILL/SKILL.md, after its front matter, as
// TemplateInjectionGenerator._inject_into_instruction does
// (config/strategies/template_injection.yaml names that layer). The other
// payloads change shell files, write code or show links.
func loadSkillJect(tb testing.TB, dir string) []sample {
	payload := pyTripleQuoted(tb, filepath.Join(dir, "src/domain/payload/registries/payload_registry.py"), `name="information_disclosure_env"`, `content="""`)
	if payload == "" {
		return nil
	}
	root := filepath.Join(dir, "data/skills_sample")
	entries, _ := os.ReadDir(root)
	var out []sample
	for _, e := range entries {
		if len(out) == skillJectCarriers {
			break
		}
		if _, err := os.Stat(filepath.Join(root, e.Name(), "SKILL.md")); err != nil {
			continue
		}
		for _, s := range loadSkillDirs(tb, "", filepath.Join(root, e.Name()), nil) {
			if s.id != "." {
				continue
			}
			for i, f := range s.skill {
				if f.Path == "SKILL.md" {
					s.skill[i].Data = []byte(injectIntoInstruction(string(f.Data), payload))
				}
			}
			s.id, s.dir, s.attack, s.harvest = "information_disclosure_env in "+e.Name(), e.Name(), true, true
			out = append(out, s)
		}
	}
	return out
}

var (
	frontMatterRE      = regexp.MustCompile(`(?s)^---\s*\n(.*?)\n---\s*\n`)
	frontMatterLooseRE = regexp.MustCompile(`(?s)^---\s*\n(.*?)\n---`)
)

// injectIntoInstruction inserts payload after a skill's front matter, as
// SkillJect's _inject_into_instruction does.
func injectIntoInstruction(content, payload string) string {
	if m := frontMatterRE.FindStringIndex(content); m != nil {
		return content[:m[1]] + payload + "\n" + content[m[1]:]
	}
	if m := frontMatterLooseRE.FindStringIndex(content); m != nil {
		rest := content[m[1]:]
		if !strings.HasPrefix(rest, "\n") {
			return content[:m[1]] + "\n" + payload + "\n" + rest
		}
		return content[:m[1]] + payload + "\n" + rest
	}
	return payload + "\n\n" + content
}

// pyTripleQuoted returns the Python string literal opened by open after
// the first occurrence of after in file, unescaped (\" and \\ only: the
// payloads use no other escape).
func pyTripleQuoted(tb testing.TB, file, after, open string) string {
	data, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	src := string(data)
	i := strings.Index(src, after)
	if i < 0 {
		tb.Fatalf("%s: no %s", file, after)
	}
	j := strings.Index(src[i:], open)
	if j < 0 {
		tb.Fatalf("%s: no %s after %s", file, open, after)
	}
	body := src[i+j+len(open):]
	for k := 0; k+3 <= len(body); k++ {
		if body[k] == '\\' {
			k++
			continue
		}
		if body[k:k+3] == `"""` {
			return strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(body[:k])
		}
	}
	tb.Fatalf("%s: unterminated string after %s", file, after)
	return ""
}

// maliciousVariants are the variants of the Malicious SKILL.md Research
// Dataset whose README row names a credential harvest: variant1 (a hidden
// block that gathers SSH keys, cloud credentials and .env files into a
// parameter) and variant4 (a security audit that collects credentials). The
// other two hold their harm in what a command installs or runs (curl | bash,
// a base64 reverse shell).
var maliciousVariants = []string{"variant1", "variant4"}

func loadMaliciousVariants(tb testing.TB, dir string) []sample {
	var out []sample
	for _, v := range maliciousVariants {
		for _, s := range loadSkillDirs(tb, "", filepath.Join(dir, "mnt/user-data/outputs/malicious_skill_variants", v), nil) {
			s.id, s.dir, s.attack, s.harvest = v, v, true, true
			out = append(out, s)
		}
	}
	return out
}

// loadGuardBench reads mcp-guardbench's cases (cases/BUCKET/ID.json, one
// JSON-RPC frame each) whose frame is a tools/list result: the scanner
// reads definitions, not the arguments of calls, their results, prompts
// or elicitations. A case of the attacks bucket is one attack, caught
// when any tool of its listing is (two list clean tools beside the
// poisoned one); each tool of a benign case is a clean tool. Chosen by
// issue 43's fourth session from the cases' index and frames, after its
// rules were written and before any verdict on them was seen.
func loadGuardBench(tb testing.TB, dir string) []sample {
	var out []sample
	for _, bucket := range []string{"attacks", "benign"} {
		files, _ := filepath.Glob(filepath.Join(dir, "cases", bucket, "*.json"))
		sort.Strings(files)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			var c struct {
				ID      string `json:"id"`
				Message struct {
					Result struct {
						Tools []*mcp.Tool `json:"tools"`
					} `json:"result"`
				} `json:"message"`
			}
			if err := json.Unmarshal(data, &c); err != nil {
				tb.Fatalf("%s: %v", f, err)
			}
			tools := c.Message.Result.Tools
			if len(tools) == 0 {
				continue
			}
			if bucket == "attacks" {
				out = append(out, sample{id: c.ID, attack: true, tools: tools})
				continue
			}
			for _, t := range tools {
				out = append(out, sample{id: c.ID + ":" + t.Name, tool: t})
			}
		}
	}
	return out
}
