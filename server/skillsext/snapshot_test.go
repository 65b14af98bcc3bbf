package skillsext

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/snapshot"
	"github.com/toolsearch/toolsearch/loader/catalog"
)

// TestSnapshots keeps the shapes a skill takes for clients besides the
// extension's own methods (which the wire goldens of cmd/toolsearch hold)
// in reviewed files (testdata/snapshots): the prompt a skill is, what
// getting it returns, and its files as resources. UPDATE_SNAPSHOTS=1 go
// test rewrites them.
func TestSnapshots(t *testing.T) {
	sk := memSkill("csv-audit", 1, map[string]string{"references/rules.md": "# Rules\n"})
	sk.Frontmatter["license"] = "MIT"
	catalog := catalog.New()
	putSkills(catalog, sk)
	cs := skillsClient(t, catalog, "2025-11-25")
	ctx := context.Background()

	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(prompts.Prompts) != 1 {
		t.Fatalf("prompts/list: %v %v", prompts, err)
	}
	snapshot.Check(t, "prompts/skill", prompts.Prompts[0])
	got, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "csv-audit"})
	if err != nil {
		t.Fatal(err)
	}
	snapshot.Check(t, "prompts/skill.get", got)
	resources, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range resources.Resources {
		switch r.URI {
		case "skill://csv-audit/SKILL.md":
			snapshot.Check(t, "resources/skill-md", r)
		case "skill://csv-audit/references/rules.md":
			snapshot.Check(t, "resources/skill-file", r)
		default:
			t.Errorf("unexpected resource %s", r.URI)
		}
	}
}
