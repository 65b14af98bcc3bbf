package hosts

import (
	"slices"
	"strings"
)

// ReadOnlyTools are toolsearch's own tools that read and change nothing:
// the search, the read proxy (which calls only upstream tools annotated
// read-only) and the skill file reader. run_skill_script, call_tool_write
// and call_tool are left to the host to ask about.
var ReadOnlyTools = []string{"tool_search", "call_tool_read", "read_skill_file"}

// CodeReadTool is code mode's read-only tool: its scripts call only what
// call_tool_read calls, so a host lets it run unasked where it lets the
// read proxy. toolsearch lists it only with code mode on (codeMode in
// toolsearch.yaml), and only then do the permissions name it.
const CodeReadTool = "run_code_read"

// ReadOnly lists toolsearch's read-only tools as a configuration serves
// them: ReadOnlyTools, and CodeReadTool with code mode on.
func ReadOnly(codeMode bool) []string {
	if codeMode {
		return append(slices.Clone(ReadOnlyTools), CodeReadTool)
	}
	return ReadOnlyTools
}

// A Permission is what lets a host run toolsearch's read-only tools
// without asking a person. Hosts decide per tool name, and their
// non-interactive modes (claude -p, gemini -p) refuse or leave out what
// they were not told to allow, so a proxied read needs this to run there.
type Permission struct {
	Path  string // the file it goes in, ~ for the home folder
	Merge bool   // merged into what the file has (else a file of its own)
	Text  string
}

// Permissions returns the permission snippet of a host for a
// configuration with code mode on or off, false for a host whose
// registration snippet carries its permissions already (Codex) or that has
// no per-tool permissions toolsearch knows of.
func Permissions(name string, codeMode bool) (Permission, bool) {
	switch name {
	case "claude-code":
		// Claude Code asks before every MCP tool, readOnlyHint or not, and
		// reads permissions.allow from the user's settings.
		var names []string
		for _, t := range ReadOnly(codeMode) {
			names = append(names, `"mcp__toolsearch__`+t+`"`)
		}
		return Permission{
			Path:  "~/.claude/settings.json",
			Merge: true,
			Text:  "{\n  \"permissions\": {\n    \"allow\": [" + strings.Join(names, ", ") + "]\n  }\n}\n",
		}, true
	case "gemini":
		// Gemini CLI's policy engine matches an MCP server's tools by
		// their annotations: every tool toolsearch marks read-only, so the
		// rule is the same with code mode on; only its comment names more.
		return Permission{
			Path: "~/.gemini/policies/toolsearch.toml",
			Text: `# toolsearch's read-only tools (` + strings.Join(ReadOnly(codeMode), ", ") + `)
# run without asking; gemini -p leaves out MCP tools no policy allows.
[[rule]]
toolName = "*"
mcpName = "toolsearch"
toolAnnotations = { readOnlyHint = true }
decision = "allow"
priority = 100
`,
		}, true
	}
	return Permission{}, false
}
