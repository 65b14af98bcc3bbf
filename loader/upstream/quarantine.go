package upstream

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/parallel"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/scan"
	"github.com/toolsearch/toolsearch/loader/trust"
)

// quarantine is what an upstream keeps to hold tools for approval. It is
// guarded by upstream.mu.
type quarantine struct {
	// trusted is the last definition of each tool that was not held: what
	// a held definition is compared with. Persisted for the held ones.
	trusted map[string]*mcp.Tool
	// inherited stands in for trusted, until the server's first listing
	// under a configuration that has no last known catalog yet: the
	// definitions of the catalog of its previous configuration (see
	// serverKeys), so that a change held across an edit is still shown as
	// one.
	inherited map[string]*mcp.Tool
	// scans are the scanner's results by definition digest, so that a
	// re-listing scans only what changed.
	scans map[string]*scanned
	// defs and digests are the definitions of the entries, in the same
	// order.
	defs    []*mcp.Tool
	digests []string
	// names are the tools of the last rebuild, sorted, to tell when other
	// servers must look again for shadowing.
	names, published []string
	// toTrust are definitions the mode trusts in the listing being
	// published, recorded in the approvals store once it is out.
	toTrust []trust.Item
	// listing is set while a rebuild publishes a real listing (rather
	// than the last known catalog); listed stays set until settle.
	listing, listed bool
	// reassessing is set while reassess decides again.
	reassessing bool
	// held are the tools held now, by their own names.
	held map[string]bool
	// instr and feat hold the server's instructions and its prompts,
	// resources and templates (see held.go).
	instr instructionsState
	feat  featureHolds
}

// scanned is what the scanner found in one definition.
type scanned struct {
	findings []scan.Finding
	refs     *scan.Refs
}

// maxScans bounds the scans kept, with twice the server's tools: a server
// renaming its tools endlessly must not grow them without end.
const maxScans = 1 << 16

// startRebuild readies the state for a rebuild of the entries.
func (q *quarantine) startRebuild(tools int) {
	if q.trusted == nil {
		q.trusted = make(map[string]*mcp.Tool, tools)
	}
	q.defs, q.digests = q.defs[:0], q.digests[:0]
	q.held = map[string]bool{}
}

// hold decides whether the entry of tool t waits for approval, and holds
// it if so. Callers hold u.mu.
func (u *upstream) hold(e *catalog.Entry, t *mcp.Tool) {
	u.q.defs, u.q.digests = append(u.q.defs, t), append(u.q.digests, e.Digest)
	u.decide(e, t)
}

func (u *upstream) decide(e *catalog.Entry, t *mcp.Tool) {
	shadowable := u.m.othersNamed(u.cfg.Name)
	sc := u.scan(e.Digest, t, shadowable)
	findings := slices.Clone(sc.findings)
	if shadowable {
		// With no other server's names there is nothing to shadow, and
		// gathering this server's own (100,000 of them, say) costs a tenth
		// of a second and 10 MB.
		findings = append(findings, sc.refs.Shadowing(u.cfg.Name, u.m.shadowNames())...)
	}
	v := u.m.approvals.Decide(u.mode(), u.id.trust, t.Name, e.Digest, scan.Withholds(findings))
	if _, kept := u.q.scans[e.Digest]; kept && !v.Held && !shadowable && len(sc.findings) == 0 &&
		(v.Trust != "" && u.q.listing || u.m.approvals.Settled(u.id.trust, t.Name, e.Digest, scan.Version)) {
		// Settled, or about to be (settle records what the listing
		// trusted): nothing but shadowing could change its verdict, and
		// should another server's tools come, the decisions they call
		// for scan it again (see newScan). A large server's scans, kept,
		// were 35 MB of its 100,000 tools.
		delete(u.q.scans, e.Digest)
	}
	if u.q.held == nil {
		u.q.held = map[string]bool{}
	}
	if v.Held { // only the held: a large server's tools are mostly not
		u.q.held[t.Name] = true
	} else {
		delete(u.q.held, t.Name)
	}
	if !v.Held {
		u.q.trusted[t.Name] = t
		if v.Trust != "" && u.q.listing {
			u.q.toTrust = append(u.q.toTrust, trust.Item{Entry: t.Name, Digest: e.Digest, By: v.Trust, Scanner: scan.Version})
		}
		return
	}
	prev := u.q.trusted[t.Name]
	if prev == nil {
		prev = u.q.inherited[t.Name]
	}
	e.Hold(&catalog.Quarantine{
		Reason:   v.Reason,
		Findings: findings,
		Summary:  trust.Summarize(prev, t),
		Previous: prev,
		Review:   u.m.reviewCommand(e.Name),
	})
}

// scan returns what the scanner finds in a definition, once per digest
// while it is kept (see decide). shadowable reports whether another server
// has tools that the definition could name.
func (u *upstream) scan(digest string, t *mcp.Tool, shadowable bool) *scanned {
	if sc, ok := u.q.scans[digest]; ok {
		return sc
	}
	sc := u.newScan(digest, t, shadowable)
	if sc == settledScan {
		// Not kept: it is scanned once its shadowing is asked about, and a
		// large server's last known catalog would keep one for each of
		// its tools (100,000 map entries, a tenth of a second of its start).
		return sc
	}
	if u.q.scans == nil || len(u.q.scans) >= max(maxScans, 2*len(u.tools)) {
		u.q.scans = make(map[string]*scanned, len(u.tools))
	}
	u.q.scans[digest] = sc
	return sc
}

// settledScan stands for every definition not scanned because the approvals
// say what it is whatever the scanner would find (trust.Store.Settled): no
// findings. Nothing changes a scan once made.
var settledScan = &scanned{}

// newScan scans a definition, or finds it settled: its approvals decide it
// whatever the scanner finds but for shadowing (trust.Store.Settled), and
// shadowing is not asked about now. It is asked about by a listing or a
// decision taken again (after other servers' tools changed), when another
// server has tools (shadowable); at a start, the last known catalog of a
// large server is served without scanning it all again, and the listing
// that follows catches up. newScan changes nothing and may run on several
// goroutines at once.
func (u *upstream) newScan(digest string, t *mcp.Tool, shadowable bool) *scanned {
	asked := shadowable && (u.q.listing || u.q.reassessing)
	if !asked && u.m.approvals.Settled(u.id.trust, t.Name, digest, scan.Version) {
		return settledScan
	}
	sc := &scanned{}
	sc.findings, sc.refs = scan.ToolReferences(t)
	return sc
}

// prescan makes, on every core, the scans that a rebuild's decisions will
// ask scan for: a listing of 100,000 tools scanned them one at a time, at
// 54 µs each, for most of its time. digest gives the digest of tool i of
// u.tools. The scans kept may then exceed scan's bound by one rebuild's
// tools, until endRebuild forgets those no longer listed.
func (u *upstream) prescan(digest func(i int) string) {
	if !u.q.listing {
		// A last known catalog: its tools are mostly settled, which
		// needs no scan, only a look at the approvals, under their
		// lock; spread over the cores, those looks took longer.
		return
	}
	var todo []int
	for i := range u.tools {
		if _, ok := u.q.scans[digest(i)]; !ok {
			todo = append(todo, i)
		}
	}
	if len(todo) < prescanMin {
		return // scanned as they are decided
	}
	shadowable := u.m.othersNamed(u.cfg.Name)
	made := make([]*scanned, len(todo))
	parallel.For(len(todo), func(j int) {
		i := todo[j]
		made[j] = u.newScan(digest(i), u.tools[i], shadowable)
	})
	if u.q.scans == nil {
		u.q.scans = make(map[string]*scanned, len(todo))
	}
	for j, i := range todo {
		if made[j] != settledScan {
			u.q.scans[digest(i)] = made[j]
		}
	}
}

// prescanMin is the fewest scans worth spreading over the cores.
const prescanMin = 64

// endRebuild forgets the scans and trusted definitions of tools no longer
// listed, and notes the tool names.
func (q *quarantine) endRebuild(tools []*mcp.Tool, listed func(name string) bool) {
	names := make([]string, 0, len(tools))
	for _, t := range tools {
		names = append(names, t.Name)
	}
	slices.Sort(names)
	q.names = names
	maps.DeleteFunc(q.trusted, func(name string, _ *mcp.Tool) bool { return !listed(name) })
	live := make(map[string]bool, len(q.digests))
	for _, d := range q.digests {
		live[d] = true
	}
	maps.DeleteFunc(q.scans, func(d string, _ *scanned) bool { return !live[d] })
	if q.listing {
		q.inherited = nil
	}
	q.listed = q.listed || q.listing
	q.listing = false
}

// reassess decides again for every entry, after the approvals or other
// servers' tools changed, and reports whether any verdict changed. Unless
// dry, it replaces the entries whose verdict changed. Callers hold u.mu.
func (u *upstream) reassess(dry bool) bool {
	u.q.reassessing = true
	defer func() { u.q.reassessing = false }()
	changed := false
	var ne catalog.Entry // decided on here, and copied only when its verdict changed (see rebuild)
	for i, e := range u.entries {
		if i >= len(u.q.defs) {
			break
		}
		t := u.q.defs[i]
		ne = *e
		ne.Quarantine, ne.Summary, ne.Description = nil, catalog.Summarize(t.Description), t.Description
		u.decide(&ne, t)
		if sameHold(e.Quarantine, ne.Quarantine) {
			continue
		}
		if !dry {
			if !changed { // the published slice is a snapshot's: never write to it
				u.entries = slices.Clone(u.entries)
			}
			c := ne
			u.entries[i] = &c
		}
		changed = true
	}
	// The server's other definitions, decided as its tools are.
	if u.instructionsVerdictChanged() {
		if !dry {
			u.decideInstructions()
		}
		changed = true
	}
	if u.featureVerdictsChanged() {
		if !dry {
			u.redoFeatures()
		}
		changed = true
	}
	return changed
}

func sameHold(a, b *catalog.Quarantine) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Reason == b.Reason && a.Summary == b.Summary && a.Previous == b.Previous && len(a.Findings) == len(b.Findings)
}

// heldPrevious returns the trusted definitions of the held tools, to keep
// with the last known catalog so that a restart can still show what
// changed. Callers hold u.mu.
func (u *upstream) heldPrevious() map[string]*mcp.Tool {
	var out map[string]*mcp.Tool
	for _, e := range u.entries {
		if e.Quarantine != nil && e.Quarantine.Previous != nil {
			if out == nil {
				out = map[string]*mcp.Tool{}
			}
			name := e.Upstream
			if name == "" {
				name = e.Name
			}
			out[name] = e.Quarantine.Previous
		}
	}
	return out
}

// settle follows a rebuild's publication: it records what the listing
// trusted in the approvals store, and tells other servers when this one's
// tool names changed, since a mention of them may now shadow.
func (u *upstream) settle() {
	u.mu.Lock()
	items := u.q.toTrust
	u.q.toTrust = nil
	firstListing := u.q.listed && !u.m.approvals.Known(u.id.trust)
	u.q.listed = false
	names := u.q.names
	moved := !slices.Equal(names, u.q.published)
	u.q.published = names
	u.mu.Unlock()
	if len(items) > 0 || firstListing {
		if err := u.m.approvals.Approve(u.m.ctx, u.id.trust, u.cfg.Name, items); err != nil {
			u.log.Warn("could not record the definitions this listing trusts; they stay trusted for now", "err", err)
		}
	}
	if moved {
		u.m.namesChanged(u.cfg.Name, names)
	}
}

// shadowing tracks every server's tool names, so that a tool mentioning
// another server's tool is caught.
type shadowing struct {
	mu       sync.Mutex
	byServer map[string][]string
	names    *scan.Names // of byServer; nil until asked for since it changed
}

// shadowNames returns the current names; the value is never changed once
// handed out. They are gathered when first asked for after a change, not at
// the change: a server's tools are decided with the other servers' names,
// and with one server (a large one, say, whose 100,000 names took 0.26 s
// of its start to gather) nothing asks until it lists its tools again.
func (m *Manager) shadowNames() *scan.Names {
	m.shadow.mu.Lock()
	defer m.shadow.mu.Unlock()
	if m.shadow.names == nil {
		n := &scan.Names{}
		for srv, list := range m.shadow.byServer {
			for _, name := range list {
				n.Add(srv, name, catalog.QualifiedName(srv, name))
			}
		}
		m.shadow.names = n
	}
	return m.shadow.names
}

// othersNamed reports whether a server other than server has tools, whose
// names server's tools could shadow.
func (m *Manager) othersNamed(server string) bool {
	m.shadow.mu.Lock()
	defer m.shadow.mu.Unlock()
	for srv, names := range m.shadow.byServer {
		if srv != server && len(names) > 0 {
			return true
		}
	}
	return false
}

// namesChanged records a server's tool names and has every other server
// decide again.
func (m *Manager) namesChanged(server string, names []string) {
	m.shadow.mu.Lock()
	if m.shadow.byServer == nil {
		m.shadow.byServer = map[string][]string{}
	}
	m.shadow.byServer[server] = names
	m.shadow.names = nil // gathered again when asked for
	m.shadow.mu.Unlock()
	for _, u := range m.upstreams() {
		if u.cfg.Name != server {
			u.redecide()
		}
	}
}

// redecide decides anew, and publishes and saves the entries when a
// verdict changed.
func (u *upstream) redecide() {
	u.mu.Lock()
	changed := u.reassess(true)
	u.mu.Unlock()
	if changed {
		u.update(func() { u.reassess(false) })
		u.save()
	}
}

// approvalsFile is the approvals store beside the last known catalogs.
func approvalsFile(cacheDir string) string {
	if cacheDir == "" {
		return ""
	}
	return filepath.Join(cacheDir, trust.FileName)
}

// followApprovals has every server decide again when the approvals change,
// and watches the store for other processes' approvals, until ctx ends.
func (m *Manager) followApprovals(ctx context.Context) {
	m.wg.Go(func() { m.approvals.Watch(ctx) })
	cancel := m.approvals.Subscribe(func() {
		for _, u := range m.upstreams() {
			if ctx.Err() != nil { // closed: nothing may be written any more
				return
			}
			u.redecide()
		}
	})
	context.AfterFunc(ctx, cancel)
}

// mode returns the server's quarantine mode: its settings', else the
// default for its transport (trust.DefaultMode for a stdio server,
// trust.DefaultRemoteMode for a remote one: HTTP, SSE, or a stdio bridge
// to either, see ServerConfig.Remote).
func (u *upstream) mode() trust.Mode {
	// The one field, not a copy of the settings (see settings): decide asks
	// for it once a tool, 100,000 allocations a listing of a large server.
	u.setMu.RLock()
	q := u.set.Quarantine
	u.setMu.RUnlock()
	switch {
	case q != "":
		return q
	case u.remote:
		return remoteMode
	}
	return trust.DefaultMode
}

// remoteMode is the default mode of remote servers; the package's tests of
// transports and logins call remote tools without approving them first.
var remoteMode = trust.DefaultRemoteMode

// ErrHeld is returned for a call to a tool held for approval.
var ErrHeld = errors.New("the tool is held for review until a person approves its definition")

// isHeld reports whether a tool, by its own name, is held for approval.
func (u *upstream) isHeld(tool string) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.q.held[tool]
}

// Pending is a definition held for approval: a tool, or the server's
// instructions, a prompt, a resource or a template (see held.go).
type Pending struct {
	Server string
	// Tool is a tool's own name at the server, or the approvals entry of
	// another definition (InstructionsKey, FeatureKey).
	Tool string
	// Kind is "tool", KindInstructions, KindPrompt, KindResource or
	// KindTemplate.
	Kind string
	// Entry names the definition: a tool's catalog entry, or for another
	// definition an entry made to name it (SERVER:instructions,
	// SERVER:prompt:NAME…), which is never published.
	Entry *catalog.Entry
	// Previous and Current are, for a definition other than a tool, the
	// one last trusted (nil if none) and the one held, to diff.
	Previous, Current any
}

// Pending returns the definitions held for approval, by server and name:
// each server's tools, then its other definitions.
func (m *Manager) Pending() []Pending {
	var out []Pending
	for _, u := range m.upstreams() {
		name := u.cfg.Name
		u.mu.Lock()
		for i, e := range u.entries {
			if e.Held() && i < len(u.q.defs) {
				out = append(out, Pending{Server: name, Tool: u.q.defs[i].Name, Kind: string(catalog.KindTool), Entry: e})
			}
		}
		for _, h := range u.heldNow() {
			out = append(out, u.pendingOf(h))
		}
		u.mu.Unlock()
	}
	return out
}

// An ApproveRequest names held tools to approve: one tool of a server, or
// every held tool of it when Tool is "". Digest, when set, is the
// definition the person saw (its whole digest, or at least
// trust.MinDigestPrefix digits of it), which must still be the one held: a
// tool that changed meanwhile is not approved unseen.
type ApproveRequest struct {
	Server, Tool, Digest string
}

// ErrNotPending is returned for an approval that matches no held tool.
var ErrNotPending = errors.New("not held for approval")

// Approve records the held definitions the requests name as approved by
// by ("cli", "http"), and returns them. The servers release them as soon
// as the store says so; a running toolsearch elsewhere hears of it through
// the file.
func (m *Manager) Approve(ctx context.Context, by string, reqs ...ApproveRequest) ([]Pending, error) {
	pending := m.Pending()
	var approved []Pending
	var problems []error
	for _, r := range reqs {
		if _, err := m.server(r.Server); err != nil {
			problems = append(problems, err)
			continue
		}
		found := false
		for _, p := range pending {
			if p.Server != r.Server || r.Tool != "" && p.Tool != r.Tool {
				continue
			}
			found = true
			if r.Digest == "" {
				approved = append(approved, p)
				continue
			}
			if ok, err := trust.MatchDigest(p.Entry.Digest, r.Digest); err != nil {
				problems = append(problems, fmt.Errorf("%s: %w", p.Entry.Name, err))
				continue
			} else if !ok {
				problems = append(problems, fmt.Errorf("%s changed again since it was shown (now %.16s): review it again", p.Entry.Name, p.Entry.Digest))
				continue
			}
			approved = append(approved, p)
		}
		if !found {
			what := r.Server
			switch {
			case strings.HasPrefix(r.Tool, ":"): // instructions, a prompt, a resource (held.go)
				what += r.Tool
			case r.Tool != "":
				what += catalog.NameSeparator + r.Tool
			}
			problems = append(problems, fmt.Errorf("%s: %w", what, ErrNotPending))
		}
	}
	byServer := map[string][]trust.Item{}
	for _, p := range approved {
		byServer[p.Server] = append(byServer[p.Server], trust.Item{Entry: p.Tool, Digest: p.Entry.Digest, By: by})
	}
	for _, name := range slices.Sorted(maps.Keys(byServer)) {
		u, err := m.server(name)
		if err != nil {
			return nil, err
		}
		if err := m.approvals.Approve(ctx, u.id.trust, name, byServer[name]); err != nil {
			return nil, err
		}
	}
	return approved, errors.Join(problems...)
}

// LoadPersisted publishes the servers' last known catalogs without
// connecting, as the package's LoadPersisted does, keeping m for Pending
// and Approve.
func (m *Manager) LoadPersisted() { m.publishPersisted() }

// DefaultCacheDir is where the last known catalogs (and the approvals
// beside them) live when Options.CacheDir is empty.
func DefaultCacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "toolsearch", "upstreams"), nil
}

// reviewCommand is the command that shows a person a held tool.
func (m *Manager) reviewCommand(name string) string {
	if m.opts.ReviewCommand != nil {
		return m.opts.ReviewCommand(name)
	}
	return "toolsearch review " + name
}

// ResetTrust forgets every approval of the server of that name, configured
// or not, and that it was ever listed: its next listing counts as its
// first, as under a new name (what a first listing gets depends on the
// server's mode; see trust). It is the operator's fresh start; no edit of
// the configuration is one. Managers running elsewhere hear of it through
// the approvals file. It reports whether there was anything to forget.
func (m *Manager) ResetTrust(ctx context.Context, server string) (bool, error) {
	if u, err := m.server(server); err == nil {
		u.adoptApprovals() // what an older toolsearch kept goes too
	}
	return m.approvals.Forget(ctx, trustKey(server))
}
