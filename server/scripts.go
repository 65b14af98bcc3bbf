package server

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/skill"
	"github.com/toolsearch/toolsearch/runner"
)

// ScriptArgs is run_skill_script's input; its fields make the tool's input
// schema (see inputSchema).
type ScriptArgs struct {
	Skill    string   `json:"skill"`
	Script   string   `json:"script" jsonschema:"Path in the skill folder."`
	Args     []string `json:"args,omitempty" jsonschema:"Arguments (no shell)."`
	Stdin    string   `json:"stdin,omitempty"`
	TimeoutS float64  `json:"timeout_s,omitempty" jsonschema:"Seconds (default 60)."`
}

var (
	scriptInputSchema = inputSchema[ScriptArgs](func(p map[string]*jsonschema.Schema) {
		p["timeout_s"].ExclusiveMinimum = ptr(0.0)
	})
	scriptInputWire    = wireSchema(scriptInputSchema)
	scriptArgsAccepted = acceptedArgs(scriptInputSchema)
)

// ScriptResult is run_skill_script's structured result.
type ScriptResult struct {
	ExitCode    int    `json:"exit_code"`
	DurationMS  int64  `json:"duration_ms"`
	StdoutBytes int64  `json:"stdout_bytes"`
	Truncated   bool   `json:"truncated"`
	TimedOut    bool   `json:"timed_out"`
	Cancelled   bool   `json:"cancelled,omitempty"`
	Signal      string `json:"signal,omitempty"`
	InvalidUTF8 bool   `json:"invalid_utf8,omitempty"`
	// Output is the text result: stdout, then notes and stderr on failure.
	// Claude Code and Codex give the model this, not the text.
	Output string `json:"output"`
}

func runScriptTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        RunScript,
		Description: "Run a skill's script, e.g. scripts/extract.py, in the project folder; only its output comes back.",
		InputSchema: scriptInputWire,
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true)},
		Meta:        alwaysLoad(),
	}
}

func (s *Server) handleRunScript(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var args ScriptArgs
	if err := decodeArgs(req.Params.Arguments, &args, scriptArgsAccepted); err != nil {
		return errorResult(err.Error()), nil
	}
	return s.runScript(ctx, args, s.scriptDir(ctx, req)), nil
}

// RunScript runs run_skill_script: the skill's script out of process, with
// only its stdout (and its stderr on failure) coming back.
func (s *Server) RunScript(ctx context.Context, args ScriptArgs) *mcp.CallToolResult {
	return s.runScript(ctx, args, "")
}

// runScript is RunScript in workDir ("" for the runner's own).
func (s *Server) runScript(ctx context.Context, args ScriptArgs, workDir string) *mcp.CallToolResult {
	if s.opts.Scripts == nil {
		return errorResult("skill scripts are turned off on this server (toolsearch serve --no-scripts, or scripts.disabled in toolsearch.yaml); tell the user if a skill needs one")
	}
	if args.Script == "" {
		return errorResult("script is required: a path in the skill folder, such as scripts/extract.py")
	}
	if len(args.Script) > maxPath {
		return errorResult(fmt.Sprintf("script %s is longer than any path in a skill folder: give the path of one of the skill's scripts, such as scripts/extract.py", quoteName(args.Script)))
	}
	if args.TimeoutS < 0 {
		return errorResult(fmt.Sprintf("timeout_s must be positive, got %v", args.TimeoutS))
	}
	sk, err := s.skill(args.Skill)
	if err != nil {
		return errorResult(err.Error())
	}
	req := runner.Request{
		Skill:    sk.Name,
		SkillDir: sk.Dir,
		Script:   args.Script,
		Args:     args.Args,
		Timeout:  time.Duration(args.TimeoutS * float64(time.Second)),
		Stdin:    args.Stdin,
		Nested:   s.nestedFolders(sk),
		WorkDir:  workDir,
	}
	res, err := s.opts.Scripts.Run(ctx, req)
	if err != nil {
		msg := err.Error()
		switch {
		case errors.Is(err, runner.ErrDisabled):
			msg = fmt.Sprintf("scripts of skill %s are turned off on this server (scripts.disabled or scripts.disabledSkills in toolsearch.yaml); tell the user if it needs one", sk.Name)
		case errors.Is(err, fs.ErrNotExist):
			if scripts := skillScripts(sk); len(scripts) > 0 {
				msg += fmt.Sprintf(". Skill %s's scripts are: %s", sk.Name, strings.Join(scripts, ", "))
			} else {
				msg += fmt.Sprintf(". Skill %s has no scripts (no files under scripts/)", sk.Name)
			}
		}
		return errorResult(msg)
	}
	text := res.Text()
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: ScriptResult{
			ExitCode:    res.ExitCode,
			DurationMS:  res.Duration.Milliseconds(),
			StdoutBytes: res.StdoutBytes,
			Truncated:   res.Truncated,
			TimedOut:    res.TimedOut,
			Cancelled:   res.Cancelled,
			Signal:      res.Signal,
			InvalidUTF8: res.InvalidUTF8,
			Output:      text,
		},
		IsError: res.Failed(),
	}
}

// scriptExts are the files taken for scripts outside scripts/.
var scriptExts = []string{".py", ".sh", ".bash", ".js", ".mjs", ".ts", ".rb", ".pl", ".ps1"}

// skillScripts lists a skill's scripts, for a call that named one it does
// not have: the files under scripts/, or else those that look like one;
// never those of the skills nested in it, which it cannot run.
func skillScripts(sk *skill.Skill) []string {
	var under, others []string
	for _, f := range ownFiles(sk) {
		switch {
		case strings.HasPrefix(f.Path, "scripts/"):
			under = append(under, f.Path)
		case slices.Contains(scriptExts, path.Ext(f.Path)):
			others = append(others, f.Path)
		}
	}
	if len(under) > 0 {
		return under
	}
	return others
}
