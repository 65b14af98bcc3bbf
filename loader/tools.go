package loader

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/parallel"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/problem"
	"github.com/toolsearch/toolsearch/loader/toolfile"
)

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
func LoadToolsFile(spec string) (*catalog.Source, error) {
	ns, file := ParseToolsSpec(spec)
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Read as it streams: a large file held whole while its tools are decoded
	// would raise the start's peak by its own size.
	tools, err := toolfile.ReadTools(bufio.NewReaderSize(f, 256<<10))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	name := ns
	if name == "" {
		name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	}
	src := &catalog.Source{Name: name, Kind: catalog.SourceTools}
	exposedName := func(t *mcp.Tool) string { return catalog.QualifiedName(ns, t.Name) }
	// Entries are made on every core beforehand (a large file's digests
	// are a good part of its load); the few of tools refused are dropped.
	entries := make([]*catalog.Entry, len(tools))
	parallel.For(len(tools), func(i int) { entries[i] = catalog.NewToolEntry(name, exposedName(tools[i]), tools[i]) })
	seen := map[string]bool{}
	for i, t := range tools {
		exposed := exposedName(t)
		problem := func(msg string) {
			src.Problems = append(src.Problems, problem.Problem{File: file, Field: fmt.Sprintf("tools[%d]", i), Severity: problem.SeverityError, Message: msg})
		}
		switch {
		case t.Name == "":
			problem("tool has no name")
			continue
		case seen[exposed]:
			problem(fmt.Sprintf("tool %q appears twice; the first definition is used", exposed))
			continue
		}
		if err := catalog.CheckProxiedName(exposed, t.Name); err != nil {
			problem(err.Error())
			continue
		}
		seen[exposed] = true
		src.Entries = append(src.Entries, entries[i])
	}
	return src, nil
}
