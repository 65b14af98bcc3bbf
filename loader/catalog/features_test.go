package catalog

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestFeatureTextsAreScreened: what a server says of a prompt or resource
// reaches the model and the host without hidden characters and within
// bounds, while the digest stays the definition's as given.
func TestFeatureTextsAreScreened(t *testing.T) {
	hidden := "\u200b\U000E0041\U000E0042\uFE0F\uFE0F\u202e"
	p := &mcp.Prompt{Name: "sum", Title: "Sum" + hidden, Description: "Sums" + hidden + " numbers.\n\n" + strings.Repeat("More. ", 2000),
		Arguments: []*mcp.PromptArgument{{Name: "n", Description: "How" + hidden + " many."}}}
	e := NewPromptEntry("srv", "srv__sum", p)
	for _, s := range []string{e.Summary, e.Description, e.Prompt.Title, e.Prompt.Description, e.Prompt.Arguments[0].Description} {
		if strings.ContainsFunc(s, func(r rune) bool { return r >= 0xE0000 || r == 0x200B || r == 0xFE0F || r == 0x202E }) {
			t.Errorf("hidden characters kept: %q", s[:min(len(s), 80)])
		}
	}
	if len(e.Description) > maxFeatureDescription+8 || !strings.HasPrefix(e.Description, "Sums numbers. More.") || e.Prompt.Arguments[0].Description != "How many." {
		t.Errorf("description %d bytes: %q…; argument %q", len(e.Description), e.Description[:40], e.Prompt.Arguments[0].Description)
	}
	if e.Digest != jsonDigest(p) || !strings.Contains(p.Title, hidden) {
		t.Error("the digest must be the definition's as given, and the definition left alone")
	}
	r := NewResourceEntry("srv", &mcp.Resource{URI: "notes://a", Name: "a", Title: "Notes" + hidden, Description: "Today" + hidden + "."})
	if r.Resource.Title != "Notes" || r.Resource.Description != "Today." || r.Description != "Today." {
		t.Errorf("resource %q %q %q", r.Resource.Title, r.Resource.Description, r.Description)
	}
}
