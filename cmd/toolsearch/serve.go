package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"time"

	"github.com/toolsearch/toolsearch/internal/atomicfile"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
	"github.com/toolsearch/toolsearch/server/stdio"
	"github.com/toolsearch/toolsearch/server/web"
)

func runServe(ctx context.Context, args []string, _ io.Writer) error {
	fs := newFlagSet("serve", os.Stderr)
	sf := addSourceFlags(fs, flagsAll, "info")
	// Hosts start serve in the user's project: it reads no file there that
	// the user did not name.
	sf.hostStarted = true
	fs.Lookup("config").Usage = "config `FILE`; its relative paths are taken from its folder (default: " + userConfigHint() + "; serve never reads the current folder's files unless named)"
	httpAddr := fs.String("http", "", "serve Streamable HTTP at `ADDR` instead of stdio; --http alone means "+web.DefaultHTTPAddr)
	tokenFile := fs.String("token-file", "", "bearer token `FILE` for --http (or TOOLSEARCH_TOKEN); required beyond loopback")
	promote := fs.Bool("promote", false, "add tools that tool_search returns to the session's tools/list (protocol 2025-11-25 or older only)")
	trace := fs.String("trace", "", "append one JSON line per request to `FILE` (time, session, method, tool, argument digest, tokens, duration, outcome)")
	traceArgs := fs.Bool("trace-args", false, "record the arguments themselves in the trace, not only their digest")
	codeMode := fs.Bool("code-mode", false, "offer run_code and run_code_read: the model's Starlark scripts call tools and only what they print comes back (codeMode in toolsearch.yaml)")
	if _, err := parseFlags(fs, defaultHTTPAddr(args)); err != nil {
		return err
	}
	sf.more = func(cfg *Config) {
		cfg.Promote = cfg.Promote || *promote
		if *httpAddr != "" {
			cfg.HTTP.Addr = *httpAddr
		}
		if *tokenFile != "" {
			cfg.HTTP.TokenFile = *tokenFile
		}
		if *trace != "" {
			cfg.Trace = *trace
		}
		cfg.TraceArgs = cfg.TraceArgs || *traceArgs
		cfg.CodeMode.Enabled = cfg.CodeMode.Enabled || *codeMode
	}
	sf.follow = true
	sf.stopping = ctx
	defer configuredGrace.Store(0)
	// The collector is paced from the start: loading a large catalog
	// allocates several times what it keeps.
	gcCtx, stopGC := context.WithCancel(context.Background())
	defer stopGC()
	pacer := paceGC(gcCtx)
	a, err := openApp(sf)
	if err != nil {
		if ctx.Err() != nil {
			return nil // asked to stop while it waited for the shared state
		}
		return err
	}
	defer a.close(ctx)
	configuredGrace.Store(int64(a.cfg.HTTP.ShutdownGrace))
	pacer.log.Store(a.log)
	bulk := func() bool { return a.server.Bulk() || a.upstreams.Bulk() }
	pacer.bulk.Store(&bulk)
	// Once asked to stop, stdio's scripts and upstream calls in flight get
	// the grace, then are stopped, so that the session waiting for them
	// ends. Over HTTP the server stops them itself: it serves what it took
	// in until its requests in flight are done (web.Serve, within the
	// grace), then cancels them, and only then (a.close) does the work
	// stop; a request taken in during the drain whose call starts after
	// it is served in full.
	if a.cfg.HTTP.Addr == "" {
		work, cancelWork := afterGrace(ctx)
		defer cancelWork()
		defer context.AfterFunc(ctx, func() { a.shutdown(work) })()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	a.watchSkills(ctx)
	a.watchApprovals(ctx)
	a.startUpstreams()
	go func() {
		// Loading and indexing a large catalog leave garbage behind (file
		// bytes, decoded JSON, analysis); hand it back once the index is
		// built rather than whenever the scavenger gets to it.
		if a.server.WaitIndexed(ctx) == nil {
			debug.FreeOSMemory()
		}
	}()
	a.followConfig(ctx, sf)

	snap := a.server.Snapshot()
	if a.cfg.HTTP.Addr == "" {
		a.log.Info("serving over stdio", "entries", len(snap.Entries), "sources", len(snap.Sources), "tokenizer", a.server.Tokens().Name())
		ms := a.server.NewMCPServer()
		defer a.server.Release(ms)
		// Not mcp.StdioTransport: one malformed line would end the process.
		err = ms.Run(ctx, &stdio.Transport{Logger: a.log})
		if ctx.Err() != nil {
			return nil // interrupted: a normal way to stop
		}
		return err
	}
	return serveHTTP(ctx, a)
}

func serveHTTP(ctx context.Context, a *app) error {
	token, err := httpToken(a.cfg.HTTP.TokenFile)
	if err != nil {
		return err
	}
	profiles, tokens, err := a.httpProfiles()
	if err != nil {
		return err
	}
	jwt, err := a.jwtVerifier(a.log)
	if err != nil {
		return err
	}
	addr := a.cfg.HTTP.Addr
	bindToken := anyToken(token, tokens)
	if bindToken == "" && jwt != nil {
		bindToken = "http.jwt" // every request needs the provider's token
	}
	ln := a.early.take()
	a.early = nil
	if ln != nil {
		defer ln.Close()
	}
	if err := web.CheckBind(addr, bindToken); err != nil {
		return err
	}
	if jwt != nil {
		a.log.Info("taking the identity provider's tokens", "issuer", a.cfg.HTTP.JWT.Issuer, "audience", a.cfg.HTTP.JWT.Audience)
	}
	if ln == nil {
		if ln, err = net.Listen("tcp", addr); err != nil {
			return err
		}
	}
	o := web.Options{
		Token:          token,
		AllowedOrigins: a.cfg.HTTP.AllowedOrigins,
		AllowedHosts:   a.cfg.HTTP.AllowedHosts,
		MaxBodyBytes:   a.cfg.HTTP.MaxBodyBytes,
		SessionTimeout: time.Duration(a.cfg.HTTP.SessionTimeout),
		MaxSessions:    a.cfg.HTTP.MaxSessions,
		Ready:          a.upstreamStates,
		Profiles:       profiles,
		Tokens:         tokens,
		JWT:            jwt,
		Approvals:      appApprovals{a},
		// The operator's principal, which a request without a token has too.
		OperatorPrincipal: a.cfg.HTTP.operatorPrincipal(),
		DrainDelay:        a.drainDelay(),
		Loaded:            a.stateLoaded(ctx),
	}
	reps := a.clusterOptions(&o)
	if a.metrics != nil {
		o.Metrics = a.metrics.Handler()
	}
	if a.upstreams != nil {
		// Logins come back to this server: from the status page's
		// buttons, and from sessions whose clients open the login page.
		o.Login, o.Callbacks, o.Logins = a.upstreams.Login, oauth.NewCallbacks(), a.loginServers
		if tcp, ok := ln.Addr().(*net.TCPAddr); ok && tcp.IP.IsLoopback() {
			redirect := "http://" + ln.Addr().String() + web.CallbackPath
			a.server.SetLoginCallback(redirect, o.Callbacks)
			for _, ps := range profiles {
				ps.SetLoginCallback(redirect, o.Callbacks)
			}
		}
		a.servePeople(&o, ln)
	}
	h := web.NewHandler(a.server, o)
	// The replica leaves the registry once it has drained and stopped.
	defer a.startReplica(ln.Addr().String(), reps)()
	a.log.Info("serving Streamable HTTP", "url", "http://"+ln.Addr().String()+"/mcp", "auth", token != "")
	return web.Serve(ctx, ln, h, shutdownGrace())
}

// gcHeadroom is the garbage the server lets pile up between collections
// once its catalog is large. Go's default (GOGC=100) lets the heap double
// before collecting; the live heap is mostly the catalog, while a search
// leaves some 100 KB of garbage, so with 100,000 tools the default would
// hold about 150 MB for garbage alone, and loading them (which allocates
// several times what it keeps) would peak far above what stays.
const gcHeadroom = 64 << 20

// bulkHeadroom is the headroom while the process works over a whole
// catalog (server.Server.Bulk, upstream.Manager.Bulk), each a burst of
// garbage on top of the heap that stays:
//
//   - building the index, from documents that are garbage a moment later:
//     with the usual headroom a start would peak some 30 MB higher;
//   - pricing the catalog for the eager baseline, the tokenizer run over
//     every tool: a file of 100,000 tools peaked then at 309-312 MB, 15-25
//     MB above its start, and now at 283-289 MB, priced 2 s later
//     (BenchmarkStartup100k's settled-peak-MB and priced-ms);
//   - an upstream listing its tools, making their entries and saving
//     them: a warm start of 100,000 tools peaked then at 389-421 MB, now
//     at 367-374 MB, ready about 0.5 s later.
//
// 24 MB rather than 32 took 8-14 MB off an upstream's start of 100,000
// tools (to 288-294 MB) for some 0.8 s more to be ready (9 s for a warm
// start, 10 for a cold one).
//
// It holds down to a GOGC of bulkFloor rather than 25: an upstream's
// 100,000 tools keep some 220 MB live, which at 25 would let 55 MB of
// garbage pile up rather than 24, and the collections it costs (a few
// seconds of one core at most) come when the catalog is served already.
const (
	bulkHeadroom = 24 << 20
	bulkFloor    = 10
)

// gcPercent is the GOGC that lets a heap of live bytes grow by gcHeadroom.
func gcPercent(live uint64) int { return gcPercentFor(live, gcHeadroom, 25) }

// gcPercentFor is the GOGC that lets a heap of live bytes grow by headroom:
// Go's default for a heap under headroom, and never below floor, so that a
// very large catalog still gets collections in proportion to its size.
func gcPercentFor(live, headroom uint64, floor int) int {
	if live <= headroom {
		return 100
	}
	return max(floor, int(100*headroom/live))
}

// paceGC sets the collector's pace after every collection from the live
// heap it found (gcPercent), with a memory limit to match (gcPacer.limit),
// unless the operator chose one with GOGC or GOMEMLIMIT: from the start,
// so that loading a large catalog peaks at little more than what it keeps,
// and for as long as the server runs, so that a catalog that grows later
// (an upstream listing many tools) is paced too. It stops when ctx ends.
// The first change is logged once a logger is set.
func paceGC(ctx context.Context) *gcPacer {
	p := &gcPacer{ctx: ctx, percent: 100}
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		p.arm()
	}
	return p
}

// A gcPacer learns of each collection through the cleanup of an object
// that nothing references, which the next collection frees.
type gcPacer struct {
	ctx context.Context
	log atomic.Pointer[slog.Logger]
	// bulk, when set, reports whether the server is at work over a whole
	// catalog, which calls for bulkHeadroom.
	bulk    atomic.Pointer[func() bool]
	percent int  // only collected uses it
	logged  bool // likewise
	limited bool // likewise: a memory limit is set (see limit)
}

// gcSentinel is what a gcPacer watches; it is big enough not to share a
// tiny allocation block with anything else.
type gcSentinel [32]byte

func (p *gcPacer) arm() {
	runtime.AddCleanup(new(gcSentinel), (*gcPacer).collected, p)
}

// collected runs once a collection is over.
func (p *gcPacer) collected() {
	if p.ctx.Err() != nil {
		return
	}
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	if live[0].Value.Kind() == metrics.KindUint64 {
		headroom, floor := uint64(gcHeadroom), 25
		if bulk := p.bulk.Load(); bulk != nil && (*bulk)() {
			headroom, floor = bulkHeadroom, bulkFloor
		}
		if percent := gcPercentFor(live[0].Value.Uint64(), headroom, floor); percent != p.percent {
			debug.SetGCPercent(percent)
			p.percent = percent
		}
		p.limit()
		if log := p.log.Load(); log != nil && !p.logged && p.percent != 100 {
			p.logged = true
			log.Info("large catalog: collecting garbage sooner", "live_heap_mb", live[0].Value.Uint64()>>20, "gogc", p.percent)
		}
	}
	p.arm()
}

// limitSlack is what the memory outside the live heap may grow by between
// two collections before a limit set by gcPacer.limit brings the next one
// sooner.
const limitSlack = 16 << 20

// limit sets a soft memory limit just above what the process will use
// until the next collection (its memory now, and the heap's room to its
// goal), or none while the pacer leaves Go's default. The pages that a
// collection frees stay mapped until the runtime's scavenger returns them,
// in the background; while a large catalog loads, the heap moves faster
// than that, and 30 MB of free pages stayed resident at the peak of a start
// of 100,000 tools. Over a limit, the runtime returns them at once. The
// limit follows every collection, so it never holds the heap below its
// goal.
func (p *gcPacer) limit() {
	if p.percent == 100 {
		if p.limited {
			debug.SetMemoryLimit(math.MaxInt64)
			p.limited = false
		}
		return
	}
	m := []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/gc/heap/goal:bytes"},
	}
	metrics.Read(m)
	for _, v := range m {
		if v.Value.Kind() != metrics.KindUint64 {
			return
		}
	}
	total, released, free, objects, goal := m[0].Value.Uint64(), m[1].Value.Uint64(), m[2].Value.Uint64(), m[3].Value.Uint64(), m[4].Value.Uint64()
	used := total - released - free
	room := uint64(0)
	if goal > objects {
		room = goal - objects
	}
	debug.SetMemoryLimit(int64(min(used+room+limitSlack, math.MaxInt64)))
	p.limited = true
}

// defaultHTTPAddr lets --http stand alone: with no address after it, it
// means the default one.
func defaultHTTPAddr(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if a != "--http" && a != "-http" {
			out = append(out, a)
			continue
		}
		if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			out = append(out, a+"="+args[i+1])
			i++
			continue
		}
		out = append(out, a+"="+web.DefaultHTTPAddr)
	}
	return out
}

// httpToken reads the bearer token from a file, or TOOLSEARCH_TOKEN.
func httpToken(file string) (string, error) {
	if file == "" {
		return strings.TrimSpace(os.Getenv("TOOLSEARCH_TOKEN")), nil
	}
	return readTokenFile(file)
}

// readTokenFile reads a bearer token from a file: what it holds but the
// white space around it, which must be something.
func readTokenFile(file string) (string, error) {
	data, err := atomicfile.ReadFile(file, atomicfile.MaxConfig)
	if err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	token := strings.TrimSpace(string(data))
	if token == "" {
		return "", fmt.Errorf("token file %s is empty", file)
	}
	return token, nil
}
