package server

import (
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader/catalog"
)

// setFeatureDetail fills the detail of a prompt or resource item: in full
// its description and its arguments or MIME type, compact a signature
// (a prompt's arguments, a resource's MIME type), names only the one-liner.
func setFeatureDetail(it *ResultItem, detail string) {
	e := it.entry
	switch detail {
	case DetailFull:
		it.Description = e.Description
		switch {
		case e.Prompt != nil:
			it.Arguments = e.Prompt.Arguments
		case e.Resource != nil:
			it.MIMEType = e.Resource.MIMEType
		case e.Template != nil:
			it.MIMEType = e.Template.MIMEType
		}
	case DetailCompact:
		it.Signature = featureSignature(e)
	}
}

// featureSignature is a prompt's name with its arguments, bounded and
// ordered as a tool's parameters are (required first, optional ones
// marked), or a resource's URI with its MIME type.
func featureSignature(e *catalog.Entry) string {
	switch {
	case e.Prompt != nil:
		var required, optional []string
		for _, a := range e.Prompt.Arguments {
			switch {
			case a == nil:
			case a.Required:
				required = append(required, a.Name)
			default:
				optional = append(optional, a.Name+"?")
			}
		}
		return joinParams(e.Name, required, optional)
	case e.Resource != nil && e.Resource.MIMEType != "":
		return e.Name + " [" + e.Resource.MIMEType + "]"
	case e.Template != nil && e.Template.MIMEType != "":
		return e.Name + " [" + e.Template.MIMEType + "]"
	}
	return e.Name
}

// promptArguments renders a prompt's arguments on one line.
func promptArguments(args []*mcp.PromptArgument) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		if a == nil {
			continue
		}
		p := a.Name
		if a.Required {
			p += " (required)"
		}
		if d := firstLine(a.Description); d != "" {
			p += ": " + d
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "; ")
}

// featureNamed finds the listed prompt, resource or resource template a name
// names.
func featureNamed(snap *catalog.Snapshot, name string) (*catalog.Entry, bool) {
	for _, find := range []func(string) (*catalog.Entry, bool){snap.Prompt, snap.Resource, snap.ResourceTemplate} {
		if e, ok := find(name); ok && e.Listed() {
			return e, true
		}
	}
	return nil, false
}
