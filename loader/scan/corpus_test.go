package scan

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// poisoned is one definition of testdata/poisoned.json: written for these
// tests in a style a public write-up documents (ref), with the rules that
// must flag it.
type poisoned struct {
	ID     string      `json:"id"`
	Style  string      `json:"style"`
	Ref    string      `json:"ref"`
	Kind   string      `json:"kind"` // tool, prompt or skill
	Server string      `json:"server"`
	Tool   *mcp.Tool   `json:"tool"`
	Prompt *mcp.Prompt `json:"prompt"`
	Skill  string      `json:"skill"`
	// Others are tools of other servers, as [server, tool] pairs, for
	// shadowing.
	Others [][2]string `json:"others"`
	Want   []Rule      `json:"want"`
}

func loadPoisoned(t *testing.T) []poisoned {
	t.Helper()
	data, err := os.ReadFile("testdata/poisoned.json")
	if err != nil {
		t.Fatal(err)
	}
	var corpus []poisoned
	if err := json.Unmarshal(data, &corpus); err != nil {
		t.Fatal(err)
	}
	return corpus
}

// scanPoisoned scans a corpus entry as toolsearch would.
func scanPoisoned(p poisoned) []Finding {
	switch p.Kind {
	case "tool":
		var names Names
		names.Add(p.Server, p.Tool.Name, p.Server+"__"+p.Tool.Name)
		for _, o := range p.Others {
			names.Add(o[0], o[1], o[0]+"__"+o[1])
		}
		return append(Tool(p.Tool), Shadowing(p.Server, p.Tool, &names)...)
	case "prompt":
		return Prompt(p.Prompt)
	case "skill":
		return Skill("SKILL.md", []byte(p.Skill))
	}
	return nil
}

// TestPoisonedCorpus scans every poisoned definition of the corpus: each
// must be caught, by at least the rules it lists.
func TestPoisonedCorpus(t *testing.T) {
	corpus := loadPoisoned(t)
	if len(corpus) < 40 {
		t.Fatalf("the corpus holds %d definitions; it must hold at least 40", len(corpus))
	}
	caught := 0
	for _, p := range corpus {
		fs := scanPoisoned(p)
		got := rules(fs)
		ok := len(fs) > 0
		for _, r := range p.Want {
			if !slices.Contains(got, r) {
				ok = false
				t.Errorf("%s (%s): rule %s did not flag it; found %v", p.ID, p.Style, r, fs)
			}
		}
		if ok {
			caught++
		}
	}
	t.Logf("poisoned corpus: %d of %d definitions caught", caught, len(corpus))
}
