package loader

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// NameSeparator joins a namespace (an upstream server, a tools file) and a
// tool's own name into the exposed name, as in github__create_issue.
const NameSeparator = "__"

// ParseToolsSpec splits a --tools argument of the form FILE or NS=FILE.
func ParseToolsSpec(spec string) (namespace, file string) {
	if ns, f, ok := strings.Cut(spec, "="); ok && ns != "" && !strings.ContainsAny(ns, `/\`) {
		return ns, f
	}
	return "", spec
}

// LoadToolsFile loads a static catalog of MCP tool definitions from a JSON
// file holding either an array of tools or a tools/list result. With a
// namespace the tools are exposed as NS__name, otherwise under their own
// names. Tools that cannot be exposed are reported as problems; the rest
// load.
func LoadToolsFile(spec string) (*Source, error) {
	ns, file := ParseToolsSpec(spec)
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	tools, err := DecodeTools(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	name := ns
	if name == "" {
		name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	}
	src := &Source{Name: name, Kind: SourceTools}
	seen := map[string]bool{}
	for i, t := range tools {
		exposed := t.Name
		if ns != "" {
			exposed = ns + NameSeparator + t.Name
		}
		problem := func(msg string) {
			src.Problems = append(src.Problems, Problem{File: file, Field: fmt.Sprintf("tools[%d]", i), Severity: SeverityError, Message: msg})
		}
		switch {
		case t.Name == "":
			problem("tool has no name")
			continue
		case seen[exposed]:
			problem(fmt.Sprintf("tool %q appears twice; the first definition is used", exposed))
			continue
		}
		if err := CheckToolName(exposed); err != nil {
			problem(err.Error())
			continue
		}
		seen[exposed] = true
		src.Entries = append(src.Entries, NewToolEntry(name, exposed, t))
	}
	return src, nil
}

// DecodeTools decodes MCP tool definitions from a JSON array of tools or an
// object with a "tools" array (a tools/list result). Schemas are kept as the
// JSON written, white space aside, so that what is served and measured is
// what the file says. Tools are decoded one at a time, so that a large
// catalog is never held twice over.
func DecodeTools(data []byte) ([]*mcp.Tool, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := openToolsArray(dec); err != nil {
		return nil, err
	}
	var tools []*mcp.Tool
	for i := 0; dec.More(); i++ {
		var t toolJSON
		if err := dec.Decode(&t); err != nil {
			return nil, fmt.Errorf("tools[%d]: %v", i, err)
		}
		def := t.Tool
		def.InputSchema = compact(t.InputSchema)
		if t.InputSchema == nil {
			def.InputSchema = json.RawMessage(`{"type":"object"}`)
		}
		if t.OutputSchema != nil {
			def.OutputSchema = compact(t.OutputSchema)
		}
		tools = append(tools, &def)
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim(']') {
		return nil, fmt.Errorf("tools[%d]: want another tool or the end of the array", len(tools))
	}
	if tools == nil {
		tools = []*mcp.Tool{}
	}
	return tools, nil
}

// compact drops the insignificant white space of a schema, keeping its key
// order: encoding/json sends RawMessage compacted anyway, and the catalog
// holds a schema for every tool.
func compact(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if raw == nil || json.Compact(&b, raw) != nil || b.Len() == len(raw) {
		return raw
	}
	return bytes.Clone(b.Bytes())
}

// toolJSON decodes one tool with its schemas as raw JSON: these fields
// shadow mcp.Tool's own, which would decode the schemas into maps.
type toolJSON struct {
	mcp.Tool
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
}

// openToolsArray reads up to the first element of the tools array: the
// document's own array, or the "tools" array of a tools/list result.
func openToolsArray(dec *json.Decoder) error {
	const want = `want a JSON array of tools or a tools/list result`
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("%s: %v", want, err)
	}
	switch tok {
	case json.Delim('['):
		return nil
	case json.Delim('{'):
	default:
		return errors.New(want)
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return fmt.Errorf("%s: %v", want, err)
		}
		if key == "tools" {
			if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
				return errors.New(`"tools" is not an array`)
			}
			return nil
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return fmt.Errorf("%s: %v", want, err)
		}
	}
	return errors.New(`want a JSON array of tools or an object with a "tools" array`)
}
