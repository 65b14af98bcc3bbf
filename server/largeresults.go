package server

import (
	"encoding/json"
	"strings"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Code mode pays off where a tool's results are large: a list read to keep
// three items of it costs the whole list call by call, and the three lines
// a script prints as code. So, with code mode on, a search result for a
// tool whose results are known to be large says so, and names the script
// tool that can call it, before the model pulls a long result into its
// context. toolsearch records no result sizes across sessions, so "known"
// is what the definition says: an output schema that holds an array, or a
// name that lists, searches or queries.

// largeResultNote is the note of a search result for a tool whose results
// are large, naming the code-mode tool whose scripts may call it (that of
// its proxy's class); "" with code mode off, for another tool, or for one
// whose class no code-mode tool calls as its proxy does (call_tool_write's).
func (s *Server) largeResultNote(it *ResultItem) string {
	if s.opts.CodeMode == nil || it.Proxy == "" || it.entry.Tool == nil {
		return ""
	}
	script := ""
	for name, p := range codeTools {
		if p.name == it.Proxy {
			script = name
		}
	}
	if script == "" {
		return ""
	}
	large, ok := s.largeResults.Load(it.entry)
	if !ok {
		large = largeResults(it.entry.Tool)
		s.largeResults.Store(it.entry, large)
	}
	if !large.(bool) {
		return ""
	}
	return "results can be large: a " + script + " script can keep what you need"
}

// largeResults reports whether a tool's results are known to be large:
// its output schema holds an array, or its name has a word that lists,
// searches or queries.
func largeResults(t *mcp.Tool) bool {
	for _, w := range nameWords(t.Name) {
		switch w {
		case "list", "search", "query", "export":
			return true
		}
	}
	if t.OutputSchema == nil {
		return false
	}
	raw, err := json.Marshal(t.OutputSchema)
	if err != nil {
		return false
	}
	var schema any
	if json.Unmarshal(raw, &schema) != nil {
		return false
	}
	return holdsArray(schema, 0)
}

// maxSchemaDepth bounds the walk of an output schema: an array deeper than
// this is a detail of an item, not the shape of the result.
const maxSchemaDepth = 4

// holdsArray reports whether a JSON schema, or one of its properties down
// to maxSchemaDepth, is an array.
func holdsArray(v any, depth int) bool {
	m, ok := v.(map[string]any)
	if !ok || depth > maxSchemaDepth {
		return false
	}
	switch t := m["type"].(type) {
	case string:
		if t == "array" {
			return true
		}
	case []any:
		for _, e := range t {
			if e == "array" {
				return true
			}
		}
	}
	if _, ok := m["items"]; ok {
		return true
	}
	if props, ok := m["properties"].(map[string]any); ok {
		for _, p := range props {
			if holdsArray(p, depth+1) {
				return true
			}
		}
	}
	return false
}

// nameWords splits a tool's name into its lower-case words: at
// underscores, dashes, dots and where camelCase turns upper.
func nameWords(name string) []string {
	var words []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			words = append(words, b.String())
			b.Reset()
		}
	}
	prevLower := false
	for _, r := range name {
		switch {
		case unicode.IsUpper(r):
			if prevLower {
				flush()
			}
			b.WriteRune(unicode.ToLower(r))
			prevLower = false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
			prevLower = true
		default:
			flush()
			prevLower = false
		}
	}
	flush()
	return words
}
