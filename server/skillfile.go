package server

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/skill"
)

// MaxReadChunk bounds one read_skill_file result.
const MaxReadChunk = 64 << 10

// ReadArgs is read_skill_file's input; its fields make the tool's input
// schema (see inputSchema).
type ReadArgs struct {
	Skill  string `json:"skill"`
	Path   string `json:"path" jsonschema:"Path in the skill folder."`
	Offset int64  `json:"offset,omitempty" jsonschema:"Byte offset to continue from."`
}

var (
	readInputSchema = inputSchema[ReadArgs](func(p map[string]*jsonschema.Schema) {
		p["offset"].Minimum = ptr(0.0)
	})
	readInputWire    = wireSchema(readInputSchema)
	readArgsAccepted = acceptedArgs(readInputSchema)
)

func readSkillFileTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        ReadSkillFile,
		Description: "Read a skill's file, e.g. references/guide.md.",
		InputSchema: readInputWire,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)},
		Meta:        alwaysLoad(),
	}
}

func (s *Server) handleReadSkillFile(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var args ReadArgs
	if err := decodeArgs(req.Params.Arguments, &args, readArgsAccepted); err != nil {
		return errorResult(err.Error()), nil
	}
	text, err := s.ReadSkillFile(args)
	if err != nil {
		return errorResult(err.Error()), nil
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
}

// ReadSkillFile returns a chunk of a skill file as the model sees it. It
// serves the bytes snapshotted when the skill was loaded, so nothing outside
// the skill folder is ever read, and what is read agrees with the manifest.
func (s *Server) ReadSkillFile(args ReadArgs) (string, error) {
	sk, err := s.skill(args.Skill)
	if err != nil {
		return "", err
	}
	if len(args.Path) > maxPath {
		return "", fmt.Errorf("path %s is longer than any path in a skill folder: give a path relative to the skill folder, such as references/guide.md", quoteName(args.Path))
	}
	rel, err := skill.CleanRelPath(args.Path)
	if err != nil {
		return "", err
	}
	if err := s.checkOwnFile(sk, rel); err != nil {
		return "", err
	}
	f, ok := sk.File(rel)
	if !ok {
		return "", fmt.Errorf("skill %s has no file %s; its files are: %s", sk.Name, quoteName(rel), fileList(sk))
	}
	if f.Binary() {
		return "", fmt.Errorf("%s is a binary file (%d bytes) and cannot be read as text; if it is a script, run it with run_skill_script", rel, f.Size)
	}
	if args.Offset < 0 || args.Offset > f.Size {
		return "", fmt.Errorf("offset %d is outside %s (%d bytes)", args.Offset, rel, f.Size)
	}
	start := int(args.Offset)
	for start < len(f.Data) && !utf8.RuneStart(f.Data[start]) {
		start++ // never split a character
	}
	end := min(start+MaxReadChunk, len(f.Data))
	for end < len(f.Data) && !utf8.RuneStart(f.Data[end]) {
		end--
	}
	text := string(f.Data[start:end])
	if end < len(f.Data) {
		text += fmt.Sprintf("\n[… %d more bytes: read_skill_file {\"skill\": %q, \"path\": %q, \"offset\": %d}]", len(f.Data)-end, sk.Name, rel, end)
	}
	return text, nil
}

// skill finds a skill by name in the current snapshot.
func (s *Server) skill(name string) (*skill.Skill, error) {
	if name == "" {
		return nil, fmt.Errorf("skill is required: the name of a skill from tool_search")
	}
	e, ok := s.Snapshot().Lookup(name)
	if !ok || e.Kind != catalog.KindSkill {
		return nil, fmt.Errorf("no skill named %s; find skills with tool_search {\"query\": \"...\", \"kind\": \"skill\"}", quoteName(name))
	}
	return e.Skill, nil
}

func fileList(sk *skill.Skill) string {
	var paths []string
	for _, f := range ownFiles(sk) {
		paths = append(paths, f.Path)
	}
	return strings.Join(paths, ", ")
}
