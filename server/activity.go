package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/principal"
	"github.com/toolsearch/toolsearch/loader/catalog"
)

// An Event is one request the server handled, as the status page and the
// trace show it.
type Event struct {
	Time time.Time `json:"time"`
	// Session is the SessionTag of the session, when it has an id.
	Session string `json:"session,omitempty"`
	// Principal is whom the request was made for, when its token named
	// somebody (see PrincipalOf).
	Principal string `json:"principal,omitempty"`
	Method    string `json:"method"`
	// Tool is the tool called (tools/call), and Target what it was aimed
	// at: call_tool's catalog tool, run_skill_script's skill:script.
	Tool   string `json:"tool,omitempty"`
	Target string `json:"target,omitempty"`
	// Upstream is the server a call went to and State its state then.
	Upstream string `json:"upstream,omitempty"`
	State    string `json:"state,omitempty"`
	// Query and Results describe a tool_search.
	Query   string   `json:"query,omitempty"`
	Results []string `json:"results,omitempty"`
	// ArgsDigest identifies the arguments without revealing them; Args
	// holds them only when the operator asked for it.
	ArgsDigest string          `json:"argsDigest,omitempty"`
	Args       json.RawMessage `json:"args,omitempty"`
	Tokens     int             `json:"tokens"`
	DurationMS float64         `json:"durationMs"`
	// Outcome is ok, tool_error (a result with isError) or error (a
	// protocol error).
	Outcome string `json:"outcome"`
	Error   string `json:"error,omitempty"`
}

// Activity records the recent flow of requests for the status page and,
// optionally, appends every request to a trace as one JSON line.
type Activity struct {
	mu     sync.Mutex
	recent []Event // ring buffer, oldest overwritten first
	next   int
	full   bool
	trace  io.Writer
	args   bool // record arguments in the trace too
	subs   map[chan struct{}]bool
}

// NewActivity keeps the last n events; with trace non-nil, every event is
// also written there (with its arguments when withArgs).
func NewActivity(n int, trace io.Writer, withArgs bool) *Activity {
	return &Activity{recent: make([]Event, n), trace: trace, args: withArgs, subs: map[chan struct{}]bool{}}
}

// Recent returns the recorded events, newest first.
func (a *Activity) Recent() []Event {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := a.next
	if a.full {
		n = len(a.recent)
	}
	out := make([]Event, 0, n)
	for i := 1; i <= n; i++ {
		out = append(out, a.recent[(a.next-i+len(a.recent))%len(a.recent)])
	}
	return out
}

// Subscribe returns a channel that receives a signal after new events, and
// a function to stop. Signals coalesce: a slow reader misses none of the
// events, only some of the wake-ups.
func (a *Activity) Subscribe() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	a.mu.Lock()
	a.subs[ch] = true
	a.mu.Unlock()
	return ch, func() {
		a.mu.Lock()
		delete(a.subs, ch)
		a.mu.Unlock()
	}
}

// Bounds of what an event keeps of the strings a client or an upstream
// chose: a tool name the client made up, a query refused as too long, an
// error an upstream wrote. Without them, 200 calls to a megabyte-long tool
// name would keep 200 MB for the status page and write each megabyte to
// the trace.
const (
	maxEventName  = MaxStatsKey // a tool or target, as the accounting keeps it
	maxEventError = 1 << 10
)

// bounded returns ev with those strings cut short, each in memory of its
// own: an event outlives its request, and a short error line cut from a
// long result would otherwise hold the whole result.
func (ev Event) bounded() Event {
	ev.Tool = strings.Clone(clipName(ev.Tool, maxEventName))
	ev.Target = strings.Clone(clipName(ev.Target, maxEventName))
	if len(ev.Query) > MaxQueryLen && utf8.RuneCountInString(ev.Query) > MaxQueryLen {
		ev.Query = clipName(ev.Query, maxEchoed) // refused: kept to be recognised
	}
	ev.Error = strings.Clone(clipName(ev.Error, maxEventError))
	return ev
}

func (a *Activity) record(ev Event) {
	ev = ev.bounded()
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.trace != nil {
		line, err := json.Marshal(ev)
		if err == nil {
			a.trace.Write(append(line, '\n'))
		}
	}
	ev.Args = nil // the page never shows arguments
	if len(a.recent) > 0 {
		a.recent[a.next] = ev
		a.next = (a.next + 1) % len(a.recent)
		a.full = a.full || a.next == 0
	}
	for ch := range a.subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// activityMiddleware records each request ms handles.
func (s *Server) activityMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		a := s.opts.Activity
		// Notifications have no result to record.
		if a == nil || strings.HasPrefix(method, "notifications/") {
			return next(ctx, method, req)
		}
		if measuring(req) {
			return next(ctx, method, req) // the server measuring itself
		}
		ev := Event{Time: time.Now(), Method: method, Outcome: "ok"}
		if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
			ev.Session = SessionTag(ss.ID())
		}
		if principal.Named(ctx) {
			ev.Principal = principal.From(ctx)
		}
		p, isCall := req.GetParams().(*mcp.CallToolParamsRaw)
		if isCall {
			// The upstream's state is taken before the call, as the call saw it.
			s.describeCall(&ev, p, a.args)
		}
		res, err := next(ctx, method, req)
		ev.DurationMS = float64(time.Since(ev.Time).Microseconds()) / 1000
		if isCall && p.Name == ToolSearch {
			if r, ok := res.(*mcp.CallToolResult); ok {
				if sr, ok := r.StructuredContent.(*SearchResult); ok {
					for _, it := range sr.Results {
						ev.Results = append(ev.Results, it.Name)
					}
				}
			}
		}
		var read reading
		switch {
		case err != nil:
			ev.Outcome, ev.Error = "error", err.Error()
		case res != nil:
			read = readOf(res)
			if r, ok := res.(*mcp.CallToolResult); ok && r.IsError {
				ev.Outcome = "tool_error"
				ev.Error = firstLine(resultText(r))
			}
		}
		s.later(func() {
			ev.Tokens, _ = read.tokens(s.tok.Count)
			a.record(ev)
		})
		return res, err
	}
}

// measuring reports requests of Measure's own client.
func measuring(req mcp.Request) bool {
	ip, ok := req.GetParams().(*mcp.InitializeParams)
	if !ok {
		if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
			ip = ss.InitializeParams()
		}
	}
	return ip != nil && ip.ClientInfo != nil && ip.ClientInfo.Name == MeasureClientName
}

// describeCall fills in what a tool call is about.
func (s *Server) describeCall(ev *Event, p *mcp.CallToolParamsRaw, withArgs bool) {
	ev.Tool = p.Name
	if len(p.Arguments) > 0 {
		sum := sha256.Sum256(p.Arguments)
		ev.ArgsDigest = hex.EncodeToString(sum[:8])
		if withArgs {
			// Whole, and to the trace only: the operator asked for the
			// arguments (--trace-args), and the trace is theirs.
			ev.Args = p.Arguments
		}
	}
	target, source := s.attributeCall(p.Name, p.Arguments)
	if target != p.Name {
		ev.Target = target
	}
	switch p.Name {
	case ToolSearch:
		var args SearchArgs
		_ = json.Unmarshal(p.Arguments, &args)
		ev.Query = args.Query
		return
	case RunScript, ReadSkillFile:
		return
	}
	if src, ok := s.Snapshot().Source(source); ok && src.Kind == catalog.SourceServer {
		ev.Upstream, ev.State = src.Name, string(src.State)
	}
}

// SessionTag names a session in the activity, the trace and the log: a
// short hash of its id. The id itself lets whoever holds it act in the
// session over HTTP, so it is never shown.
func SessionTag(id string) string {
	if id == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:6])
}

// sessionTagHandler logs the session ids the go-sdk logs ("session_id") as
// SessionTags, under "session" as toolsearch's own lines do, so that log,
// trace and status page name a session alike and none shows its id.
type sessionTagHandler struct{ slog.Handler }

func (h sessionTagHandler) Handle(ctx context.Context, r slog.Record) error {
	tagged := slog.NewRecord(r.Time, r.Level, r.Message, r.PC)
	r.Attrs(func(a slog.Attr) bool {
		tagged.AddAttrs(tagSessionAttr(a))
		return true
	})
	return h.Handler.Handle(ctx, tagged)
}

func (h sessionTagHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	tagged := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		tagged[i] = tagSessionAttr(a)
	}
	return sessionTagHandler{h.Handler.WithAttrs(tagged)}
}

func (h sessionTagHandler) WithGroup(name string) slog.Handler {
	return sessionTagHandler{h.Handler.WithGroup(name)}
}

func tagSessionAttr(a slog.Attr) slog.Attr {
	if a.Key == "session_id" {
		return slog.String("session", SessionTag(a.Value.String()))
	}
	return a
}

func resultText(r *mcp.CallToolResult) string {
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}
