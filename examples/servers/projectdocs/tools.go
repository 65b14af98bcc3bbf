package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	readCap       = 16 << 10 // bytes of a doc returned per project_doc_read call
	defaultLimit  = 10       // search results per page
	maxLimit      = 50
	maxOutline    = 60  // headings shown by project_readme_summary
	maxDocsListed = 100 // doc paths shown by project_readme_summary
	maxIntro      = 1200
)

type (
	listInput   struct{}
	searchInput struct {
		Query   string `json:"query" jsonschema:"Words to look for, e.g. \"deploy configuration\". Case-insensitive; a word also matches longer words that contain it."`
		Project string `json:"project,omitempty" jsonschema:"Only search this project (a name from project_list). Omit to search every project."`
		Limit   int    `json:"limit,omitempty" jsonschema:"Maximum number of results to return, 1-50. Default 10."`
		Offset  int    `json:"offset,omitempty" jsonschema:"Number of ranked results to skip, to page through more results. Default 0."`
	}
	readInput struct {
		Project string `json:"project" jsonschema:"Project name, from project_list."`
		Path    string `json:"path" jsonschema:"Path of the doc inside the project, as shown by project_docs_search or project_readme_summary, e.g. \"docs/deploy.md\"."`
		Offset  int    `json:"offset,omitempty" jsonschema:"Byte offset to start reading at. Use 0 (the default) for the beginning, the offset named in a truncation marker to continue, or a section offset from project_docs_search to jump to it."`
	}
	summaryInput struct {
		Project string `json:"project" jsonschema:"Project name, from project_list."`
	}
)

// newServer returns the projectdocs MCP server serving the docs in lib.
func newServer(lib *library, logger *slog.Logger) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{
		Name:    "projectdocs",
		Title:   "Project docs (read-only Markdown)",
		Version: "v0.1.0",
	}, &mcp.ServerOptions{
		Logger: logger,
		Instructions: "Read-only access to the Markdown documentation of several projects. " +
			"Start with project_list or project_docs_search, then read with project_doc_read.",
	})

	// Every tool only reads files under the configured root.
	readOnly := func(title string) *mcp.ToolAnnotations {
		closed := false
		return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, OpenWorldHint: &closed}
	}
	h := &handlers{lib: lib}

	mcp.AddTool(server, &mcp.Tool{
		Name:        "project_list",
		Description: "List the projects whose documentation is available, with each project's number of Markdown docs and the title of its README.",
		Annotations: readOnly("List projects"),
	}, h.list)
	mcp.AddTool(server, &mcp.Tool{
		Name: "project_docs_search",
		Description: "Search the projects' Markdown docs for words. Returns ranked matching sections, each with " +
			"project, doc path, doc title, section heading, line, a byte offset for project_doc_read, and a snippet.",
		Annotations: readOnly("Search project docs"),
	}, h.search)
	mcp.AddTool(server, &mcp.Tool{
		Name: "project_doc_read",
		Description: fmt.Sprintf("Read a Markdown doc of a project. Returns up to %d KiB of text starting at a byte offset; "+
			"longer docs end with a marker naming the offset to continue from.", readCap>>10),
		Annotations: readOnly("Read a project doc"),
	}, h.read)
	mcp.AddTool(server, &mcp.Tool{
		Name:        "project_readme_summary",
		Description: "Summarize a project from its README.md: title, first paragraph and an outline of its headings, plus the list of the project's docs.",
		Annotations: readOnly("Summarize a project README"),
	}, h.summary)
	return server
}

// handlers holds the tool implementations. Errors they return become tool
// error results (isError: true) that the model can read and act on.
type handlers struct {
	lib *library
}

// textResult wraps plain text; these tools answer in text rather than
// structured output because their results are prose and Markdown a model
// reads directly.
func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func (h *handlers) list(_ context.Context, _ *mcp.CallToolRequest, _ listInput) (*mcp.CallToolResult, any, error) {
	projects, err := h.lib.projects()
	if err != nil {
		return nil, nil, err
	}
	if len(projects) == 0 {
		return textResult("No projects: the docs root has no project folders."), nil, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d projects:\n", len(projects))
	for _, p := range projects {
		docs, err := h.lib.docs(p)
		if err != nil {
			return nil, nil, err
		}
		title := "(no README)"
		if readme := findReadme(docs); readme != "" {
			if text, err := h.lib.readWhole(p, readme); err == nil {
				title = cmp.Or(parseMarkdown(text).Title, "(README has no title)")
			}
		}
		fmt.Fprintf(&b, "- %s: %s, %s\n", p, plural(len(docs), "doc"), title)
	}
	return textResult(b.String()), nil, nil
}

func (h *handlers) search(_ context.Context, _ *mcp.CallToolRequest, in searchInput) (*mcp.CallToolResult, any, error) {
	if len(searchTerms(in.Query)) == 0 {
		return nil, nil, errors.New("query needs at least one word to search for")
	}
	if in.Offset < 0 || in.Limit < 0 {
		return nil, nil, errors.New("limit and offset must not be negative")
	}
	limit := min(cmp.Or(in.Limit, defaultLimit), maxLimit)

	matches, err := h.lib.search(in.Query, in.Project)
	if err != nil {
		return nil, nil, err
	}
	where := "all projects"
	if in.Project != "" {
		where = "project " + in.Project
	}
	if len(matches) == 0 {
		return textResult(fmt.Sprintf("No matches for %q in %s.", in.Query, where)), nil, nil
	}
	if in.Offset >= len(matches) {
		return textResult(fmt.Sprintf("%s for %q in %s; offset %d is past the end.",
			plural(len(matches), "match"), in.Query, where, in.Offset)), nil, nil
	}

	page := matches[in.Offset:min(in.Offset+limit, len(matches))]
	var b strings.Builder
	fmt.Fprintf(&b, "%s for %q in %s (showing %d-%d):\n",
		plural(len(matches), "match"), in.Query, where, in.Offset+1, in.Offset+len(page))
	for i, m := range page {
		fmt.Fprintf(&b, "\n%d. %s/%s: %s", in.Offset+i+1, m.Project, m.Path, m.Title)
		if m.Heading != "" && m.Heading != m.Title {
			fmt.Fprintf(&b, " > %s", m.Heading)
		}
		fmt.Fprintf(&b, " (line %d, offset %d)\n", m.Line, m.Offset)
		if m.Snippet != "" {
			fmt.Fprintf(&b, "   %s\n", m.Snippet)
		}
	}
	if next := in.Offset + len(page); next < len(matches) {
		fmt.Fprintf(&b, "\n[%d more matches not shown: call project_docs_search with offset=%d to see them.]\n",
			len(matches)-next, next)
	}
	return textResult(b.String()), nil, nil
}

func (h *handlers) read(_ context.Context, _ *mcp.CallToolRequest, in readInput) (*mcp.CallToolResult, any, error) {
	if in.Offset < 0 {
		return nil, nil, errors.New("offset must not be negative")
	}
	data, size, err := h.lib.readDoc(in.Project, in.Path, int64(in.Offset), readCap)
	if err != nil {
		return nil, nil, err
	}
	start := in.Offset
	// An offset inside a multi-byte character starts at the next character.
	for len(data) > 0 && !utf8.RuneStart(data[0]) {
		data, start = data[1:], start+1
	}
	end := start + len(data)
	truncated := int64(end) < size
	if truncated {
		data = cutChunk(data)
		end = start + len(data)
	}

	var b strings.Builder
	if start > 0 {
		fmt.Fprintf(&b, "[%s/%s continued from offset %d of %d bytes]\n\n", in.Project, in.Path, start, size)
	}
	b.Write(data)
	if len(data) == 0 {
		b.WriteString("[end of document]")
	}
	if truncated {
		fmt.Fprintf(&b, "\n\n[truncated at offset %d of %d bytes: call project_doc_read with offset=%d to continue]", end, size, end)
	}
	return textResult(b.String()), nil, nil
}

// cutChunk trims a chunk that stops mid-document so it ends cleanly: after
// the last newline if that keeps most of it, else on a character boundary.
func cutChunk(data []byte) []byte {
	if nl := bytes.LastIndexByte(data, '\n'); nl >= len(data)*3/4 {
		return data[:nl+1]
	}
	for i := len(data) - 1; i >= 0 && i >= len(data)-utf8.UTFMax; i-- {
		if utf8.RuneStart(data[i]) {
			if !utf8.FullRune(data[i:]) {
				return data[:i]
			}
			break
		}
	}
	return data
}

func (h *handlers) summary(_ context.Context, _ *mcp.CallToolRequest, in summaryInput) (*mcp.CallToolResult, any, error) {
	docs, err := h.lib.docs(in.Project)
	if err != nil {
		return nil, nil, err
	}
	var b strings.Builder
	if readme := findReadme(docs); readme == "" {
		fmt.Fprintf(&b, "Project %s has no README.md.\n", in.Project)
	} else {
		text, err := h.lib.readWhole(in.Project, readme)
		if err != nil {
			return nil, nil, err
		}
		doc := parseMarkdown(text)
		fmt.Fprintf(&b, "Project: %s\nREADME: %s\nTitle: %s\n", in.Project, readme, cmp.Or(doc.Title, "(none)"))
		if doc.Intro != "" {
			fmt.Fprintf(&b, "\n%s\n", clip(doc.Intro, maxIntro))
		}
		var outline []section
		for _, s := range doc.Sections {
			if s.Level > 0 {
				outline = append(outline, s)
			}
		}
		if len(outline) > 0 {
			b.WriteString("\nOutline (heading, byte offset):\n")
			for _, s := range outline[:min(len(outline), maxOutline)] {
				fmt.Fprintf(&b, "%s- %s (%d)\n", strings.Repeat("  ", s.Level-1), s.Heading, s.Offset)
			}
			if n := len(outline) - maxOutline; n > 0 {
				fmt.Fprintf(&b, "[%d more headings not shown: read %s with project_doc_read]\n", n, readme)
			}
		}
	}

	fmt.Fprintf(&b, "\nDocs (%d):\n", len(docs))
	for _, d := range docs[:min(len(docs), maxDocsListed)] {
		fmt.Fprintf(&b, "- %s\n", d)
	}
	if n := len(docs) - maxDocsListed; n > 0 {
		fmt.Fprintf(&b, "[%d more docs not shown: find them with project_docs_search]\n", n)
	}
	return textResult(b.String()), nil, nil
}

// findReadme returns the project's top-level README.md (any case), or "".
func findReadme(docs []string) string {
	found := ""
	for _, d := range docs {
		if d == "README.md" {
			return d
		}
		if found == "" && strings.EqualFold(d, "README.md") {
			found = d
		}
	}
	return found
}

func plural(n int, word string) string {
	switch {
	case n == 1:
		return "1 " + word
	case strings.HasSuffix(word, "ch"):
		return fmt.Sprintf("%d %ses", n, word)
	default:
		return fmt.Sprintf("%d %ss", n, word)
	}
}

// clip shortens s to at most n bytes on a word boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := s[:n]
	if i := strings.LastIndexByte(cut, ' '); i > 0 {
		cut = cut[:i]
	}
	return strings.ToValidUTF8(cut, "") + " […]"
}
