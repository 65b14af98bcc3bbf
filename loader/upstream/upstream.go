package upstream

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/parallel"
	"github.com/toolsearch/toolsearch/internal/redact"
	"github.com/toolsearch/toolsearch/internal/utf8cut"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/schema"
	"github.com/toolsearch/toolsearch/loader/toolfile"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// An upstream is one server: its connection loop and what is known of it.
type upstream struct {
	m   *Manager
	cfg ServerConfig
	// remote is cfg.Remote(), asked once: the mode of every tool depends
	// on it.
	remote bool
	set    Settings
	log    *slog.Logger
	id     serverKeys // its approvals key and last known catalog
	client *mcp.Client
	// auth authorizes an HTTP or SSE server's requests with OAuth; nil for
	// servers that do not use it.
	auth *oauth.Handler
	// redact takes the server's secrets (URL keys, header values) out of
	// everything shown: LastError, errors, and log records through log.
	redact *redact.Redactor
	// withheld names the variables of toolsearch's environment the server
	// must not inherit.
	withheld map[string]bool

	kick         chan struct{}   // reconnect now rather than after the backoff
	toolsChanged chan struct{}   // the server said its tools changed
	subscribed   chan struct{}   // the server acknowledged a subscription to changes
	refresh      chan chan error // explicit refreshes, answered after a listing
	lostAuth     chan error      // a call found the tokens refused

	pubMu  sync.Mutex // held across change and publish, so the catalog sees changes in order
	saveMu sync.Mutex // serializes writes of the cache file

	// rel routes the server's requests and notifications to the callers of
	// the requests in flight; feat follows its prompts and resources.
	rel  relay
	feat featureState
	// retired is set, under pubMu, once the server is removed from the
	// configuration or replaced by a restart.
	retired bool
	// setMu guards set and withheld, which Reconfigure changes.
	setMu sync.RWMutex
	// relisting is set while a change of tools the server announced is
	// not listed yet.
	relisting atomic.Bool
	// slots holds its calls to Settings.MaxConcurrent.
	slots callSlots

	mu           sync.Mutex
	state        catalog.State
	since        time.Time
	changed      chan struct{} // closed at every update, for waiting callers
	attempt      int           // connection attempts begun
	sess         *session      // the live connection while active or validating
	tools        []*mcp.Tool   // last known, under their own names
	digests      []string      // of tools by position, nil until made; a last known catalog keeps them
	seen         seenTools
	listed       time.Time
	cached       bool // tools are the last known catalog, not yet listed in this run
	lastErr      string
	stderr       string // tail of stderr at the last failure
	instructions string
	entries      []*catalog.Entry
	refused      []catalog.Refusal
	q            quarantine
	// features are the last known prompts, resources and templates.
	features features
	// authVersion is the version of the tokens when the server entered
	// needs_auth: a new version may be a login.
	authVersion uint64
	// schemaVerdicts caches, by tool digest, why the input schemas that
	// took decoding to check cannot be served ("" when they can), so that
	// a re-listing checks only what changed.
	schemaVerdicts map[string]string
	known          map[string]knownTool // by tool name, as of the last rebuild
}

// A session is one connection to the server.
type session struct {
	cs *mcp.ClientSession
	// ctx ends when the connection is given up; calls on it end with it.
	ctx    context.Context
	cancel context.CancelCauseFunc
	proc   *stdioProcess // for stdio
	stderr *stderrTail
	// listing reads tools/list pages before the client does (see
	// listingTransport); nil for streamable HTTP, see connect.
	listing *listingTransport
}

var (
	errConnectTimeout = errors.New("connection timed out")
	errSessionClosed  = errors.New("connection to the server closed")
)

func newUpstream(m *Manager, cfg ServerConfig, set Settings) *upstream {
	redactor := newRedactor(cfg)
	u := &upstream{
		m:            m,
		cfg:          cfg,
		remote:       cfg.Remote(),
		set:          set,
		redact:       redactor,
		log:          slog.New(redactor.Handler(m.log.Handler())).With("server", cfg.Name),
		id:           keysOf(m.opts.CacheDir, cfg),
		kick:         make(chan struct{}, 1),
		toolsChanged: make(chan struct{}, 1),
		subscribed:   make(chan struct{}, 1),
		refresh:      make(chan chan error),
		lostAuth:     make(chan error, 1),
		state:        catalog.StateConnecting,
		since:        time.Now(),
		changed:      make(chan struct{}),
		seen:         seenTools{},
	}
	if set.Disabled {
		u.state = catalog.StateDisabled
	}
	u.auth = m.newAuth(u)
	opts := &mcp.ClientOptions{
		Logger:                    u.log,
		KeepAlive:                 max(m.opts.KeepAlive, 0),
		KeepAliveFailureThreshold: 2,
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			u.relisting.Store(true)
			signal(u.toolsChanged)
		},
	}
	u.relayOptions(opts)
	u.featureOptions(opts)
	u.client = mcp.NewClient(m.opts.ClientInfo, opts)
	u.client.AddReceivingMiddleware(u.rootsMiddleware)
	u.client.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "notifications/subscriptions/acknowledged" {
				signal(u.subscribed)
			}
			return next(ctx, method, req)
		}
	})
	return u
}

// signal makes a non-blocking send: one pending signal is enough.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

func drain(c chan struct{}) {
	select {
	case <-c:
	default:
	}
}

// run connects, serves and reconnects until ctx ends.
func (u *upstream) run(ctx context.Context) {
	var (
		failures int
		waiting  []chan error // explicit refreshes to answer
	)
	answer := func(err error) {
		for _, w := range waiting {
			w <- err
		}
		waiting = nil
	}
	for {
		drain(u.kick) // this attempt is the one asked for
		u.mu.Lock()
		u.attempt++
		reconnect := u.state != catalog.StateConnecting
		u.mu.Unlock()
		if reconnect {
			u.update(func() { u.state = catalog.StateConnecting })
		}
		var up time.Duration // how long the server stayed up
		s, err := u.connect(ctx)
		if err == nil {
			start := time.Now()
			err = u.serve(ctx, s, &waiting, answer)
			up = time.Since(start)
		}
		s.close()
		if ctx.Err() != nil {
			answer(ErrClosed)
			return
		}
		answer(u.redact.Error(err))
		if lr, ok := loginRequired(err); ok && u.auth != nil && !lr.StepUp() {
			// No backoff: nothing changes until someone logs in.
			u.needAuth(lr)
			failures = 0
			if !u.waitForLogin(ctx, &waiting) {
				answer(ErrClosed)
				return
			}
			continue
		}
		u.fail(err, s.stderr)

		if up >= u.m.opts.MaxBackoff { // it worked for a while: start over
			failures = 0
		}
		delay := u.retryDelay(err, failures)
		failures++
		u.log.Info("reconnecting", "in", delay.Round(time.Millisecond))
		timer := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-timer.C:
		case <-u.kick:
		case r := <-u.refresh:
			waiting = append(waiting, r)
		}
		timer.Stop()
	}
}

// backoff returns the delay before the next attempt: doubling from
// firstBackoff up to MaxBackoff, and jittered so that servers failing
// together do not retry in step.
func (u *upstream) backoff(failures int) time.Duration {
	d := min(u.m.firstBackoff, u.m.opts.MaxBackoff)
	for range failures {
		if d >= u.m.opts.MaxBackoff {
			break
		}
		d *= 2
	}
	d = min(d, u.m.opts.MaxBackoff)
	return d/2 + rand.N(d/2+1)
}

// retryDelay is the wait before the next attempt after err: the backoff,
// but at most grantRetry for a server whose login could not be read.
// Nothing is wrong with that server: it connects soon after the shared
// state is back, whatever its backoff had grown to meanwhile.
func (u *upstream) retryDelay(err error, failures int) time.Duration {
	d := u.backoff(failures)
	if u.grantUnread(err) {
		d = min(d, grantRetry)
	}
	return d
}

// grantUnread reports whether a connection failed because the server's
// OAuth grant could not be read (the shared state out of reach): not a
// missing login, which waits for one, nor the server failing.
func (u *upstream) grantUnread(err error) bool {
	if errors.Is(err, oauth.ErrUnavailable) {
		return true
	}
	return u.auth != nil && u.auth.Tokens().Read() != nil
}

// connect makes one connection attempt. The session is returned even on
// failure, for its stderr; close it either way.
func (u *upstream) connect(ctx context.Context) (*session, error) {
	s := &session{stderr: newStderrTail(u.log)}
	// Signals left over from an earlier connection mean nothing now: the
	// first listing comes after this connection is made.
	drain(u.subscribed)
	drain(u.toolsChanged)
	select {
	case <-u.lostAuth:
	default:
	}
	s.ctx, s.cancel = context.WithCancelCause(ctx)
	// The timeout must not end s.ctx once connected: an SSE stream lives
	// in the context it was opened with.
	timeout := u.m.opts.ConnectTimeout
	timer := time.AfterFunc(timeout, func() { s.cancel(errConnectTimeout) })
	t, proc, err := u.transport(s.ctx, s.stderr, u.auth)
	s.proc = proc
	var cs *mcp.ClientSession
	if err == nil {
		// The streamable HTTP client's connection must reach the client
		// as it is: the session tells it, through a method only the SDK
		// can call, the protocol version to send with every request and
		// when to open the stream on which the server sends its own
		// requests and notifications. A wrapped connection hears neither.
		// Its listings are decoded by the client.
		if _, streamable := t.(*mcp.StreamableClientTransport); !streamable {
			s.listing = &listingTransport{Transport: t}
			t = s.listing
		}
		cs, err = u.client.Connect(s.ctx, t, nil)
	}
	if !timer.Stop() {
		if cs != nil {
			_ = cs.Close()
		}
		return s, fmt.Errorf("no answer to initialization within %v", timeout)
	}
	if err != nil {
		return s, fmt.Errorf("connecting: %w", err)
	}
	s.cs = cs
	return s, nil
}

// close ends the connection: the calls in flight first, so that closing
// the session does not wait for them, then the session (for stdio, closing
// stdin and waiting for the process, which is signalled if it lingers),
// then whatever the process left running.
func (s *session) close() {
	s.cancel(errSessionClosed)
	if s.cs != nil {
		_ = s.cs.Close()
	}
	s.proc.kill()
}

// serve lists the tools, then keeps the listing current until the session
// ends, which it returns as an error.
func (u *upstream) serve(ctx context.Context, s *session, waiting *[]chan error, answer func(error)) error {
	ended := make(chan error, 1)
	go func() { ended <- s.cs.Wait() }()
	u.m.wg.Go(func() { u.followFeatures(s) }) // ends with the session
	explicit := len(*waiting) > 0
	if subscribes(s.cs) {
		// Under protocol 2026-07-28, list_changed needs a subscription,
		// which the SDK opens without waiting for the server to take
		// it; a change between a listing and the subscription would be
		// missed.
		select {
		case <-u.subscribed:
		case <-time.After(u.m.opts.ConnectTimeout):
			u.log.Warn("the server did not acknowledge the subscription to tool changes; listing anyway")
		case err := <-ended:
			return sessionEnded(err)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	for {
		listedAt := time.Now()
		if err := u.list(s, explicit); err != nil {
			return err
		}
		answer(nil)
		explicit = false
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-ended:
			return sessionEnded(err)
		case err := <-u.lostAuth:
			return err
		case <-u.toolsChanged:
			// A server announcing changes without end would be
			// re-listed, and its cache rewritten, as fast as it
			// announces: changes coalesce into at most one listing
			// per minRelist. Refreshes are not held back.
			if err := u.holdRelisting(ctx, listedAt, ended, waiting, &explicit); err != nil {
				return err
			}
		case r := <-u.refresh:
			*waiting = append(*waiting, r)
			explicit = true
		}
		u.update(func() { u.state = catalog.StateValidating })
	}
}

// holdRelisting waits until minRelist has passed since the last listing
// began, or a refresh is asked for, then takes the changes announced
// meanwhile as covered by the listing to come. It returns an error when the
// session ends first.
func (u *upstream) holdRelisting(ctx context.Context, listedAt time.Time, ended <-chan error, waiting *[]chan error, explicit *bool) error {
	wait := time.Until(listedAt.Add(u.m.minRelist))
	if wait <= 0 {
		return nil
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-timer.C:
	case r := <-u.refresh:
		*waiting = append(*waiting, r)
		*explicit = true
	case err := <-ended:
		return sessionEnded(err)
	case <-ctx.Done():
		return ctx.Err()
	}
	drain(u.toolsChanged)
	return nil
}

// sessionEnded describes the end of a session, given what Wait returned.
func sessionEnded(err error) error {
	if err == nil {
		return errors.New("the server closed the connection")
	}
	return fmt.Errorf("the connection broke: %w", err)
}

// subscribes reports whether the SDK subscribed to the session's tool
// changes, which it does under protocol 2026-07-28 and later when the
// server announces them.
func subscribes(cs *mcp.ClientSession) bool {
	res := cs.InitializeResult()
	return res != nil && res.ProtocolVersion >= "2026-07-28" &&
		res.Capabilities != nil && res.Capabilities.Tools != nil && res.Capabilities.Tools.ListChanged
}

// maxListedTools bounds the tools one server may list: a server that pages
// on without end is cut off there rather than fill memory.
var maxListedTools = 1_000_000 // tests make it smaller

// list reads the server's tools and makes them current.
func (u *upstream) list(s *session, explicit bool) error {
	u.m.bulk.Add(1)
	defer u.m.bulk.Add(-1)
	ir := s.cs.InitializeResult()
	s.listing.enable(ir != nil && ir.ProtocolVersion < "2026-07-28")
	defer s.listing.enable(false)
	tools, err := u.readTools(s)
	if err != nil {
		return err
	}
	var instructions string
	if ir != nil {
		// They reach the model (tool_search shows them with the server's
		// tools): a server that quotes its credentials must not leak them.
		instructions = u.redact.String(ir.Instructions)
	}
	features, listed := u.listingFeatures(s, explicit)
	defer listed()
	u.update(func() {
		features()
		if len(u.toolsChanged) == 0 {
			// No announcement waits for another listing. Cleared
			// before the change is published, so that a call woken by
			// it (awaitListed) sees the listing as current.
			u.relisting.Store(false)
		}
		u.state, u.sess, u.instructions, u.lastErr, u.stderr = catalog.StateActive, s, instructions, "", ""
		if len(tools) == 0 && len(u.tools) > 0 && !explicit {
			// mcpproxy #873: servers briefly list nothing while they
			// start or lose a backend; dropping the catalog would
			// make the model forget tools that come back a moment
			// later.
			u.lastErr = fmt.Sprintf("warning: the server listed no tools; still serving the %d listed at %s until it lists some or is refreshed",
				len(u.tools), u.listed.Format(time.RFC3339))
			return
		}
		u.tools, u.digests, u.listed, u.cached = tools, nil, time.Now(), false
		u.q.listing = true
		u.rebuild()
		// The digests are the entries' (a new entry is never marked
		// changed, so rebuild need not see the tools seen for the first
		// time).
		names := make([]string, len(tools))
		for i, t := range tools {
			names[i] = t.Name
		}
		u.seen.listed(names, func(i int) string { return u.known[tools[i].Name].entry.Digest }, u.listed)
	})
	u.log.Info("tools listed", "tools", len(tools))
	u.settle()
	u.save()
	return nil
}

// readTools reads the server's tools, page by page. Each page must come
// within ConnectTimeout: a server with a hundred thousand tools takes
// longer than that to list them all on a busy machine.
func (u *upstream) readTools(s *session) ([]*mcp.Tool, error) {
	u.mu.Lock()
	known := u.known
	u.mu.Unlock()
	var (
		tools  []*mcp.Tool
		pack   toolfile.SchemaPacker
		params = &mcp.ListToolsParams{}
		empty  int // pages without tools in a row
	)
	for {
		ctx, cancel := context.WithTimeout(s.ctx, u.m.opts.ConnectTimeout)
		res, err := s.cs.ListTools(ctx, params)
		cancel()
		if err != nil {
			if ctx.Err() == context.DeadlineExceeded {
				return nil, fmt.Errorf("no tools/list answer within %v", u.m.opts.ConnectTimeout)
			}
			return nil, fmt.Errorf("listing tools: %w", err)
		}
		page, packed := s.listing.take()
		if !packed {
			page = res.Tools
		}
		for _, t := range page {
			if t == nil {
				continue // the client leaves out null tools too
			}
			if !packed {
				// The client decoded the schemas into maps, several times
				// the size of their JSON: pack each page as it comes.
				pack.Pack(t)
			}
			// A tool listed as it was keeps the definition already known
			// (and so its catalog entry), and its new copy goes at once.
			if k, ok := known[t.Name]; ok && k.entry.Digest == catalog.ToolDigest(t) {
				t = k.tool
			}
			tools = append(tools, t)
		}
		if len(tools) > maxListedTools {
			return nil, fmt.Errorf("the server listed more than %d tools; toolsearch takes at most that many from one server", maxListedTools)
		}
		// A server that pages on without listing anything, or names the
		// page it just gave, would be paged forever, a timeout for each
		// page, and never become active. A few empty pages in a row are
		// allowed: a server may filter what a page holds.
		empty++
		if len(page) > 0 {
			empty = 0
		}
		switch {
		case res.NextCursor == "":
			return tools, nil
		case res.NextCursor == params.Cursor:
			return nil, fmt.Errorf("the server named the page of tools it had just given as the next one (cursor %q): its listing would never end", utf8cut.Prefix(res.NextCursor, 64))
		case empty > maxEmptyPages:
			return nil, fmt.Errorf("the server gave %d pages of no tools in a row, each naming another: its listing would never end", empty)
		}
		params.Cursor = res.NextCursor
	}
}

// maxEmptyPages bounds the pages without tools in a row a listing goes on
// through.
const maxEmptyPages = 8

// fail records why the connection ended, with the tail of stderr.
func (u *upstream) fail(err error, stderr *stderrTail) {
	msg := err.Error()
	tail := u.redact.String(stderr.String())
	if tail != "" {
		msg += "\nstderr:\n" + tail
	}
	msg = u.redact.String(msg)
	if last := catalog.LastLines(tail, 1); len(last) > 0 {
		u.log.Warn("upstream failed", "err", err, "stderr", last[0])
	} else {
		u.log.Warn("upstream failed", "err", err)
	}
	u.update(func() {
		u.state, u.sess, u.lastErr, u.stderr = catalog.StateFailed, nil, msg, tail
	})
}

// loadPersisted publishes the last known catalog.
func (u *upstream) loadPersisted() {
	// The catalog first: the approvals file is read meanwhile (trust.Open).
	p, err := u.m.loadCatalog(u.id.file, u.cfg.Name)
	if p == nil && err == nil && u.id.legacy != u.id.file {
		p, err = u.m.loadCatalog(u.id.legacy, u.cfg.Name) // written by a toolsearch before server keys
	}
	u.adoptApprovals()
	if err != nil {
		u.log.Warn("ignoring the last known catalog", "file", u.id.file, "err", err)
	}
	var inherited map[string]*mcp.Tool
	if p == nil {
		inherited = u.inheritTrusted() // a new configuration of the server
	}
	u.update(func() {
		u.q.inherited = inherited
		if p != nil {
			u.cached = true
			u.tools = slices.DeleteFunc(p.Tools, func(t *mcp.Tool) bool { return t == nil })
			if len(p.Digests) == len(u.tools) && len(u.tools) == len(p.Tools) { // by position: none dropped
				u.digests = p.Digests
			}
			u.listed, u.instructions = p.Listed, u.redact.String(p.Instructions)
			u.features = features{prompts: p.Prompts, resources: p.Resources, templates: p.Templates}
			u.seen = restoreSeen(p.FirstSeen, p.LastSeen, p.Listed, u.tools, u.digests)
			u.seen.forget(time.Now(), len(u.tools)+maxRemembered)
			u.q.trusted = p.Trusted
			u.restoreHeldPrevious(p)
		}
		u.rebuild()
	})
	u.settle()
}

// save writes the last known catalog.
func (u *upstream) save() {
	u.saveMu.Lock()
	defer u.saveMu.Unlock()
	u.mu.Lock()
	// The tools and digests are not copied: a listing replaces them, and
	// nothing alters them once set.
	p := &persisted{
		Server:       u.cfg.Name,
		Listed:       u.listed,
		Instructions: u.instructions,
		Tools:        u.tools,
		Digests:      u.digests,
		Prompts:      u.features.prompts,
		Resources:    u.features.resources,
		Templates:    u.features.templates,
		Trusted:      u.heldPrevious(),
		seen:         u.seen.sorted(),
	}
	u.keepHeldPrevious(p)
	u.mu.Unlock()
	if err := u.m.saveCatalog(u.id.file, p); err != nil {
		u.log.Warn("could not save the last known catalog", "file", u.id.file, "err", err)
	}
}

// update changes the server's state under its lock, then publishes it.
func (u *upstream) update(change func()) {
	u.pubMu.Lock()
	defer u.pubMu.Unlock()
	u.mu.Lock()
	prev := u.state
	change()
	if u.state != prev {
		u.since = time.Now()
		u.log.Debug("state", "from", prev, "to", u.state)
	}
	// Waiters are woken once the catalog has the change, so that what
	// they read next (the catalog, a snapshot) has it too.
	changed := u.changed
	u.changed = make(chan struct{})
	src := &catalog.Source{
		Name:       u.cfg.Name,
		Kind:       catalog.SourceServer,
		Entries:    u.entries,
		Refused:    u.refused,
		Problems:   append(slices.Clip(u.cfg.Problems), u.features.problems...),
		State:      u.state,
		LastListed: u.listed,
		LastError:  u.lastErr,
		Stderr:     u.stderr,
		Cached:     u.cached && len(u.tools) > 0,
		// Only instructions a person or the mode trusted: new ones that
		// wait are not shown (see held.go).
		Instructions:     u.q.instr.shown,
		InstructionsHeld: u.heldInstructionsReason(),
	}
	u.mu.Unlock()
	if !u.retired { // a server removed or replaced publishes nothing more
		u.m.opts.Catalog.Put(src)
	}
	close(changed)
}

// rebuild makes the catalog entries of the last known tools. A tool whose
// definition is the one of the last rebuild keeps its entry, as long as
// nothing else about it changed. Callers hold u.mu.
func (u *upstream) rebuild() {
	prev := u.known
	u.entries, u.refused = nil, nil
	u.q.startRebuild(len(u.tools))
	u.known = make(map[string]knownTool, len(u.tools))
	// Sized for the catalog: grown a tool at a time, the maps of a large
	// server's were rehashed a dozen times over on the way to the first
	// listing.
	seen := make(map[string]bool, len(u.tools))
	verdicts := map[string]string{}
	verdict := func(e *catalog.Entry) string {
		if !schema.MayCycle(e.Tool.InputSchema) {
			return ""
		}
		reason, ok := u.schemaVerdicts[e.Digest]
		if !ok {
			if err := schema.Check(e.Tool.InputSchema); err != nil {
				reason = "its inputSchema cannot be checked: " + err.Error() + "; the server must fix the schema"
			}
		}
		verdicts[e.Digest] = reason
		return reason
	}
	defer func() { u.schemaVerdicts = verdicts }()
	// A tool listed as it was keeps its entry, unless the entry was held
	// (its text is then not the tool's). The others' entries are made
	// beforehand, on every core: a large server's first listing, or its
	// last known catalog at a start, makes one for each of its tools.
	reused := func(t *mcp.Tool) bool {
		k, ok := prev[t.Name]
		return ok && k.tool == t && k.entry.Quarantine == nil
	}
	fresh := make([]*catalog.Entry, len(u.tools))
	haveDigests := len(u.digests) == len(u.tools)
	parallel.For(len(u.tools), func(i int) {
		t := u.tools[i]
		switch {
		case reused(t):
		case haveDigests:
			// The last known catalog's, made from the definition as it
			// was saved. A file altered to lie about them could as well
			// alter the approvals beside it; the server's next listing
			// is hashed whatever this says.
			fresh[i] = catalog.NewToolEntryWithDigest(u.cfg.Name, catalog.QualifiedName(u.cfg.Name, t.Name), t, u.digests[i])
		default:
			fresh[i] = catalog.NewToolEntry(u.cfg.Name, catalog.QualifiedName(u.cfg.Name, t.Name), t)
		}
	})
	u.prescan(func(i int) string {
		if e := fresh[i]; e != nil {
			return e.Digest
		}
		return prev[u.tools[i].Name].entry.Digest
	})
	u.digests = make([]string, len(u.tools))
	set := u.settings() // a change of them rebuilds again
	// A reused entry is worked on in scratch, since published entries
	// never change, and kept only if something about it did: a copy of
	// each (184 bytes) was garbage at every listing of a large server,
	// whose tools are mostly listed as they were.
	var scratch catalog.Entry
	for i, t := range u.tools {
		e := fresh[i]
		if e == nil {
			scratch = *prev[t.Name].entry
			e = &scratch
		}
		u.digests[i] = e.Digest
		_, known := u.known[t.Name] // by an earlier tool of the same name
		var refusal string
		switch err := catalog.CheckProxiedName(e.Name, t.Name); {
		case seen[t.Name]:
			refusal = fmt.Sprintf("the server lists %q more than once; the first definition is used", t.Name)
		case err != nil:
			refusal = err.Error()
		default:
			seen[t.Name] = true
			refusal = verdict(e)
		}
		if refusal == "" {
			e.Policy = set.policy(t.Name)
			e.AlwaysLoad = set.alwaysLoad(t.Name)
			r, ok := u.seen[t.Name]
			e.Changed = ok && r.first != e.Digest
			u.hold(e, t)
		}
		if e == &scratch {
			if published := prev[t.Name].entry; scratch == *published {
				e = published // nothing about it changed
			} else {
				c := scratch
				e = &c
			}
		}
		if !known {
			u.known[t.Name] = knownTool{t, e}
		}
		if refusal != "" {
			u.refused = append(u.refused, catalog.Refusal{Entry: e, Reason: refusal})
			continue
		}
		u.entries = append(u.entries, e)
	}
	u.decideInstructions() // while the listing is current, so that what it trusts is recorded
	u.q.endRebuild(u.tools, func(name string) bool { _, ok := u.known[name]; return ok })
	u.rebuildFeatures()
}

// knownTool is a tool of the last rebuild with the entry made for it (or
// refused).
type knownTool struct {
	tool  *mcp.Tool
	entry *catalog.Entry
}

func (u *upstream) status() Status {
	u.mu.Lock()
	defer u.mu.Unlock()
	st := Status{
		Server:     u.cfg.Name,
		State:      u.state,
		Since:      u.since,
		LastListed: u.listed,
		LastError:  u.lastErr,
		Tools:      len(u.tools),
		Relisting:  u.relisting.Load(),
	}
	if u.sess != nil {
		st.PID = u.sess.proc.pid()
	}
	return st
}

// notActive describes why the server takes no calls in the given state.
func (u *upstream) notActive(state catalog.State, lastErr string) *NotActiveError {
	reason := lastErr
	switch {
	case state == catalog.StateDisabled && reason == "":
		reason = "disabled in toolsearch's settings"
	case state == catalog.StateValidating:
		reason = "re-listing its tools"
	case state == catalog.StateConnecting && reason == "":
		reason = "starting"
	case state == catalog.StateConnecting && !strings.HasPrefix(reason, "starting"):
		reason = "starting again after: " + reason
	}
	return &NotActiveError{Server: u.cfg.Name, State: state, Reason: strings.TrimSpace(reason)}
}
