// Package upstream connects toolsearch to the upstream MCP servers it
// fronts, keeps their tools in the catalog, and forwards calls to them.
//
// Servers come from a Claude-style .mcp.json (LoadConfig) and toolsearch's
// own per-server Settings. A Manager publishes each server as one catalog
// source of kind catalog.SourceServer, named after the server, whose tools
// are exposed as SERVER__TOOL:
//
//	servers, problems, err := upstream.LoadConfig(".mcp.json")
//	m := upstream.New(servers, upstream.Options{Catalog: catalog, Settings: settings, Logger: logger})
//	m.Start(ctx) // publishes the last known catalogs, then connects in the background
//	defer m.Close() // or Shutdown(ctx), which gives the calls in flight until ctx ends
//	res, err := m.Call(ctx, "github", "create_issue", args)
//
// A server's source carries its state: connecting, validating (re-listing
// its tools), active, failed, needs_auth or disabled. Only an active server
// takes calls; otherwise Call returns a *NotActiveError, except that a
// failed server is reconnected at once for the call, and a server that
// needs a login gives an *AuthRequiredError naming the command that logs
// in.
//
// HTTP and SSE servers that require OAuth get their tokens from the
// oauth package: attached to every request, refreshed before they expire,
// and obtained by Login (which `toolsearch auth login` runs). A server
// without usable tokens is needs_auth until someone logs in, in this
// process or another.
//
// The last known catalog stays published whatever the state: while a
// server starts, re-lists, or has failed, and across restarts, since every
// good listing is saved on disk and published again by the next Start (or
// LoadPersisted) before the server answers. A listing that comes back
// empty after the server had tools is taken for a glitch: the old tools
// stay, with a warning in LastError, until a non-empty listing or an
// explicit Refresh replaces them.
//
// A tool whose definition differs from the one first seen (by
// catalog.ToolDigest) is marked Changed, across restarts, until
// ResetChanged accepts the new definitions.
//
// Failed servers are reconnected with exponential backoff. Their stderr is
// logged line by line, and its tail is kept in LastError.
//
// A stdio server inherits toolsearch's environment, less its secrets:
// toolsearch's own token (TOOLSEARCH_TOKEN, and Options.WithheldEnv), and
// every variable that only other servers' entries name with ${VAR}, which
// are their credentials. The variables its own entry names, and its env,
// it gets.
//
// # Prompts, resources and what servers send back
//
// A server's prompts (SERVER__PROMPT), resources and resource templates
// (under their own URIs) are entries of its source too, listed with its
// tools and kept like them; GetPrompt, ReadResource, Complete and
// Subscribe reach them with the rules of Call.
//
// Every request is made for the client whose Caller its context carries
// (WithCaller). What the server sends while it serves the request goes to
// that caller: its elicitation, sampling and roots requests (or the input
// a 2026-07-28 server asks for in its results), its progress under the
// caller's own token, its log messages. The Manager declares sampling,
// elicitation and roots to every server; the caller decides, and one that
// lacks a capability answers with the protocol's error at once.
//
// # Reconfiguring
//
// Reconfigure moves a running Manager to a new configuration, restarting
// only the servers whose entries changed.
package upstream

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/admission"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/trust"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// Defaults for Options.
const (
	DefaultConnectTimeout = 30 * time.Second
	DefaultMaxBackoff     = 60 * time.Second
	DefaultKeepAlive      = 30 * time.Second
	DefaultConnectWait    = 10 * time.Second
)

// Options configure a Manager.
type Options struct {
	// Catalog receives one source per server.
	Catalog *catalog.Catalog
	// Settings by server name; a server without any gets the defaults.
	Settings map[string]Settings
	// CacheDir holds the last known catalogs. Empty means
	// os.UserCacheDir()/toolsearch/upstreams.
	CacheDir string
	Logger   *slog.Logger
	// Approvals holds the approved tool definitions. Nil opens
	// CacheDir/approvals.json (trust.FileName), or keeps them in memory
	// when there is no CacheDir.
	Approvals *trust.Store
	// ClientInfo is how toolsearch introduces itself to upstreams.
	ClientInfo *mcp.Implementation
	// Dial, when set, replaces the real transports (tests use in-memory
	// transports). The transport must be connected within ctx, which ends
	// when the connection is given up.
	Dial func(ctx context.Context, cfg ServerConfig) (mcp.Transport, error)
	// ConnectWait is how long a call waits for a server that is connecting
	// or re-listing its tools (a call made right after start, say) before
	// it is refused as not active; a server's Settings.ConnectWait wins.
	// Zero means DefaultConnectWait.
	ConnectWait time.Duration
	// ConnectTimeout bounds connecting to a server and each page of a
	// listing of its tools; zero means DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// MaxBackoff caps the delay between reconnections; zero means
	// DefaultMaxBackoff.
	MaxBackoff time.Duration
	// Catalogs, when set, keep the last known catalogs instead of files in
	// CacheDir (which still names them): a database every replica reads.
	Catalogs Catalogs
	// TokenStore keeps the OAuth tokens of HTTP and SSE servers; nil means
	// a store in oauth.DefaultDir. Tokens are never in CacheDir.
	TokenStore oauth.Grants
	// OAuthClient makes the requests to authorization servers (discovery,
	// registration, tokens); nil means a client with a 30 s timeout.
	OAuthClient *http.Client
	// LoginCommand returns the command that logs in to a server, which
	// errors quote; nil means "toolsearch auth login SERVER".
	LoginCommand func(server string) string
	// ReviewCommand returns the command that shows a person a held tool
	// (by its exposed name) and how to approve it, which the model is
	// told; nil means "toolsearch review NAME". The model is never told
	// the command that approves.
	ReviewCommand func(name string) string
	// WithheldEnv names variables of toolsearch's environment that no stdio
	// server inherits, besides those always withheld (see Manager).
	WithheldEnv []string
	// KeepAlive is how often a connected server is pinged; one that misses
	// two pings in a row is reconnected, so that a server gone silent is
	// noticed before a call needs it. Zero means DefaultKeepAlive, negative
	// turns pings off. Only sessions of protocols before 2026-07-28 are
	// pinged: later ones keep no connection between requests.
	KeepAlive time.Duration
	// Observer, when set, is told of the waits and refusals that
	// Settings.MaxConcurrent causes and of every login's outcome.
	Observer Observer
	// MaxPersonal bounds the connections kept for people's calls to
	// servers with identity: user (one per person and server); zero means
	// DefaultMaxPersonal. PersonalIdle closes one unused that long; zero
	// means DefaultPersonalIdle.
	MaxPersonal  int
	PersonalIdle time.Duration
	// Logins keep people's pending logins (identity: user) where every
	// replica finds them; nil means files beside TokenStore's, when it is
	// the files.
	Logins oauth.Logins
	// UserLoginHint, when set, returns the sentence that tells a principal
	// how to log in to a server as themselves (the status page's address,
	// say); nil or "" gives a general one.
	UserLoginHint func(server, principal string) string
}

// ErrUnknownServer is returned for a server name that is not configured.
var ErrUnknownServer = errors.New("unknown upstream server")

// ErrClosed is returned by calls made after Close.
var ErrClosed = errors.New("upstream manager closed")

// A Manager runs the connections to the upstream servers. It is safe for
// concurrent use.
type Manager struct {
	opts Options
	log  *slog.Logger
	// mu guards names and servers, which Reconfigure changes.
	mu      sync.RWMutex
	names   []string // sorted
	servers map[string]*upstream

	// ctx ends with Close; every connection and call derives from it.
	ctx    context.Context
	cancel context.CancelFunc
	start  sync.Once
	wg     sync.WaitGroup

	// calls admits calls (and the requests proxied as calls are) until
	// Shutdown begins.
	calls admission.Gate

	// firstBackoff is the first delay before reconnecting; tests change it.
	firstBackoff time.Duration
	// runs are the servers' connection loops, by server, guarded by
	// runsMu; reconfMu serializes Reconfigure.
	runsMu   sync.Mutex
	runs     map[*upstream]*runHandle
	reconfMu sync.Mutex
	// tokens numbers the progress tokens sent upstream.
	tokens atomic.Uint64
	// bulk counts the servers listing their tools (see Bulk).
	bulk atomic.Int32
	// watchers get the log messages no request in flight claims.
	watchers logWatchers
	// logLevel is the most verbose level a client asked for.
	logMu    sync.Mutex
	logLevel mcp.LoggingLevel

	approvals *trust.Store
	shadow    shadowing
	// tokenStoreErr says why there is no token store.
	tokenStoreErr error
	// people are the connections of people's calls (identity: user);
	// begun counts the logins people began, to bound them.
	people personal
	begun  begunLogins
	// minRelist is the least time between two listings a server's change
	// announcements prompt; tests change it.
	minRelist time.Duration
	// grantsRead is closed once the grants of the servers started were
	// read (GrantsRead).
	grantsRead chan struct{}
}

// New prepares a Manager for the servers; nothing is read or started until
// Start.
func New(servers []ServerConfig, opts Options) *Manager {
	if opts.Catalog == nil {
		opts.Catalog = catalog.New()
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.ClientInfo == nil {
		opts.ClientInfo = &mcp.Implementation{Name: "toolsearch", Version: "(devel)"}
	}
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = DefaultConnectTimeout
	}
	if opts.ConnectWait <= 0 {
		opts.ConnectWait = DefaultConnectWait
	}
	if opts.MaxBackoff <= 0 {
		opts.MaxBackoff = DefaultMaxBackoff
	}
	if opts.KeepAlive == 0 {
		opts.KeepAlive = DefaultKeepAlive
	}
	if opts.CacheDir == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			opts.CacheDir = filepath.Join(dir, "toolsearch", "upstreams")
		} else {
			opts.Logger.Warn("last known upstream catalogs will not be kept", "err", err)
		}
	}
	if opts.Approvals == nil {
		opts.Approvals = trust.Open(approvalsFile(opts.CacheDir), opts.Logger)
	}
	if opts.OAuthClient == nil {
		opts.OAuthClient = &http.Client{Timeout: 30 * time.Second}
	}
	var storeErr error
	if opts.TokenStore == nil {
		var files *oauth.Store
		if files, storeErr = oauth.NewStore(""); storeErr == nil {
			opts.TokenStore = files
		}
	}
	if files, ok := opts.TokenStore.(*oauth.Store); ok && opts.Logins == nil {
		opts.Logins = files.Logins()
	}
	if opts.MaxPersonal <= 0 {
		opts.MaxPersonal = DefaultMaxPersonal
	}
	if opts.PersonalIdle <= 0 {
		opts.PersonalIdle = DefaultPersonalIdle
	}
	m := &Manager{
		approvals:     opts.Approvals,
		opts:          opts,
		log:           opts.Logger,
		servers:       map[string]*upstream{},
		firstBackoff:  time.Second,
		minRelist:     time.Second,
		tokenStoreErr: storeErr,
		people:        personal{max: opts.MaxPersonal, idle: opts.PersonalIdle},
		grantsRead:    make(chan struct{}),
	}
	m.ctx, m.cancel = context.WithCancel(context.Background())
	for _, cfg := range servers {
		if _, dup := m.servers[cfg.Name]; dup {
			m.log.Warn("upstream server configured twice; the first is used", "server", cfg.Name)
			continue
		}
		m.servers[cfg.Name] = newUpstream(m, cfg, m.settings(cfg.Name))
		m.names = append(m.names, cfg.Name)
	}
	slices.Sort(m.names)
	for _, u := range m.servers {
		u.withheld = withheldEnv(u.cfg, servers, opts.WithheldEnv)
	}
	for _, name := range slices.Sorted(maps.Keys(opts.Settings)) {
		if m.servers[name] == nil {
			m.log.Warn("settings for an upstream server that is not configured", "server", name)
		}
	}
	return m
}

// settings returns a server's settings with unknown policies read as
// hidden: a typo must not make a tool callable.
func (m *Manager) settings(name string) Settings {
	s := m.opts.Settings[name]
	policy := make(map[string]catalog.Policy, len(s.Policy))
	for glob, p := range s.Policy {
		if _, err := catalog.ParsePolicy(string(p)); err != nil {
			m.log.Warn("unknown policy; hiding the tools it names", "server", name, "glob", glob, "err", err)
			p = catalog.PolicyHidden
		}
		policy[glob] = p
	}
	s.Policy = policy
	return s
}

// Start publishes every server's last known catalog, then connects to the
// servers in the background: it never waits for an upstream. The servers
// run until Close or until ctx ends. Only the first Start does anything.
func (m *Manager) Start(ctx context.Context) {
	m.StartServers(ctx, m.Names()...)
}

// StartServers is Start for the named servers only, for a command that
// needs one server and should not wait for the others: every last known
// catalog is published, and the servers not named stay as they are
// (connecting, or disabled). Unknown names are ignored.
func (m *Manager) StartServers(ctx context.Context, names ...string) {
	m.start.Do(func() {
		context.AfterFunc(ctx, m.cancel)
		m.followApprovals(m.ctx)
		m.mu.RLock()
		defer m.mu.RUnlock()
		m.publishPersisted()
		m.pruneCache()
		var started []*upstream
		for _, name := range names {
			u := m.servers[name]
			if u == nil || u.settings().Disabled {
				continue
			}
			m.startRun(u)
			started = append(started, u)
		}
		m.wg.Go(func() { m.readGrants(started) })
	})
}

// LoadPersisted publishes the servers' last known catalogs without ever
// connecting to them, for commands that only inspect the catalog. Servers
// stay in state connecting (or disabled).
func LoadPersisted(servers []ServerConfig, opts Options) {
	New(servers, opts).publishPersisted()
}

// pruneCache removes abandoned cache files; see staleCacheAge.
func (m *Manager) pruneCache() {
	keep := map[string]bool{}
	for _, u := range m.servers {
		keep[u.id.file] = true
	}
	removed, err := pruneCache(m.opts.CacheDir, keep, time.Now())
	if err != nil {
		m.log.Warn("could not look for abandoned upstream catalogs", "dir", m.opts.CacheDir, "err", err)
	}
	if len(removed) > 0 {
		m.log.Info("removed abandoned upstream catalogs", "dir", m.opts.CacheDir, "files", removed,
			"unwritten_days", int(staleCacheAge.Hours()/24))
	}
}

func (m *Manager) publishPersisted() {
	for _, name := range m.names {
		m.servers[name].loadPersisted()
	}
}

// Close stops every server at once, ending the calls in flight, and waits
// until their processes have exited. It is Shutdown with no grace.
func (m *Manager) Close() error {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m.Shutdown(ctx)
	return nil
}

// Shutdown stops the manager gracefully: new calls get ErrClosed at once,
// the calls in flight get until ctx ends to finish, and then every server
// is stopped (connections closed, stdio processes ended, as Close does),
// ending the calls still running. It returns once the servers' processes
// have exited, with ctx's error if calls had to be cut short. It may be
// called more than once.
func (m *Manager) Shutdown(ctx context.Context) error {
	drained := m.calls.Close()
	var err error
	select {
	case <-drained:
	case <-ctx.Done():
		err = ctx.Err()
	}
	m.cancel()
	m.people.closeAll()
	m.wg.Wait()
	<-drained
	return err
}

// Refresh re-lists a server's tools now and waits for the listing. Unlike
// a listing prompted by the server, it accepts an empty list. A failed
// server is reconnected first.
func (m *Manager) Refresh(ctx context.Context, server string) error {
	u, err := m.server(server)
	if err != nil {
		return err
	}
	if u.settings().Disabled {
		return u.notActive(catalog.StateDisabled, "")
	}
	reply := make(chan error, 1)
	select {
	case u.refresh <- reply:
	case <-ctx.Done():
		return ctx.Err()
	case <-m.ctx.Done():
		return ErrClosed
	}
	select {
	case err := <-reply:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// AwaitStarted waits while the server is connecting or re-listing its
// tools, for as long as a call would (its connect wait), so that a caller
// looking for a tool the server has not listed yet finds it once it has.
// It returns at once for an unknown server or one in another state.
func (m *Manager) AwaitStarted(ctx context.Context, server string) {
	u, err := m.server(server)
	if err != nil {
		return
	}
	timer := time.NewTimer(u.connectWait())
	defer timer.Stop()
	for {
		u.mu.Lock()
		state, changed := u.state, u.changed
		u.mu.Unlock()
		if state != catalog.StateConnecting && state != catalog.StateValidating || m.ctx.Err() != nil {
			return
		}
		select {
		case <-changed:
		case <-timer.C:
			return
		case <-ctx.Done():
			return
		case <-m.ctx.Done():
			return
		}
	}
}

// ResetChanged accepts the current definitions of a server's tools as the
// ones first seen, clearing their Changed marks.
func (m *Manager) ResetChanged(server string) error {
	u, err := m.server(server)
	if err != nil {
		return err
	}
	u.update(func() {
		now := time.Now().Unix()
		u.seen = seenTools{}
		for _, t := range u.tools {
			u.seen[t.Name] = seenTool{first: catalog.ToolDigest(t), last: now}
		}
		u.rebuild()
	})
	u.save()
	return nil
}

// Status describes one server.
type Status struct {
	Server     string
	State      catalog.State
	Since      time.Time // when it entered State
	LastListed time.Time // last good tools/list
	LastError  string
	Tools      int // last known
	// PID is a stdio server's process while connected; on Linux, that of
	// the supervisor that runs it (see internal/supervise).
	PID int
	// Relisting is set while a change of tools the server announced is not
	// listed yet: its catalog is about to change.
	Relisting bool
}

// Status returns the status of every server, by name.
func (m *Manager) Status() []Status {
	ups := m.upstreams()
	out := make([]Status, 0, len(ups))
	for _, u := range ups {
		out = append(out, u.status())
	}
	return out
}

// upstreams returns the servers, by name.
func (m *Manager) upstreams() []*upstream {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]*upstream, len(m.names))
	for i, name := range m.names {
		out[i] = m.servers[name]
	}
	return out
}

func (m *Manager) server(name string) (*upstream, error) {
	m.mu.RLock()
	u, ok := m.servers[name]
	m.mu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownServer, name)
	}
	return u, nil
}

// Bulk reports whether a server is at work over its whole catalog: listing
// its tools, making their entries and saving them. For a large server that
// is a burst of garbage, which the process's collector should keep small:
// a warm start of 100,000 tools peaks there. (Reading the last known
// catalog at a start is not counted: collected sooner, it delayed the
// first tools/list by a tenth of a second, for no lower peak.)
func (m *Manager) Bulk() bool { return m != nil && m.bulk.Load() > 0 }
