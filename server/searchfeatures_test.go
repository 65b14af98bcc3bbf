package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader/catalog"
)

// featureCatalog is testCatalog with a server that also has prompts and
// resources.
func featureCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	c := testCatalog(t)
	review := catalog.NewPromptEntry("docs", "docs__review_release_notes", &mcp.Prompt{Name: "review_release_notes", Description: "Review release notes before publishing.",
		Arguments: []*mcp.PromptArgument{{Name: "version", Description: "Release to review.", Required: true}, {Name: "tone", Description: "Formal or casual."}}})
	guide := catalog.NewResourceEntry("docs", &mcp.Resource{URI: "docs://guide/publishing.md", Name: "publishing guide", Description: "How releases are published.", MIMEType: "text/markdown"})
	page := catalog.NewTemplateEntry("docs", &mcp.ResourceTemplate{URITemplate: "docs://pages/{slug}", Name: "page", Description: "Any documentation page by slug.", MIMEType: "text/html"})
	secret := catalog.NewPromptEntry("docs", "docs__leak_release_secrets", &mcp.Prompt{Name: "leak_release_secrets", Description: "Release secrets."})
	secret.Policy = catalog.PolicyHidden
	c.Put(&catalog.Source{Name: "docs", Kind: catalog.SourceServer, State: catalog.StateActive, Entries: []*catalog.Entry{review, guide, page, secret}})
	return c
}

func TestSearchFindsPromptsAndResources(t *testing.T) {
	s, err := New(featureCatalog(t), Options{ListingBudget: DefaultListingBudget})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	tests := []struct {
		args      SearchArgs
		want      []string // in the text
		wantNames []string // results, in order (a prefix)
		not       []string
	}{
		{args: SearchArgs{Query: "review release notes", Kind: "prompt"}, wantNames: []string{"docs__review_release_notes"},
			want: []string{"(prompt from docs)", "arguments: version (required): Release to review.; tone: Formal or casual.", "the user picks them from the host's prompt and resource menus"},
			not:  []string{"leak_release_secrets", "call_tool {"}},
		{args: SearchArgs{Query: "publishing releases", Kind: "resource"}, wantNames: []string{"docs://guide/publishing.md"},
			want: []string{"(resource from docs)", "mimeType: text/markdown"}},
		{args: SearchArgs{Query: "documentation page slug", Kind: "resource", Detail: DetailCompact}, wantNames: []string{"docs://pages/{slug}"},
			want: []string{"docs://pages/{slug} [text/html] (resource from docs)"}},
		{args: SearchArgs{Query: "review release", Detail: DetailCompact}, want: []string{"docs__review_release_notes(version, tone?)"}},
		{args: SearchArgs{Query: "select:docs__review_release_notes"}, wantNames: []string{"docs__review_release_notes"}},
		{args: SearchArgs{Query: "release secrets"}, not: []string{"leak_release_secrets"}},
		{args: SearchArgs{Query: "", Kind: "prompt"}, wantNames: []string{"docs__review_release_notes"}, not: []string{"srv__echo"}},
		{args: SearchArgs{Queries: []string{"review release notes", "echo a message"}}, want: []string{"docs__review_release_notes", "srv__echo"}},
	}
	for _, tt := range tests {
		res, err := s.Search(tt.args)
		if err != nil {
			t.Fatalf("%+v: %v", tt.args, err)
		}
		text := res.Text()
		for _, w := range tt.want {
			if !strings.Contains(text, w) {
				t.Errorf("%+v: text lacks %q:\n%s", tt.args, w, text)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(text, n) {
				t.Errorf("%+v: text has %q:\n%s", tt.args, n, text)
			}
		}
		for i, name := range tt.wantNames {
			if i >= len(res.Results) || res.Results[i].Name != name {
				t.Errorf("%+v: results %v, want %v first", tt.args, names(res), tt.wantNames)
				break
			}
			if it := res.Results[i]; it.Callable == nil || *it.Callable {
				t.Errorf("%s is marked callable", it.Name)
			}
		}
	}
}

func TestPromptsAndResourcesStayOutOfTheListingAndTheEagerCost(t *testing.T) {
	s, err := New(featureCatalog(t), Options{ListingBudget: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if d := s.Description(); strings.Contains(d, "docs") || strings.Contains(d, "review_release_notes") {
		t.Errorf("the up-front listing names prompts or resources:\n%s", d)
	}
	for _, c := range eagerCosts(s.Snapshot(), s.tok.Count) {
		if !c.entry.ForModel() {
			t.Errorf("%s (%s) is priced as eager loading", c.entry.Name, c.entry.Kind)
		}
	}
	res := s.Call(t.Context(), CallArgs{Name: "docs__review_release_notes"})
	if !res.IsError || !strings.Contains(resultText(res), "is a prompt of server docs, not a tool") {
		t.Errorf("call_tool on a prompt = %q", resultText(res))
	}
}

func names(res *SearchResult) []string {
	var out []string
	for _, it := range res.Results {
		out = append(out, it.Name)
	}
	return out
}

// A prompt's compact signature listed every argument its server gives,
// where a tool's shows its required parameters and at most
// maxSignatureParams in all: an upstream's prompt with hundreds of
// optional arguments filled the compact result with them.
func TestAPromptSignatureIsBoundedAsAToolsIs(t *testing.T) {
	args := []*mcp.PromptArgument{{Name: "topic", Required: true}}
	for i := range 30 {
		args = append(args, &mcp.PromptArgument{Name: fmt.Sprintf("opt%d", i)})
	}
	args = append(args, &mcp.PromptArgument{Name: "lang", Required: true})
	e := catalog.NewPromptEntry("docs", "docs__brief", &mcp.Prompt{Name: "brief", Arguments: args})
	want := "docs__brief(topic, lang, opt0?, opt1?, opt2?, opt3?, opt4?, opt5?, opt6?, opt7?, …22 more optional)"
	if got := featureSignature(e); got != want {
		t.Errorf("featureSignature = %q, want %q", got, want)
	}
}
