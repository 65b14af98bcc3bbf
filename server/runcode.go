package server

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/utf8cut"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/server/codemode"
)

// Names of the code-mode tools, split as the call proxies are so that a
// host can approve scripts that only read once, and ask for the rest.
const (
	RunCodeRead = "run_code_read"
	RunCode     = "run_code"
)

// CodeArgs is run_code's and run_code_read's input.
type CodeArgs struct {
	Script string `json:"script" jsonschema:"A Starlark program."`
}

var (
	codeInputSchema  = inputSchema[CodeArgs](nil)
	codeInputWire    = wireSchema(codeInputSchema)
	codeArgsAccepted = acceptedArgs(codeInputSchema)
)

// codeAPI is what both descriptions say of a script. Every session pays
// for it on every request while code mode is on: it says when a script
// pays off, what it has, and one example, and no more.
const codeAPI = "; only what it prints (or its last line's value) comes back. Pays off for many calls, large results, filtering. " +
	"Tools are functions, SERVER__TOOL(arg=value), returning results as dicts/lists (text where a tool gives no structure) and stopping the script on failure; " +
	"call(name, args, errors=True) returns r.ok, r.value, r.error instead. search(query) lists tools. No files, network, imports or recursion. E.g.\n" +
	"for p in docs__list()[\"projects\"]:\n  print(p[\"name\"], docs__read(id=p[\"id\"])[\"owner\"])"

// codeTools are the code-mode tools by the proxy whose tools their
// scripts may call.
var codeTools = map[string]proxy{RunCodeRead: proxies[classRead], RunCode: proxies[classAny]}

func codeTool(name string) *mcp.Tool {
	desc := "Run a Starlark (Python-like) script that calls read-only tools" + codeAPI
	a := &mcp.ToolAnnotations{ReadOnlyHint: true}
	if name == RunCode {
		desc = "Run a Starlark (Python-like) script that may call any tool (run_code_read: read-only ones)" + codeAPI
		a = &mcp.ToolAnnotations{DestructiveHint: ptr(true)}
	}
	return &mcp.Tool{Name: name, Description: desc, InputSchema: codeInputWire, Annotations: a, Meta: alwaysLoad()}
}

// codeToolsWanted adds the code-mode tools to own, the own tools wanted,
// when code mode is on: each beside the proxy its scripts call through.
func (s *Server) codeToolsWanted(own map[string]bool) map[string]bool {
	if s.opts.CodeMode == nil {
		return own
	}
	for name, p := range codeTools {
		if own[p.name] {
			own[name] = true
		}
	}
	return own
}

func (s *Server) codeHandler(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args CodeArgs
		if err := decodeArgs(req.Params.Arguments, &args, codeArgsAccepted); err != nil {
			return errorResult(err.Error()), nil
		}
		return s.relayCall(ctx, req, func(ctx context.Context) *mcp.CallToolResult {
			return s.RunCode(s.withLoginPrompter(ctx, req.Session), name, args)
		})
	}
}

// RunCode runs a script as the code-mode tool name does: its calls go
// through that tool's proxy (see codeTools), in this server's view of the
// catalog.
func (s *Server) RunCode(ctx context.Context, name string, args CodeArgs) *mcp.CallToolResult {
	if s.opts.CodeMode == nil {
		return errorResult("code mode is off on this server (codeMode in toolsearch.yaml, or serve --code-mode, turns it on); call tools through the call proxies instead")
	}
	if strings.TrimSpace(args.Script) == "" {
		return errorResult("script is required: a Starlark program that calls tools and prints what answers the question")
	}
	return s.codeResult(codemode.Run(ctx, args.Script, codeHost{s: s, p: codeTools[name]}, *s.opts.CodeMode))
}

// codeResult is a script's result as the model reads it: its text, cut
// to the result budget, and nothing else. Claude Code and Codex give the
// model a result's structured content in place of its text, so a
// structured {"output": …} would cost the model every quote of the output
// escaped, more than the output itself: the text says what stopped a
// script, and isError that one did.
func (s *Server) codeResult(r codemode.Result) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s.fitResult(r.Text())}}, IsError: r.Stop != ""}
}

// fitResult cuts text to the result budget, saying so.
func (s *Server) fitResult(text string) string {
	n := s.tok.Count(text)
	if n <= s.opts.ResultBudget {
		return text
	}
	keep := len(text) * s.opts.ResultBudget / n * 9 / 10
	return utf8cut.Prefix(text, keep) + "\n[cut to the result budget: print less]"
}

// codeHost runs a script's calls through the proxy p of s.
type codeHost struct {
	s *Server
	p proxy
}

func (h codeHost) Call(ctx context.Context, name string, args json.RawMessage) codemode.Reply {
	return reply(h.s.callThrough(ctx, h.p, CallArgs{Name: name, Arguments: args}))
}

// reply is a proxy's result as a script gets it.
func reply(res *mcp.CallToolResult) codemode.Reply {
	text := joinedText(res)
	if res.IsError {
		return codemode.Reply{Error: text}
	}
	rep := codemode.Reply{Text: text}
	if res.StructuredContent != nil {
		if raw, err := json.Marshal(res.StructuredContent); err == nil {
			rep.Structured = raw
		}
	}
	return rep
}

// joinedText is a result's text contents, joined by newlines.
func joinedText(res *mcp.CallToolResult) string {
	var text strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			if text.Len() > 0 {
				text.WriteString("\n")
			}
			text.WriteString(t.Text)
		}
	}
	return text.String()
}

func (h codeHost) Search(ctx context.Context, query string) ([]codemode.Found, error) {
	res, err := h.s.Search(SearchArgs{Query: query, Detail: DetailCompact, Kind: string(catalog.KindTool)})
	if err != nil {
		return nil, err
	}
	out := make([]codemode.Found, 0, len(res.Results))
	for _, it := range res.Results {
		out = append(out, codemode.Found{Name: it.Name, Kind: it.Kind, Signature: it.Signature, Description: it.Description})
	}
	return out, nil
}
