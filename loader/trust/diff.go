package trust

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pmezard/go-difflib/difflib"

	"github.com/toolsearch/toolsearch/loader/scan"
)

// schemaParts are the parts of an input schema a change summary names.
type schemaParts struct {
	Properties map[string]json.RawMessage `json:"properties"`
	Required   []string                   `json:"required"`
}

func parseSchema(v any) schemaParts {
	var p schemaParts
	data, ok := v.(json.RawMessage)
	if !ok {
		data, _ = json.Marshal(v)
	}
	_ = json.Unmarshal(data, &p)
	return p
}

// showableName matches parameter names that may be shown to the model as
// they are; others are counted, not named.
var showableName = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,48}$`)

// maxNamed bounds the parameter names a summary lists.
const maxNamed = 12

// Summarize describes how cur differs from prev (nil for a new tool) in
// words that hold none of cur's text but its parameters' names, and only
// names that are short, plain and not flagged by the scanner: what the
// model may read of a held tool.
func Summarize(prev, cur *mcp.Tool) string {
	now := parseSchema(cur.InputSchema)
	if prev == nil {
		names := slices.Sorted(maps.Keys(now.Properties))
		if len(names) == 0 {
			return "a new tool without parameters"
		}
		return fmt.Sprintf("a new tool with %s: %s", count(len(names), "parameter"), nameList(names))
	}
	was := parseSchema(prev.InputSchema)
	var added, removed, changed []string
	for name, def := range now.Properties {
		old, ok := was.Properties[name]
		switch {
		case !ok:
			added = append(added, name)
		case canonical(old) != canonical(def):
			changed = append(changed, name)
		}
	}
	for name := range was.Properties {
		if _, ok := now.Properties[name]; !ok {
			removed = append(removed, name)
		}
	}
	var parts []string
	if prev.Description != cur.Description {
		parts = append(parts, "description changed")
	}
	if prev.Title != cur.Title {
		parts = append(parts, "title changed")
	}
	for _, c := range []struct {
		label string
		names []string
	}{{"parameters added", added}, {"parameters removed", removed}, {"parameters changed", changed}} {
		if len(c.names) > 0 {
			slices.Sort(c.names)
			parts = append(parts, c.label+": "+nameList(c.names))
		}
	}
	if sortedJoin(was.Required) != sortedJoin(now.Required) {
		parts = append(parts, "required parameters changed")
	}
	if canonical(prev.OutputSchema) != canonical(cur.OutputSchema) {
		parts = append(parts, "output schema changed")
	}
	if canonical(prev.Annotations) != canonical(cur.Annotations) {
		parts = append(parts, "annotations changed")
	}
	if len(parts) == 0 {
		return "definition changed (metadata only)"
	}
	return strings.Join(parts, "; ")
}

// nameList lists parameter names that are safe to show, and counts the
// others.
func nameList(names []string) string {
	var shown []string
	hidden := 0
	for _, n := range names {
		if showableName.MatchString(n) && len(scan.Text("name", n)) == 0 && len(shown) < maxNamed {
			shown = append(shown, n)
		} else {
			hidden++
		}
	}
	if hidden > 0 {
		shown = append(shown, fmt.Sprintf("%d more not shown", hidden))
	}
	return strings.Join(shown, ", ")
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func sortedJoin(s []string) string {
	s = slices.Clone(s)
	slices.Sort(s)
	return strings.Join(s, "\x00")
}

// canonical is a value's JSON with object keys sorted, so that equal
// definitions compare equal however they were written.
func canonical(v any) string {
	if v == nil {
		return ""
	}
	data, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	var x any
	if json.Unmarshal(data, &x) != nil {
		return string(data)
	}
	data, _ = json.Marshal(x)
	if string(data) == "null" {
		return ""
	}
	return string(data)
}

// pretty is a definition as indented JSON with sorted keys and every
// invisible character revealed; a text (a server's instructions) is its
// lines, revealed.
func pretty(v any) []string {
	switch v := v.(type) {
	case nil:
		return nil
	case *mcp.Tool:
		if v == nil {
			return nil
		}
	case string:
		return difflib.SplitLines(scan.Reveal(v))
	}
	var x any
	data, _ := json.Marshal(v)
	_ = json.Unmarshal(data, &x)
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // <IMPORTANT> reads better than \u003cIMPORTANT\u003e
	enc.SetIndent("", "  ")
	_ = enc.Encode(x)
	return difflib.SplitLines(scan.Reveal(b.String()))
}

// maxDiffLines bounds each side of a Diff: a definition of more lines is
// shown in part.
const maxDiffLines = 4000

// Diff shows how cur differs from prev (nil for a new tool) as a unified
// diff of their JSON, keys sorted and invisible characters revealed, for
// the operator who approves it.
func Diff(prev, cur *mcp.Tool) string {
	var p any
	if prev != nil {
		p = prev
	}
	return DiffValues(p, cur)
}

// DiffValues is Diff for any definition: a prompt, a resource, or a
// server's instructions (a string, diffed line by line). prev is nil when
// none was approved.
func DiffValues(prev, cur any) string {
	a, b := pretty(prev), pretty(cur)
	note := ""
	if len(a) > maxDiffLines || len(b) > maxDiffLines {
		a, b = a[:min(len(a), maxDiffLines)], b[:min(len(b), maxDiffLines)]
		note = fmt.Sprintf("(only the first %d lines of each definition are compared)\n", maxDiffLines)
	}
	if len(b) > 0 && !strings.HasSuffix(b[len(b)-1], "\n") {
		b[len(b)-1] += "\n" // a text without a final line break
	}
	if len(a) > 0 && !strings.HasSuffix(a[len(a)-1], "\n") {
		a[len(a)-1] += "\n"
	}
	from := "approved"
	if prev == nil {
		from = "(none approved)"
	}
	text, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{A: a, B: b, FromFile: from, ToFile: "pending", Context: 3})
	if err != nil {
		return note + err.Error()
	}
	return note + text
}
