package scan

import (
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool scans every text of a tool definition the model may read: its
// title, description, annotations' title, and every string and property
// name of its input and output schemas (the "full-schema" poisoning that
// hides instructions in a parameter's name, default or enum). It also
// applies the shadowing phrases that need no other server's names; see
// Shadowing for the rest.
func Tool(t *mcp.Tool) []Finding {
	d := toolDoc(t)
	return d.scan(toolJSON(t), true)
}

// ToolReferences is Tool and References at once, reading the definition
// once: what a catalog keeps of each tool it scans.
func ToolReferences(t *mcp.Tool) ([]Finding, *Refs) {
	d := toolDoc(t)
	return d.scan(toolJSON(t), true), d.references(t)
}

// Prompt scans a prompt's title, description and arguments. Prompts reach
// a model when a person picks them, with their text unseen.
func Prompt(p *mcp.Prompt) []Finding {
	d := &doc{}
	d.add("title", p.Title)
	d.add("description", p.Description)
	for i, a := range p.Arguments {
		if a == nil {
			continue
		}
		at := fmt.Sprintf("arguments[%d].", i)
		d.add(at+"name", a.Name)
		d.add(at+"title", a.Title)
		d.add(at+"description", a.Description)
	}
	return d.scan(nil, false)
}

// Skill scans a SKILL.md, frontmatter and body, as the model receives it.
// Findings name the file and carry the line of their span. Skills
// legitimately name the tools they use, so shadowing does not apply.
func Skill(file string, raw []byte) []Finding {
	text := string(raw)
	d := &doc{}
	d.add(file, text)
	out := d.scan(nil, false)
	for i := range out {
		out[i].Line = 1 + strings.Count(text[:out[i].Start], "\n")
	}
	return out
}

// toolDoc lays out the texts of a tool definition.
func toolDoc(t *mcp.Tool) *doc {
	d := &doc{}
	d.buf.Grow(len(t.Title) + len(t.Description) + 2*len(separator))
	d.add("title", t.Title)
	d.add("description", t.Description)
	if t.Annotations != nil {
		d.add("annotations.title", t.Annotations.Title)
	}
	d.addJSON("inputSchema", t.InputSchema)
	d.addJSON("outputSchema", t.OutputSchema)
	return d
}

// toolJSON are a tool's JSON documents by field, to name the fields of
// findings in them.
func toolJSON(t *mcp.Tool) map[string]any {
	return map[string]any{"inputSchema": t.InputSchema, "outputSchema": t.OutputSchema}
}
