package server

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/server/codemode"
)

// A CodeTask is a piece of work measured both ways: call by call through
// the proxies, and as one script (see MeasureCode).
type CodeTask struct {
	Name string `json:"name"`
	// Script does the work; the calls it makes are the ones the model
	// would make one by one through the proxies.
	Script string `json:"-"`
	// Tools must all be callable for the task to be measured.
	Tools []string `json:"-"`
}

// ExampleCodeTasks are the tasks measure runs over the example servers
// (examples/mcp.json): each is measured when its tools are in the catalog.
var ExampleCodeTasks = []CodeTask{
	{
		Name:  "projectdocs: list the projects, read each README, name the one with the most sections",
		Tools: []string{"projectdocs__project_list", "projectdocs__project_doc_read"},
		Script: `r = []
for l in projectdocs__project_list().splitlines()[1:]:
    p = l[2:].split(':')[0]
    d = projectdocs__project_doc_read(project=p, path='README.md')
    r.append((d.count('\n## '), p))
max(r)`,
	},
	{
		Name:   "projectdocs: one call (the project list)",
		Tools:  []string{"projectdocs__project_list"},
		Script: `projectdocs__project_list()`,
	},
	{
		Name:   "weather: one call",
		Tools:  []string{"weather__get_weather"},
		Script: `weather__get_weather(city='Paris')`,
	},
}

// CodeTaskCost compares the context tokens of one task done call by call
// through the proxies (each request, then each result as the model reads
// it) with one run_code_read (its request, then what the script printed).
type CodeTaskCost struct {
	Task         string  `json:"task"`
	Calls        int     `json:"calls"`
	ProxyTokens  int     `json:"proxyTokens"`
	ScriptTokens int     `json:"scriptTokens"`
	Ratio        float64 `json:"ratio"` // ScriptTokens / ProxyTokens
	// Error says why the task could not be measured ("" when it was).
	Error string `json:"error,omitempty"`
}

// MeasureCode runs each task whose tools this server can call, and counts
// both ways of doing it over the exact text each returns.
func (s *Server) MeasureCode(ctx context.Context, tasks []CodeTask) []CodeTaskCost {
	var out []CodeTaskCost
	snap := s.Snapshot()
tasks:
	for _, t := range tasks {
		for _, name := range t.Tools {
			if e, err := resolveTool(snap, name); err != nil || e.Held() || e.Policy == catalog.PolicyVisibleOnly {
				continue tasks
			}
		}
		rec := &recordingHost{codeHost: codeHost{s: s, p: codeTools[RunCodeRead]}}
		limits := codemode.Limits{}
		if s.opts.CodeMode != nil {
			limits = *s.opts.CodeMode
		}
		r := codemode.Run(ctx, t.Script, rec, limits)
		c := CodeTaskCost{Task: t.Name, Calls: r.Calls, ProxyTokens: rec.tokens}
		req, _ := json.Marshal(map[string]any{"name": RunCodeRead, "arguments": CodeArgs{Script: t.Script}})
		c.ScriptTokens = s.tok.Count(string(req)) + s.tok.Count(modelReads(s.codeResult(r)))
		if r.Stop != "" {
			c.Error = r.Error
		}
		if c.ProxyTokens > 0 {
			c.Ratio = round(float64(c.ScriptTokens) / float64(c.ProxyTokens))
		}
		out = append(out, c)
	}
	return out
}

// recordingHost is a codeHost that counts what each call would have put
// in the context through a proxy: the request, and the result as the
// host gives it to the model.
type recordingHost struct {
	codeHost
	tokens int
}

func (h *recordingHost) Call(ctx context.Context, name string, args json.RawMessage) codemode.Reply {
	res := h.s.callThrough(ctx, h.p, CallArgs{Name: name, Arguments: args})
	// The model's request leaves out arguments a tool does not take
	// (call_tool_read's arguments is optional), as a script does.
	var a map[string]json.RawMessage
	if json.Unmarshal(args, &a) == nil && len(a) == 0 {
		args = nil
	}
	req, _ := json.Marshal(map[string]any{"name": CallToolRead, "arguments": CallArgs{Name: name, Arguments: args}})
	h.tokens += h.s.tok.Count(string(req)) + h.s.tok.Count(modelReads(res))
	return reply(res)
}

// modelReads is a result's text as a host gives it to the model: Claude
// Code and Codex give its structured content rather than its text, when
// it has one; what run_code returns is measured the same way.
func modelReads(res *mcp.CallToolResult) string {
	if res.StructuredContent != nil && !res.IsError {
		if raw, err := json.Marshal(res.StructuredContent); err == nil {
			return string(raw)
		}
	}
	return joinedText(res)
}
