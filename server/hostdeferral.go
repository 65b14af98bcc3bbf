package server

import (
	"encoding/json"
	"strings"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// The second baseline of a report: deferral as a host does it itself.
// Claude Code (2.1.33x, with its tool search on by default) sends the
// definition of its own search tool and, in a system reminder, one line per
// deferred MCP tool with its name only ("mcp__SERVER__TOOL"); schemas are
// fetched on demand. A server's instructions still go up front. Skills are
// listed by name and description, as the Agent Skills guidance has hosts do.
// The text below is that shape as Claude Code 2.1.332 sends it; the figures
// are counted over it with the report's tokenizer, like every other.

// hostSearchTool is the definition of the host's own search tool.
var hostSearchTool = map[string]any{
	"name": "ToolSearch",
	"description": "Fetches full schema definitions for deferred tools so they can be called.\n\n" +
		"Deferred tools appear by name in <system-reminder> messages. Until fetched, only the name is known — " +
		"there is no parameter schema, so the tool cannot be invoked. This tool takes a query, matches it against " +
		"the deferred tool list, and returns the matched tools' complete JSONSchema definitions inside a <functions> block. " +
		"Once a tool's schema appears in that result, it is callable exactly like any tool defined at the top of the prompt.\n\n" +
		"Result format: each matched tool appears as one <function>{\"description\": \"...\", \"name\": \"...\", \"parameters\": {...}}</function> " +
		"line inside the <functions> block — the same encoding as the tool list at the top of this prompt.\n\n" +
		"Query forms:\n" +
		"- \"select:Read,Edit,Grep\" — fetch these exact tools by name\n" +
		"- \"notebook jupyter\" — keyword search, up to max_results best matches\n" +
		"- \"+slack send\" — require \"slack\" in the name, rank by remaining terms",
	"input_schema": map[string]any{
		"type":     "object",
		"required": []string{"query"},
		"properties": map[string]any{
			"query":       map[string]any{"type": "string", "description": "Query to find deferred tools. Use \"select:<tool_name>\" for direct selection, or keywords to search."},
			"max_results": map[string]any{"type": "number", "description": "Maximum number of results to return (default: 5)", "default": 5},
		},
	},
}

// hostListingHeader opens the host's names-only list.
const hostListingHeader = "<system-reminder>\nThe following deferred tools are available via ToolSearch. " +
	"Their schemas are NOT loaded. Use ToolSearch with query \"select:<name>[,<name>...]\" to load them before calling them.\n"

// hostListingFooter closes it.
const hostListingFooter = "</system-reminder>"

// hostFixedText is what the host's deferral costs with no tool at all.
func hostFixedText() string {
	data, _ := json.Marshal(hostSearchTool)
	return string(data) + hostListingHeader + hostListingFooter
}

// namesOnlyText is what an entry costs up front under the host's own
// deferral: a tool's name line as the host writes it, a skill's name and
// description.
func namesOnlyText(e *catalog.Entry) string {
	if e.Kind == catalog.KindSkill {
		return "- " + e.Name + ": " + e.Description + "\n"
	}
	name := e.Name
	if e.Upstream != "" {
		name = e.Upstream
	}
	return "mcp__" + hostNamePart(e.Source) + "__" + hostNamePart(name) + "\n"
}

// hostNamePart is a server or tool name as Claude Code puts it in a tool
// name: characters other than letters, digits, _ and - become _.
func hostNamePart(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			return r
		}
		return '_'
	}, s)
}
