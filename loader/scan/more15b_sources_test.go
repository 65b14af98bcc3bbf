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

// Sources gathered by issue 43's tenth session (helper g15b). Its share was
// incident reports that quote a malicious skill or tool definition in full
// (issues, advisories, write-ups); the session's look-ups ran out after a
// handful of searches, whose excerpts quoted only remote-code droppers or
// cut the payload short, so none of those is laid out. The sources below
// are MCP security tools named in the awesome-lists the session could still
// read, whose own tests or fixtures label a tool definition poisoned. A
// poisoned tool counts when its text has the model read secrets or the
// user's data (keys, .env, the environment, mail) AND send them away: to a
// URL, or into a parameter of the poisoned tool. One that only puts a secret
// into the reply, only reads, or reads /etc/passwd (no secret), or whose
// harm is in handler code the model never reads, is left out; so are ones
// that only say "steal" with nothing read or sent named. Clean tools a test
// asserts clean are probes. The split is the first hex digit of
// sha256(OWNER/NAME): 0-7 development, 8-f held out. The lists were fixed
// from the authors' labels before any verdict of this scanner on them was
// seen.

// g15bPipelockFiles are the files of luckyPipewrench/pipelock (digit 1:
// development) whose Go tests build tools/list responses in backquoted
// JSON.
var g15bPipelockFiles = []string{"internal/mcp/tools/tools_test.go", "internal/cli/audit/simulate.go"}

// g15bPipelockHarvesters (file:test or scenario:tool) are the tools its
// tests expect ScanTools to catch and that send secrets or mail away:
// SchemaDescriptionPoison (a fetch tool whose url parameter says to read
// .env and include it), CurlExecDirective (curl the base64'd environment to
// a c2 URL, "Dangerous Capability"), DataRoutingDirective (pass the full
// email body into the poisoned tool, "Data Routing Directive"),
// SchemaCredentialPrepend (prepend ~/.aws/credentials to the search query,
// "File Exfiltration Directive"), ExfilParamNameDetected and
// CamelCaseExfilParamDetected (CyberArk's attack, "intent encoded in param
// name": a parameter of the poisoned tool named for the SSH key or private
// key read into it), and audit simulate's "IMPORTANT tag in description"
// scenario (its tool-poisoning category: read ~/.ssh/id_rsa and include it
// in the fetch request). Left out: PoisonTag and the schema-enum and
// InjectionAndPoison tools (read the key, send nothing), the tools that only
// say "steal" or "exfiltrate" a secret with no sink named (schema title,
// default and examples, "Steal all secrets", "steal API keys"), the
// scenario whose schema default sends /etc/passwd (no secret), and
// docs/attacks-blocked.md's read_file (the key goes into "your next tool
// call", any tool, not a sink of the attacker's).
var g15bPipelockHarvesters = []string{
	"internal/mcp/tools/tools_test.go:TestScanTools_SchemaDescriptionPoison:fetch",
	"internal/mcp/tools/tools_test.go:TestScanTools_CurlExecDirective:get_weather",
	"internal/mcp/tools/tools_test.go:TestScanTools_DataRoutingDirective:verify_recipient",
	"internal/mcp/tools/tools_test.go:TestScanTools_SchemaCredentialPrepend:search",
	"internal/mcp/tools/tools_test.go:TestScanTools_ExfilParamNameDetected:fetch_data",
	"internal/mcp/tools/tools_test.go:TestScanTools_CamelCaseExfilParamDetected:submit",
	"internal/cli/audit/simulate.go:IMPORTANT tag in description:fetch",
}

// g15bPipelockProbes are the tools its tests assert clean: CleanTools,
// BenignParamNames, AuthParamNoFalsePositive (an api_key parameter, "should
// NOT trigger Exfiltration Parameter Name") and ExtraPoisonClean.
var g15bPipelockProbes = []string{
	"internal/mcp/tools/tools_test.go:TestScanTools_CleanTools:read_file",
	"internal/mcp/tools/tools_test.go:TestScanTools_CleanTools:write_file",
	"internal/mcp/tools/tools_test.go:TestScanTools_BenignParamNames:search",
	"internal/mcp/tools/tools_test.go:TestScanTools_AuthParamNoFalsePositive:get_user_profile",
	"internal/mcp/tools/tools_test.go:TestScanTools_ExtraPoisonClean:helper",
}

// g15bGoScopeRE finds where a Go test function or an audit scenario
// starts; g15bGoToolsRE finds a backquoted tools/list array or response
// inside it.
var (
	g15bGoScopeRE = regexp.MustCompile(`(?m)^func (Test\w+)\(|\bname: "([^"]+)", category:`)
	g15bGoToolsRE = regexp.MustCompile("(?:makeToolsResponse|\\[\\]byte)\\(`(\\[\\{[^`]*\\]|\\{[^`]*\"tools\":[^`]*)`\\)")
)

// g15bGoTools lists the tools of the backquoted JSON in a Go file, each
// with the test function or scenario it sits in.
func g15bGoTools(tb testing.TB, path string) (ids []string, tools []*mcp.Tool) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, nil
	}
	scopes := g15bGoScopeRE.FindAllSubmatchIndex(src, -1)
	for _, m := range g15bGoToolsRE.FindAllSubmatchIndex(src, -1) {
		scope := ""
		for _, s := range scopes {
			if s[0] > m[0] {
				break
			}
			if s[2] >= 0 {
				scope = string(src[s[2]:s[3]])
			} else {
				scope = string(src[s[4]:s[5]])
			}
		}
		raw := src[m[2]:m[3]]
		var list []*mcp.Tool
		if raw[0] == '{' {
			var resp struct {
				Result struct {
					Tools []*mcp.Tool `json:"tools"`
				} `json:"result"`
			}
			if json.Unmarshal(raw, &resp) != nil {
				continue // a fragment a test builds on, not a listing
			}
			list = resp.Result.Tools
		} else if json.Unmarshal(raw, &list) != nil {
			continue
		}
		for _, t := range list {
			if t == nil {
				continue
			}
			if t.InputSchema == nil {
				t.InputSchema = json.RawMessage(`{"type":"object"}`)
			}
			ids = append(ids, scope+":"+t.Name)
			tools = append(tools, t)
		}
	}
	return ids, tools
}

func g15bLoadPipelock(tb testing.TB, dir string) []sample {
	var out []sample
	for _, f := range g15bPipelockFiles {
		ids, tools := g15bGoTools(tb, filepath.Join(dir, f))
		for i, t := range tools {
			id := f + ":" + ids[i]
			switch {
			case containsString(g15bPipelockHarvesters, id):
				out = append(out, g14bToolSample(id, t, true))
			case containsString(g15bPipelockProbes, id):
				out = append(out, g14bToolSample(id, t, false))
			}
		}
	}
	return out
}

// g15bMedusaFixture is Pantheon-Security/medusa's MCP scanner fixture
// (digit 0: development), "Vulnerable MCP Server - Test Fixture ...
// Contains intentional security vulnerabilities", whose tools carry the
// rule they plant in a comment.
const g15bMedusaFixture = "tests/fixtures/mcp/vulnerable-mcp-server.ts"

// g15bMedusaHarvesters are its tools whose comment labels the definition
// a harvest: helper ("MCP101: Tool poisoning - Data exfiltration
// instruction", secretly send ~/.aws/credentials to a host). calculator
// puts the SSH key into the reply, search returns /etc/passwd, and the
// MCP111 tools (read_config, backup) steal in handler code the model never
// reads; none counts. It has no clean fixture.
var g15bMedusaHarvesters = []string{"helper"}

// g15bTSToolRE reads a server.tool({ name, description }) of the fixture.
var g15bTSToolRE = regexp.MustCompile("server\\.tool\\(\\{\\s*name: \"(\\w+)\",\\s*description: (?:`([^`]*)`|\"([^\"]*)\")")

func g15bLoadMedusa(tb testing.TB, dir string) []sample {
	src, err := os.ReadFile(filepath.Join(dir, g15bMedusaFixture))
	if err != nil {
		return nil
	}
	var out []sample
	for _, m := range g15bTSToolRE.FindAllStringSubmatch(string(src), -1) {
		if !containsString(g15bMedusaHarvesters, m[1]) {
			continue
		}
		t := &mcp.Tool{
			Name:        m[1],
			Description: dedent(strings.TrimSpace(m[2] + m[3])),
			InputSchema: json.RawMessage(`{"type":"object"}`),
		}
		out = append(out, g14bToolSample(g15bMedusaFixture+":"+m[1], t, true))
	}
	return out
}

var g15bSources = []corpusSource{
	{name: "luckyPipewrench+pipelock", load: g15bLoadPipelock},
	{name: "Pantheon-Security+medusa", load: g15bLoadMedusa},
}

func init() { corpusSources = append(corpusSources, g15bSources...) }

// TestG15bSourcesLoad checks that each source of this file, when laid out,
// yields the poisoned tools and probes its lists name, with no scan: a
// fixture moved upstream must fail here rather than shrink a figure
// quietly.
func TestG15bSourcesLoad(t *testing.T) {
	want := map[string][2]int{
		"luckyPipewrench+pipelock": {len(g15bPipelockHarvesters), len(g15bPipelockProbes)},
		"Pantheon-Security+medusa": {len(g15bMedusaHarvesters), 0},
	}
	checkToolSourceCounts(t, g15bSources, want)
}
