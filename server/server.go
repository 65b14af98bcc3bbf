package server

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/runner"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server/codemode"
	"github.com/toolsearch/toolsearch/server/metrics"
	"github.com/toolsearch/toolsearch/server/relay"
	"github.com/toolsearch/toolsearch/server/skillsext"
	"github.com/toolsearch/toolsearch/server/tokens"
)

// Names of toolsearch's own tools. Catalog entries may not take them.
const (
	ToolSearch    = "tool_search"
	ReadSkillFile = "read_skill_file"
	CallTool      = "call_tool"
	RunScript     = "run_skill_script"
)

// ReservedNames are refused to every catalog source.
var ReservedNames = []string{ToolSearch, ReadSkillFile, CallTool, CallToolRead, CallToolWrite, RunScript, RunCodeRead, RunCode}

// DefaultResultBudget bounds one tool_search result, in tokens.
const DefaultResultBudget = 8000

// Options configure a Server.
type Options struct {
	Name    string // implementation name; "toolsearch" when empty
	Version string

	// ListingBudget is the number of tokens the up-front listing in
	// tool_search's description may take; 0 lists nothing.
	ListingBudget int
	// ResultBudget bounds each tool_search result in tokens;
	// DefaultResultBudget when 0.
	ResultBudget int
	// Tokenizer names the encoding used for every count (tokens.Default
	// when empty).
	Tokenizer string
	Logger    *slog.Logger

	// Upstreams runs calls to upstream servers' tools; nil when there are
	// none, and catalog tools are then not callable.
	Upstreams Upstreams
	// Scripts runs skill scripts; nil turns run_skill_script off (it then
	// says so).
	Scripts *runner.Runner
	// ScriptsInRoots runs each script in the requesting client's first
	// root (MCP roots), when it has one, rather than in the runner's
	// folder: the user's project, as the host knows it.
	ScriptsInRoots bool
	// Activity, when set, records every request for the status page and
	// the trace.
	Activity *Activity
	// Metrics, when set, counts calls, searches and the tokens sessions
	// saved (package server/metrics); servers of several profiles may
	// share one.
	Metrics *metrics.Metrics
	// Promote adds the tools tool_search returns to the session's own
	// tools/list, on sessions of protocol 2025-11-25 or older only. It needs
	// one MCP server per connection.
	Promote bool
	// FirstListWait bounds how long after New the first tools/list answers
	// wait for upstream servers that have no last known catalog to list
	// (see settle.go); DefaultFirstListWait when 0, no wait when negative.
	FirstListWait time.Duration
	// CodeMode turns on run_code and run_code_read (see runcode.go), with
	// these bounds on each script; nil leaves them off.
	CodeMode *codemode.Limits
}

// Server holds what every MCP connection shares: the catalog, its index and
// the rendered listing. It keeps them in step with the catalog.
type Server struct {
	opts    Options
	catalog *catalog.Catalog
	tok     *tokens.Counter
	log     *slog.Logger

	mu   sync.RWMutex
	snap *catalog.Snapshot // the catalog as listed
	// snapChanged is closed when snap moves on.
	snapChanged chan struct{}
	listing     string                // tool_search's description
	own         map[string]bool       // ownToolsWanted of snap: which own tools are listed
	conns       map[*mcp.Server]*conn // live MCP servers to keep up to date

	// The index follows snap in the background (see index.go), so that a
	// large catalog is listed before it is indexed; searches wait for it.
	index   *search.Index
	indexMu sync.RWMutex      // held by the indexer while it changes the index, by searches while they read it
	indexed *catalog.Snapshot // what the index reflects; guarded by mu
	// indexShared is, per server, what its tools' parameters share (see
	// syncIndex); only the indexer touches it.
	indexShared map[serverID]uint64
	indexedC    chan struct{} // closed when indexed moves on; guarded by mu
	indexKick   chan struct{} // tells the indexer that snap moved on
	indexGate   func()        // testIndexGate as New found it
	indexing    atomic.Bool   // the indexer is at work
	pricing     atomic.Int32  // passes of priceEager at work

	unsubscribe func()

	// loginCallback is where logins started from sessions come back; nil
	// means a loopback port of their own each.
	loginCallback atomic.Pointer[loginCallback]

	jobs chan func()   // token counting off the request path; see later
	done chan struct{} // closed by Close
	// notify sends what upstreams announce outside requests (resource
	// updates, log messages) off their connections' goroutines.
	notify   chan func()
	stopLogs func()
	// relay holds the calls of 2026-07-28 clients waiting for input.
	relay *relay.Relay
	// served caches the upstream prompts and resources of the last
	// snapshot synced, which every connection shares.
	featMu sync.Mutex
	served *servedFeatures

	// schemas holds resolved input schemas by entry digest (or the error
	// resolving gave), since resolving costs more than validating.
	schemas sync.Map
	// signatures holds the compact signatures of entries already shown, by
	// *catalog.Entry: parsing a schema for it costs more than the search.
	// Emptied when the catalog changes, so it never outgrows one snapshot.
	signatures sync.Map
	// largeResults holds, by *catalog.Entry, whether a tool's results are
	// known to be large (see largeResultNote), emptied with signatures.
	largeResults sync.Map

	// eager prices the catalog for eager loading (see eagerBook).
	eager eagerBook

	// started is when New ran, from which FirstListWait counts; announce
	// coalesces the announcements of the listing (settle.go).
	started  time.Time
	announce announcer
}

// New builds a server over the catalog and follows its changes until Close.
func New(catalog *catalog.Catalog, opts Options) (*Server, error) {
	if opts.Name == "" {
		opts.Name = "toolsearch"
	}
	if opts.ResultBudget <= 0 {
		opts.ResultBudget = DefaultResultBudget
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.FirstListWait == 0 {
		opts.FirstListWait = DefaultFirstListWait
	}
	opts.Logger = slog.New(sessionTagHandler{opts.Logger.Handler()})
	tok, err := tokens.Get(opts.Tokenizer)
	if err != nil {
		return nil, err
	}
	s := &Server{
		opts:        opts,
		catalog:     catalog,
		tok:         tok,
		log:         opts.Logger,
		index:       search.NewIndex(),
		indexShared: map[serverID]uint64{},
		indexedC:    make(chan struct{}),
		indexKick:   make(chan struct{}, 1),
		indexGate:   testIndexGate,
		conns:       map[*mcp.Server]*conn{},
		jobs:        make(chan func(), 1024),
		done:        make(chan struct{}),
		notify:      make(chan func(), 1024),
		relay:       relay.New(),
		started:     time.Now(),
		announce:    announcer{quiet: listQuiet, hold: listHold},

		snapChanged: make(chan struct{}),
	}
	go s.countWorker()
	go s.indexer()
	go s.notifyWorker()
	if p := s.passthrough(); p != nil {
		s.stopLogs = p.WatchLogs(s.broadcastLog)
	}
	s.unsubscribe = catalog.Subscribe(s.update)
	s.update(nil, catalog.Snapshot())
	return s, nil
}

// Close stops following the catalog.
func (s *Server) Close() {
	s.unsubscribe()
	s.stopAnnouncing()
	if s.stopLogs != nil {
		s.stopLogs()
	}
	close(s.done)
}

// Options returns the options the server was built with, defaults filled in.
func (s *Server) Options() Options { return s.opts }

// Catalog returns the catalog the server follows.
func (s *Server) Catalog() *catalog.Catalog { return s.catalog }

// Tokens returns the counter every figure of this server is measured with.
func (s *Server) Tokens() *tokens.Counter { return s.tok }

// Snapshot returns the catalog snapshot the server lists and serves.
func (s *Server) Snapshot() *catalog.Snapshot {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.snap
}

// update follows a catalog change: listing, index (in the background),
// then every connection.
func (s *Server) update(old, new *catalog.Snapshot) {
	s.mu.Lock()
	if s.snap != nil && new.Version <= s.snap.Version {
		s.mu.Unlock()
		return
	}
	first := s.snap == nil
	s.snap = new
	close(s.snapChanged)
	s.snapChanged = make(chan struct{})
	s.signatures.Clear()
	s.largeResults.Clear()
	listing := s.renderDescription(new)
	// A change of the proxies listed is announced with the listing's. The
	// first snapshot, read in New, is what every connection starts with:
	// nothing to announce.
	own := s.codeToolsWanted(ownToolsWanted(new))
	changed := !first && (listing != s.listing || !maps.Equal(own, s.own))
	s.listing, s.own = listing, own
	conns := maps.Clone(s.conns)
	s.mu.Unlock()
	// Connections get the new listing when it is announced; tools/list
	// answers with it at once (firstList).
	s.settleSnapshot(new, changed)
	select {
	case s.indexKick <- struct{}{}:
	default: // the indexer has yet to see the last kick, and will see this snapshot
	}
	for ms, c := range conns {
		s.syncDirectTools(ms, new)
		c.skills.Sync(ms, new, s.log)
		s.syncFeatures(ms, new)
	}
}

// renderDescription is tool_search's description: how to use it, then the
// listing within its budget.
func (s *Server) renderDescription(snap *catalog.Snapshot) string {
	listing := renderListing(snap, s.opts.ListingBudget, s.tok.Count)
	if listing == "" {
		return searchToolIntro
	}
	return searchToolIntro + "\n\n" + listing
}

// Description returns tool_search's current description.
func (s *Server) Description() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.listing
}

// Instructions tell the model, at connection time, how to work with this
// server. Hosts show them once; they do not change with the catalog.
const Instructions = `Call tool_search before using any tool or skill.`

// NewMCPServer returns an MCP server wired to the shared catalog. Each
// stdio process needs one; HTTP may share one or make one per session.
func (s *Server) NewMCPServer() *mcp.Server {
	c := &conn{
		tools:  map[string]bool{ToolSearch: true},
		direct: map[string]string{},
		skills: skillsext.NewConn(),
		stats:  newStatsBook(s),
		subs:   &subscriptions{},
	}
	var ms *mcp.Server
	caps := skillsext.Declare(&mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}, Logging: &mcp.LoggingCapabilities{}})
	caps.Resources.Subscribe = true
	ms = mcp.NewServer(&mcp.Implementation{Name: s.opts.Name, Title: "toolsearch", Version: s.opts.Version}, &mcp.ServerOptions{
		Instructions: Instructions,
		Logger:       s.log,
		Capabilities: caps,
		// The upstreams' prompts and resources are served beside the
		// skills' (see syncFeatures).
		CompletionHandler: s.complete,
		SubscribeHandler: func(ctx context.Context, req *mcp.SubscribeRequest) error {
			return s.subscribe(ms, c.subs, ctx, req)
		},
		UnsubscribeHandler: c.subs.unsubscribe,
	})
	s.mu.Lock()
	s.conns[ms] = c
	snap, own := s.snap, s.own
	s.mu.Unlock()
	// tool_search goes first so that tools.listChanged is declared.
	s.addSearchTool(ms)
	s.syncOwnTools(ms, own)
	s.syncDirectTools(ms, snap)
	s.syncFeatures(ms, snap)
	ms.AddReceivingMiddleware(s.listFilter, s.logLevelMiddleware, s.capabilitiesMiddleware, s.firstList)
	// Middleware added later wraps what was added before: unknown tools are
	// answered inside the accounting, which sits inside the activity record.
	ms.AddReceivingMiddleware(s.unknownToolMiddleware(ms))
	c.skills.Attach(ms, s.Snapshot(), s.log)
	s.attachStats(ms, c.stats)
	ms.AddReceivingMiddleware(s.activityMiddleware, s.metricsMiddleware)
	// Outermost, so that everything inside knows whom a request is for.
	ms.AddReceivingMiddleware(s.principalMiddleware)
	return ms
}

// conn is what the server knows of one MCP server it made. The maps are
// guarded by Server.mu; skills and stats guard themselves.
type conn struct {
	ownMu  sync.Mutex        // serializes syncOwnTools and addSearchTool
	listed string            // the tool_search description last listed; guarded by ownMu
	tools  map[string]bool   // every name in its tools/list
	direct map[string]string // catalog tools listed directly (always-loaded or promoted) -> digest
	// promoted tools stay listed for the session even if no longer always-loaded.
	promoted map[string]bool
	skills   *skillsext.Conn // what it serves through the Skills extension
	stats    *statsBook      // its sessions' accounting
	// features are the upstreams' prompts and resources it lists; subs its
	// sessions' resource subscriptions.
	features featureSet
	subs     *subscriptions
}

// connHas reports whether the connection lists the named tool.
func (s *Server) connHas(ms *mcp.Server, name string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	c := s.conns[ms]
	return c != nil && c.tools[name]
}

// Release stops updating an MCP server made by NewMCPServer.
func (s *Server) Release(ms *mcp.Server) {
	s.mu.Lock()
	c := s.conns[ms]
	delete(s.conns, ms)
	s.mu.Unlock()
	if c != nil {
		c.stats.endAll()
		c.subs.endAll()
	}
}

// alwaysLoad marks our own tools for hosts that defer MCP tools themselves
// (Claude Code), so that the way into the catalog is never deferred too.
func alwaysLoad() mcp.Meta { return mcp.Meta{"anthropic/alwaysLoad": true} }

// addSearchTool lists tool_search on ms with the current listing, unless ms
// lists it already: each AddTool sends tools/list_changed, and a host that
// lists again at each one (Gemini) loses its prompt cache for nothing.
func (s *Server) addSearchTool(ms *mcp.Server) {
	s.mu.RLock()
	c := s.conns[ms]
	s.mu.RUnlock()
	if c == nil {
		return // released
	}
	c.ownMu.Lock()
	defer c.ownMu.Unlock()
	// The listing is read under the lock, so that of two announcements the
	// later one lists last.
	tool := s.searchTool()
	if c.listed == tool.Description {
		return
	}
	c.listed = tool.Description
	ms.AddTool(tool, s.searchHandler(ms))
}

// unknownToolMiddleware answers a call to a tool this connection does not
// have with an error result the model can act on, instead of a protocol
// error it may never see.
func (s *Server) unknownToolMiddleware(ms *mcp.Server) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "tools/call" {
				return next(ctx, method, req)
			}
			params, ok := req.GetParams().(*mcp.CallToolParamsRaw)
			if !ok || s.connHas(ms, params.Name) {
				return next(ctx, method, req)
			}
			s.mu.RLock()
			own := s.own
			s.mu.RUnlock()
			if own[params.Name] {
				// The catalog has brought this proxy and tools/list shows it
				// (firstList), but the connection gets it only at the
				// announcement, up to listHold later: it gets it now
				// instead of a refusal.
				s.syncOwnTools(ms, own)
				return next(ctx, method, req)
			}
			return errorResult(s.unknownToolMessage(ms, params.Name)), nil
		}
	}
}

func (s *Server) unknownToolMessage(ms *mcp.Server, name string) string {
	// What the name means as call_tool would take it: a hidden tool's name
	// means nothing, and is not shown to be in the catalog.
	switch e := s.Snapshot().Resolve(name).Entry; {
	case e != nil && e.Kind == catalog.KindTool:
		p := proxyFor(e)
		return fmt.Sprintf("%s is not a tool of this connection: it is in the catalog and is called through %s, e.g. %s {\"name\": %q, \"arguments\": {...}}. Use tool_search {\"query\": \"select:%s\"} first to see its input schema.", name, p, p, e.Name, e.Name)
	case e != nil && e.Kind == catalog.KindSkill:
		return fmt.Sprintf("%s is a skill, not a tool: load its instructions with tool_search {\"query\": \"select:%s\"}.", name, e.Name)
	}
	return fmt.Sprintf("unknown tool %s. This server's tools are %s; find other tools with tool_search.", quoteName(name), strings.Join(s.ownToolsListed(ms), ", "))
}

// errorResult is a tool result the model reads as a failure.
func errorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: msg}}, IsError: true}
}

// structuredError is the structured content of an error result: its
// fields, and the message of its text, which says what to do next. Claude
// Code and Codex give the model the structured content, not the text.
func structuredError(res *mcp.CallToolResult, fields map[string]any) map[string]any {
	fields["message"] = res.Content[0].(*mcp.TextContent).Text
	return fields
}
