package loader

import (
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
// exact JSON written, so that what is served and measured is what the file
// says.
func DecodeTools(data []byte) ([]*mcp.Tool, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		var list struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if err2 := json.Unmarshal(data, &list); err2 != nil {
			return nil, fmt.Errorf("want a JSON array of tools or a tools/list result: %v", err)
		}
		if list.Tools == nil {
			return nil, errors.New(`want a JSON array of tools or an object with a "tools" array`)
		}
		raws = list.Tools
	}
	tools := make([]*mcp.Tool, 0, len(raws))
	for i, raw := range raws {
		var t mcp.Tool
		if err := json.Unmarshal(raw, &t); err != nil {
			return nil, fmt.Errorf("tools[%d]: %v", i, err)
		}
		var schemas struct {
			In  json.RawMessage `json:"inputSchema"`
			Out json.RawMessage `json:"outputSchema"`
		}
		_ = json.Unmarshal(raw, &schemas) // decoded fine just above
		if schemas.In == nil {
			schemas.In = json.RawMessage(`{"type":"object"}`)
		}
		t.InputSchema = schemas.In
		if schemas.Out != nil {
			t.OutputSchema = schemas.Out
		}
		tools = append(tools, &t)
	}
	return tools, nil
}
