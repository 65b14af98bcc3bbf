package catalog

import (
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/scan"
)

// What an upstream says of a prompt or resource reaches the model (in
// search results) and the host (in its listings) through scan.Clean, the
// screening of every upstream text shown: normalized, hidden characters
// dropped, whitespace collapsed, clipped at these bounds, in bytes. The
// digest is the definition's as the server gave it, which is what review
// shows and a person approves.
const (
	maxFeatureDescription = 4096
	maxFeatureTitle       = 256
)

// cleanDescription and cleanTitle screen a feature's texts.
func cleanDescription(s string) string { return scan.Clean(s, maxFeatureDescription) }
func cleanTitle(s string) string       { return scan.Clean(s, maxFeatureTitle) }

// cleanArguments copies a prompt's arguments with their texts screened.
func cleanArguments(args []*mcp.PromptArgument) []*mcp.PromptArgument {
	if args == nil {
		return nil
	}
	out := make([]*mcp.PromptArgument, len(args))
	for i, a := range args {
		if a == nil {
			continue
		}
		c := *a
		c.Title, c.Description = cleanTitle(a.Title), cleanDescription(a.Description)
		out[i] = &c
	}
	return out
}

// Kinds of the upstream features a person picks rather than the model:
// prompts and resources cost no model context until then, so they are
// listed directly and only found by tool_search, never listed up front.
const (
	KindPrompt   Kind = "prompt"
	KindResource Kind = "resource" // a resource or a resource template
)

// ForModel reports whether the entry is one the model uses itself, a tool
// or a skill: the entries listed up front and priced as eager loading.
func (e *Entry) ForModel() bool { return e.Kind == KindTool || e.Kind == KindSkill }

// NewPromptEntry makes the catalog entry for an upstream prompt exposed as
// name. The prompt is copied, so the caller's definition is never altered.
func NewPromptEntry(source, name string, p *mcp.Prompt) *Entry {
	def := *p
	def.Name = name
	def.Title, def.Description, def.Arguments = cleanTitle(p.Title), cleanDescription(p.Description), cleanArguments(p.Arguments)
	desc := def.Description
	if desc == "" {
		desc = def.Title
	}
	e := &Entry{
		Kind:        KindPrompt,
		Name:        name,
		Source:      source,
		Summary:     Summarize(desc),
		Description: desc,
		Prompt:      &def,
		Policy:      PolicyCallable,
		Digest:      jsonDigest(p),
	}
	if p.Name != name {
		e.Upstream = p.Name
	}
	return e
}

// NewResourceEntry makes the catalog entry for an upstream resource. Its
// name is its URI, exactly as the server gives it: URIs are not namespaced,
// since clients and other resources refer to them.
func NewResourceEntry(source string, r *mcp.Resource) *Entry {
	def := *r
	def.Name, def.Title, def.Description = cleanTitle(r.Name), cleanTitle(r.Title), cleanDescription(r.Description)
	e := resourceEntry(source, r.URI, jsonDigest(r), def.Description, def.Title, def.Name)
	e.Resource = &def
	return e
}

// NewTemplateEntry makes the catalog entry for an upstream resource
// template. Its name is its URI template.
func NewTemplateEntry(source string, t *mcp.ResourceTemplate) *Entry {
	def := *t
	def.Name, def.Title, def.Description = cleanTitle(t.Name), cleanTitle(t.Title), cleanDescription(t.Description)
	e := resourceEntry(source, t.URITemplate, jsonDigest(t), def.Description, def.Title, def.Name)
	e.Template = &def
	return e
}

// resourceEntry makes the entry of a resource or template named name,
// described by the first of its description, title and name that says
// something.
func resourceEntry(source, name, digest string, texts ...string) *Entry {
	var desc string
	for _, s := range texts {
		if strings.TrimSpace(s) != "" {
			desc = s
			break
		}
	}
	return &Entry{
		Kind:        KindResource,
		Name:        name,
		Source:      source,
		Summary:     Summarize(desc),
		Description: desc,
		Policy:      PolicyCallable,
		Digest:      digest,
	}
}

// Prompt finds an upstream prompt by its exposed name, falling back to a
// case-insensitive match when only one prompt's name matches so.
func (s *Snapshot) Prompt(name string) (*Entry, bool) {
	if e, ok := s.byPrompt[name]; ok {
		return e, true
	}
	e := s.byPromptFold[strings.ToLower(name)]
	return e, e != nil
}

// Resource finds an upstream resource by its exact URI.
func (s *Snapshot) Resource(uri string) (*Entry, bool) {
	e, ok := s.byURI[uri]
	return e, ok
}

// ResourceTemplate finds an upstream resource template by its exact URI
// template.
func (s *Snapshot) ResourceTemplate(uriTemplate string) (*Entry, bool) {
	e, ok := s.byTemplate[uriTemplate]
	return e, ok
}

// kindOrder sorts a source's entries: what the model uses first, then
// prompts, then resources.
func kindOrder(k Kind) int {
	switch k {
	case KindPrompt:
		return 1
	case KindResource:
		return 2
	}
	return 0
}

// uriKey tells resources from templates in the map of URI claims.
func uriKey(e *Entry) string {
	if e.Template != nil {
		return "template " + e.Name
	}
	return "resource " + e.Name
}

// contestedURIs finds the URIs (and URI templates) that listed resources of
// more than one source claim, with the sources claiming each. Reading such a
// URI could go to either server, so no source gets it: every claim is
// refused, and hiding the resource on all but one server settles it.
func contestedURIs(order []string, sources map[string]*Source) map[string][]string {
	claims := map[string][]string{}
	for _, name := range order {
		claimed := map[string]bool{}
		for _, e := range sources[name].Entries {
			if e.Kind != KindResource || !e.Listed() || claimed[uriKey(e)] {
				continue
			}
			claimed[uriKey(e)] = true
			claims[uriKey(e)] = append(claims[uriKey(e)], name)
		}
	}
	for k, srcs := range claims {
		if len(srcs) < 2 {
			delete(claims, k)
		}
	}
	return claims
}

// contestedReason says why a resource was refused.
func contestedReason(e *Entry, claimants []string) string {
	var others []string
	for _, s := range claimants {
		if s != e.Source {
			others = append(others, s)
		}
	}
	return fmt.Sprintf("%s is also claimed by %s, so no server gets it; hide it on all but one with a policy glob (servers.NAME.policy in toolsearch.yaml)",
		e.Name, strings.Join(others, ", "))
}
