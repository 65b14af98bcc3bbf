package server

import (
	"context"
	"encoding/json"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/loader/catalog"
)

// StatsURI is the resource holding the requesting session's accounting.
const StatsURI = "toolsearch://stats"

// ListingSource is the accounting source of everything a session gets
// before it asks for anything: the instructions and the lists.
const ListingSource = "listing"

// Bounds of a session's accounting. Some of its keys come from the client
// (the name of a tool that does not exist, run_skill_script's script
// path): without bounds, a session calling a new megabyte-long name each
// time would keep every one, and StatsURI would return them all. A key
// longer than MaxStatsKey, or new once a tally holds MaxStatsKeys keys, is
// counted under OtherKey, and logged, cut short, the first
// maxRefusedLogged times in a session.
const (
	MaxStatsKey      = 256
	MaxStatsKeys     = 256
	OtherKey         = "(other)" // no catalog name has parentheses
	maxRefusedLogged = 10
)

// SessionStats is the live accounting of one session: the tokens of what
// the server returned to it, as the model would read them. Images, audio
// and binary resource contents cannot be priced by a text tokenizer: they
// count no tokens and are reported in BlobBytes instead.
type SessionStats struct {
	Tokenizer string    `json:"tokenizer"`
	Started   time.Time `json:"started"`
	Requests  int       `json:"requests"` // results counted
	Searches  int       `json:"searches"` // tool_search calls
	Calls     int       `json:"calls"`    // other tool calls
	Tokens    int       `json:"tokens"`
	// Discovery is what finding things cost: the listing and toolsearch's
	// own results. It is the figure to set against Eager.
	Discovery int              `json:"discoveryTokens"`
	BlobBytes int64            `json:"blobBytes,omitempty"`
	ByMethod  map[string]Tally `json:"byMethod"`
	ByTool    map[string]Tally `json:"byTool"`
	BySource  map[string]Tally `json:"bySource"`
	// Eager is what loading the whole catalog up front would have cost.
	Eager EagerCost `json:"eager"`

	refused int // keys counted under OtherKey
}

// Tally counts results and their tokens.
type Tally struct {
	Results int `json:"results"`
	Tokens  int `json:"tokens"`
}

func (t Tally) plus(tokens int) Tally { return Tally{t.Results + 1, t.Tokens + tokens} }

// EagerCost is what loading every listed entry up front costs: each tool's
// definition as in tools/list, each skill's SKILL.md body.
type EagerCost struct {
	Entries        int    `json:"entries"`
	Tokens         int    `json:"tokens"`
	CatalogVersion uint64 `json:"catalogVersion"`
}

// attachStats counts the tokens of everything ms returns, per session, in
// b, serves the counts as StatsURI, and logs a summary when a session ends.
func (s *Server) attachStats(ms *mcp.Server, b *statsBook) {
	ms.AddReceivingMiddleware(b.middleware)
	ms.AddResource(&mcp.Resource{
		URI:         StatsURI,
		Name:        "toolsearch-stats",
		Title:       "Token accounting of this session",
		Description: "Tokens of everything this server returned to this session, per tool and per source, and what loading the whole catalog up front would have cost.",
		MIMEType:    "application/json",
	}, b.read)
}

func newStatsBook(s *Server) *statsBook {
	b := &statsBook{s: s, sessions: map[*mcp.ServerSession]*SessionStats{}}
	b.stopping, b.stop = context.WithCancel(context.Background())
	b.ended = sync.NewCond(&b.mu)
	return b
}

// endAll logs the summary of every session still open; Release calls it. A
// stdio process exits as soon as its only session ends, before closeOnEnd
// gets to log: this is where its summary is written, and where a summary
// closeOnEnd is writing is waited for. The server is stopping, so the
// price of eager loading is waited for summaryWait at most (it is made
// once the catalog is indexed, see eagerBook).
func (b *statsBook) endAll() {
	time.AfterFunc(summaryWait, b.stop)
	b.mu.Lock()
	open := slices.Collect(maps.Keys(b.sessions))
	b.mu.Unlock()
	for _, ss := range open {
		b.end(ss)
	}
	b.mu.Lock()
	for b.ending > 0 {
		b.ended.Wait()
	}
	b.mu.Unlock()
}

// summaryWait bounds how long the summaries written as the server stops
// wait for the price of eager loading: a catalog of 100,000 tools takes
// seconds to price, which a stop just after the start would otherwise
// spend, well into the shutdown grace.
const summaryWait = 2 * time.Second

// statsBook holds the accounting of one MCP server's sessions.
type statsBook struct {
	s        *Server
	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*SessionStats
	// ending counts the summaries being written, for endAll, which waits
	// on ended until there are none.
	ending int
	ended  *sync.Cond
	// stopping ends summaryWait after endAll began: summaries wait for
	// the price of eager loading until then.
	stopping context.Context
	stop     context.CancelFunc
}

func (b *statsBook) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		ss, ok := req.GetSession().(*mcp.ServerSession)
		// Keepalive pings carry nothing for the model; protocol errors are
		// not counted.
		if err != nil || res == nil || !ok || ss == nil || method == "ping" {
			return res, err
		}
		tool, source := b.s.attribute(method, req)
		st := b.open(ss)
		read := readOf(res)
		b.s.later(func() {
			tokens, blob := read.tokens(b.s.tok.Count)
			b.add(st, method, tool, source, tokens, blob)
		})
		return res, err
	}
}

// open returns the session's account, opening it on first sight.
func (b *statsBook) open(ss *mcp.ServerSession) *SessionStats {
	b.mu.Lock()
	defer b.mu.Unlock()
	st := b.sessions[ss]
	if st == nil {
		st = &SessionStats{
			Tokenizer: b.s.tok.Name(),
			Started:   time.Now(),
			ByMethod:  map[string]Tally{},
			ByTool:    map[string]Tally{},
			BySource:  map[string]Tally{},
		}
		b.sessions[ss] = st
		go b.closeOnEnd(ss)
	}
	return st
}

// add books one result.
func (b *statsBook) add(st *SessionStats, method, tool, source string, tokens int, blob int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	st.Requests++
	st.Tokens += tokens
	st.BlobBytes += blob
	b.tally(st, st.ByMethod, method, tokens)
	b.tally(st, st.BySource, source, tokens)
	if source == ListingSource || source == OverheadSource {
		st.Discovery += tokens
	}
	if tool != "" {
		b.tally(st, st.ByTool, tool, tokens)
		if tool == ToolSearch {
			st.Searches++
		} else {
			st.Calls++
		}
	}
}

// tally counts a result under key in m, or under OtherKey if m may not
// take key (see MaxStatsKeys).
func (b *statsBook) tally(st *SessionStats, m map[string]Tally, key string, tokens int) {
	if t, ok := m[key]; ok {
		m[key] = t.plus(tokens)
		return
	}
	// One place stays free for OtherKey.
	if len(key) <= MaxStatsKey && len(m) < MaxStatsKeys-1 {
		m[key] = Tally{}.plus(tokens)
		return
	}
	m[OtherKey] = m[OtherKey].plus(tokens)
	st.refused++
	switch {
	case st.refused < maxRefusedLogged:
		b.s.log.Warn("a name from the client is counted under "+OtherKey+" in the session's accounting",
			"name", clipName(key, 64), "bytes", len(key), "keys", len(m))
	case st.refused == maxRefusedLogged:
		b.s.log.Warn("further names counted under "+OtherKey+" in this session are not logged", "name", clipName(key, 64))
	}
}

// closeOnEnd ends the session's account once the session ends.
func (b *statsBook) closeOnEnd(ss *mcp.ServerSession) {
	_ = ss.Wait()
	b.end(ss)
}

// end logs a session's summary and forgets it; the first caller logs. The
// price of eager loading is waited for, until the server is stopping (see
// endAll); a summary without it says so (eager_priced=false).
func (b *statsBook) end(ss *mcp.ServerSession) {
	b.s.flushCounts()
	b.mu.Lock()
	live, ok := b.sessions[ss]
	delete(b.sessions, ss)
	var st SessionStats
	if ok {
		st = live.clone() // results still being counted may add to live
		b.ending++
	}
	b.mu.Unlock()
	if !ok {
		return
	}
	defer func() {
		b.mu.Lock()
		b.ending--
		b.ended.Broadcast()
		b.mu.Unlock()
	}()
	eager, priced := b.s.eagerCostBy(b.stopping)
	if priced && st.BySource[ListingSource].Results > 0 && !measuringSession(ss) {
		b.s.opts.Metrics.AddTokensSaved(eager.Tokens - st.Discovery)
	}
	// Sessions that only looked (health checks, `toolsearch measure`) are
	// not worth a line at the default level.
	level := slog.LevelInfo
	if st.Searches+st.Calls == 0 {
		level = slog.LevelDebug
	}
	attrs := []any{
		"duration", time.Since(st.Started).Round(time.Millisecond),
		"searches", st.Searches, "calls", st.Calls,
		"tokens", st.Tokens, "discovery_tokens", st.Discovery,
	}
	if priced {
		attrs = append(attrs, "eager_tokens", eager.Tokens)
	} else {
		attrs = append(attrs, "eager_priced", false)
	}
	attrs = append(attrs, "tokenizer", st.Tokenizer)
	if id := ss.ID(); id != "" {
		attrs = append(attrs, "session", SessionTag(id))
	}
	b.s.log.Log(context.Background(), level, "session summary", attrs...)
}

// stats returns a copy of a session's accounting.
func (b *statsBook) stats(ss *mcp.ServerSession) SessionStats {
	b.mu.Lock()
	defer b.mu.Unlock()
	st, ok := b.sessions[ss]
	if !ok {
		return SessionStats{Tokenizer: b.s.tok.Name(), ByMethod: map[string]Tally{}, ByTool: map[string]Tally{}, BySource: map[string]Tally{}}
	}
	return st.clone()
}

// clone copies an account, its maps too: a result counted later writes
// to the maps of the account it was counted in (add), while the copy is
// read outside the book's lock.
func (st *SessionStats) clone() SessionStats {
	c := *st
	c.ByMethod, c.ByTool, c.BySource = maps.Clone(st.ByMethod), maps.Clone(st.ByTool), maps.Clone(st.BySource)
	return c
}

// read serves StatsURI: the requesting session's accounting so far (this
// read is counted after it is answered).
func (b *statsBook) read(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	b.s.flushCounts()
	st := b.stats(req.Session)
	st.Eager = b.s.eagerCost()
	data, err := json.Marshal(st)
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: StatsURI, MIMEType: "application/json", Text: string(data)}}}, nil
}

// attribute names the tool and the source a result is booked under.
func (s *Server) attribute(method string, req mcp.Request) (tool, source string) {
	switch method {
	case "tools/call":
		if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok {
			return s.attributeCall(p.Name, p.Arguments)
		}
	case "initialize", "server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list":
		return "", ListingSource
	case "resources/read":
		if p, ok := req.GetParams().(*mcp.ReadResourceParams); ok && strings.HasPrefix(p.URI, "toolsearch:") {
			return "", OverheadSource
		}
		// Apart from its stats, toolsearch serves only skill files.
		return "", loader.SkillsSourceName
	}
	if strings.HasPrefix(method, "skills/") || method == "resources/directory/read" { // the Skills extension
		return "", loader.SkillsSourceName
	}
	return "", OverheadSource
}

// attributeCall books a tool call under the tool the model meant: the
// target of call_tool, the skill's script for run_skill_script, and under
// the source that tool or skill came from.
func (s *Server) attributeCall(name string, rawArgs json.RawMessage) (tool, source string) {
	var args struct {
		Name   string `json:"name"`
		Skill  string `json:"skill"`
		Script string `json:"script"`
	}
	switch name {
	case ToolSearch:
		return name, OverheadSource
	case CallTool, CallToolRead, CallToolWrite:
		_ = json.Unmarshal(rawArgs, &args) // bad arguments were answered with an error
		if e, err := resolveTool(s.Snapshot(), args.Name); err == nil {
			return e.Name, e.Source
		}
		return name, OverheadSource
	case RunScript, ReadSkillFile:
		_ = json.Unmarshal(rawArgs, &args)
		e, ok := s.Snapshot().Lookup(args.Skill)
		if !ok || e.Kind != catalog.KindSkill {
			return name, OverheadSource
		}
		if name == RunScript && args.Script != "" {
			// The path is the model's and may be any length; the
			// activity shows this name too.
			return e.Name + ":" + clipName(args.Script, MaxStatsKey/2), e.Source
		}
		return name, e.Source
	}
	if e, ok := s.Snapshot().Lookup(name); ok { // listed directly
		return e.Name, e.Source
	}
	return name, OverheadSource
}

// resultTokens counts what a result carries for the model.
func (s *Server) resultTokens(res mcp.Result) (tokens int, blobBytes int64) {
	return readOf(res).tokens(s.tok.Count)
}

// reading is what a result gives the model to read: its texts, and the
// bytes of what a text tokenizer cannot price (images, audio, blobs).
type reading struct {
	texts []string
	blob  int64
}

func (r reading) tokens(count countFunc) (int, int64) {
	n := 0
	for _, t := range r.texts {
		n += count(t)
	}
	return n, r.blob
}

// readOf takes from a result what the model reads: the text of a tool
// result (its structured content when it has no text), the text of
// resources and prompt messages, the instructions of an initialization,
// and the JSON of anything else (the lists, custom methods). It runs on the
// request path and only copies out strings, which are immutable, so the
// tokens can be counted later while the SDK goes on with the result.
func readOf(res mcp.Result) reading {
	var r reading
	switch res := res.(type) {
	case *mcp.CallToolResult:
		hasText := r.addContent(res.Content)
		if !hasText && res.StructuredContent != nil {
			r.addJSON(res.StructuredContent)
		}
	case *mcp.ReadResourceResult:
		for _, c := range res.Contents {
			r.texts = append(r.texts, c.Text)
			r.blob += int64(len(c.Blob))
		}
	case *mcp.GetPromptResult:
		for _, m := range res.Messages {
			r.addContent([]mcp.Content{m.Content})
		}
	case *mcp.InitializeResult:
		r.texts = append(r.texts, res.Instructions)
	case *mcp.DiscoverResult:
		r.texts = append(r.texts, res.Instructions)
	default:
		r.addJSON(res)
	}
	return r
}

func (r *reading) addContent(contents []mcp.Content) (hasText bool) {
	for _, c := range contents {
		switch c := c.(type) {
		case *mcp.TextContent:
			r.texts = append(r.texts, c.Text)
			hasText = true
		case *mcp.EmbeddedResource:
			if c.Resource != nil {
				r.texts = append(r.texts, c.Resource.Text)
				r.blob += int64(len(c.Resource.Blob))
				hasText = hasText || c.Resource.Text != ""
			}
		case *mcp.ImageContent:
			r.blob += int64(len(c.Data))
		case *mcp.AudioContent:
			r.blob += int64(len(c.Data))
		case nil:
		default: // resource links and the like: the model reads their fields
			r.addJSON(c)
		}
	}
	return hasText
}

func (r *reading) addJSON(v any) {
	if data, err := json.Marshal(v); err == nil {
		r.texts = append(r.texts, string(data))
	}
}
