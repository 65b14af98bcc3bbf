package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/runner"
)

// ScriptArgs is run_skill_script's input.
type ScriptArgs struct {
	Skill    string   `json:"skill"`
	Script   string   `json:"script"`
	Args     []string `json:"args,omitempty"`
	Stdin    *string  `json:"stdin,omitempty"`
	TimeoutS float64  `json:"timeout_s,omitempty"`
}

const scriptArgsAccepted = `skill (string, required), script (string, required: a path in the skill folder such as scripts/extract.py), args (array of strings), stdin (string, at most 1 MiB), timeout_s (number of seconds)`

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
}

var scriptOutputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "exit_code": {"type": "integer"}, "duration_ms": {"type": "integer"}, "stdout_bytes": {"type": "integer"},
    "truncated": {"type": "boolean"}, "timed_out": {"type": "boolean"}, "cancelled": {"type": "boolean"},
    "signal": {"type": "string"}, "invalid_utf8": {"type": "boolean"}
  },
  "required": ["exit_code", "duration_ms", "stdout_bytes", "truncated", "timed_out"]
}`)

func runScriptTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        RunScript,
		Title:       "Run a skill's script",
		Description: "Run a script that a skill's instructions refer to, such as scripts/extract.py, with arguments. Only what the script prints to stdout comes back (cut at 32 KiB by default), plus its stderr when it fails. It runs in the user's project folder; SKILL_DIR holds the skill's folder.",
		InputSchema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "skill": {"type": "string", "description": "The skill's name."},
    "script": {"type": "string", "description": "Path of the script in the skill folder, e.g. scripts/extract.py."},
    "args": {"type": "array", "items": {"type": "string"}, "description": "Arguments, passed exactly as given (no shell)."},
    "stdin": {"type": "string", "description": "Text for the script's standard input (at most 1 MiB)."},
    "timeout_s": {"type": "number", "exclusiveMinimum": 0, "description": "Seconds before the script is stopped (default 60)."}
  },
  "required": ["skill", "script"],
  "additionalProperties": false
}`),
		OutputSchema: scriptOutputSchema,
		Annotations:  &mcp.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
		Meta:         alwaysLoad(),
	}
}

func (s *Server) handleRunScript(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var args ScriptArgs
	if err := decodeArgs(req.Params.Arguments, &args, scriptArgsAccepted); err != nil {
		return errorResult(err.Error()), nil
	}
	return s.RunScript(ctx, args), nil
}

// RunScript runs run_skill_script: the skill's script out of process, with
// only its stdout (and its stderr on failure) coming back.
func (s *Server) RunScript(ctx context.Context, args ScriptArgs) *mcp.CallToolResult {
	if s.opts.Scripts == nil {
		return errorResult("skill scripts are turned off on this server (toolsearch serve --no-scripts, or scripts.disabled in toolsearch.yaml); tell the user if a skill needs one")
	}
	if args.Script == "" {
		return errorResult("script is required: a path in the skill folder, such as scripts/extract.py")
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
		Nested:   s.nestedFolders(sk),
	}
	if args.Stdin != nil {
		req.Stdin = *args.Stdin
	}
	res, err := s.opts.Scripts.Run(ctx, req)
	if err != nil {
		msg := err.Error()
		if errors.Is(err, runner.ErrDisabled) {
			msg = fmt.Sprintf("scripts of skill %s are turned off on this server (scripts.disabled or scripts.disabledSkills in toolsearch.yaml); tell the user if it needs one", sk.Name)
		}
		return errorResult(msg)
	}
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: res.Text()}},
		StructuredContent: ScriptResult{
			ExitCode:    res.ExitCode,
			DurationMS:  res.Duration.Milliseconds(),
			StdoutBytes: res.StdoutBytes,
			Truncated:   res.Truncated,
			TimedOut:    res.TimedOut,
			Cancelled:   res.Cancelled,
			Signal:      res.Signal,
			InvalidUTF8: res.InvalidUTF8,
		},
		IsError: res.Failed(),
	}
}
