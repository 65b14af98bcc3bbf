package catalog

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/toolsearch/toolsearch/loader/problem"
)

// SourceKind tells what a source is.
type SourceKind string

const (
	SourceSkills SourceKind = "skills" // SKILL.md folders
	SourceServer SourceKind = "server" // an upstream MCP server
	SourceTools  SourceKind = "tools"  // a static file of tool definitions
	// SourceConfig holds the problems of toolsearch's own configuration
	// files (a broken edit of .mcp.json, say); it has no entries.
	SourceConfig SourceKind = "config"
)

// State is the condition of an upstream server.
type State string

const (
	StateConnecting State = "connecting"
	StateValidating State = "validating" // re-listing its tools
	StateActive     State = "active"
	StateFailed     State = "failed"
	StateDisabled   State = "disabled"
	// StateNeedsAuth is a server that answers only with tokens toolsearch
	// does not have, or no longer has: someone must log in to it.
	StateNeedsAuth State = "needs_auth"
	// StateCached marks entries, not servers: those of a server still
	// connecting, served from its last known catalog (an earlier run's
	// listing) until it lists its tools again.
	StateCached State = "cached"
)

// Source is one origin of catalog entries with what is known about it.
type Source struct {
	Name    string
	Kind    SourceKind
	Entries []*Entry
	// Refused holds entries the source could not expose (a name too long,
	// say), so that operators see them with the reason.
	Refused []Refusal
	// Problems found while loading; they never stop the rest.
	Problems problem.Problems

	// For servers.
	State      State
	LastListed time.Time // last good tools/list
	LastError  string    // includes the tail of the server's stderr
	// Stderr is the tail of a stdio server's stderr when it last failed:
	// what a server that exits at start says about why ("missing API key").
	// LastError ends with it too.
	Stderr string
	// Cached says that Entries are the last known catalog, from an earlier
	// run: the server has not listed its tools in this one yet.
	Cached bool
	// Instructions are the server's own instructions, shown when relevant:
	// the last that were trusted (package loader/trust), never ones that
	// wait for approval.
	Instructions string
	// InstructionsHeld, when set, says why newer instructions of the
	// server wait for a person's approval; they are not shown meanwhile.
	InstructionsHeld string
}

// EntryState is the state to show with the source's entries: the server's,
// except that the entries of a server still connecting are StateCached when
// they come from its last known catalog.
func (s *Source) EntryState() State {
	if s.Cached && s.State == StateConnecting {
		return StateCached
	}
	return s.State
}

// Refusal is an entry kept out of the catalog, with the reason.
type Refusal struct {
	Entry  *Entry
	Reason string
}

// A Snapshot is an immutable view of the catalog. Readers hold on to one for
// as long as they need consistent answers.
type Snapshot struct {
	Version uint64
	Sources []*Source
	// Entries holds every accepted entry, hidden ones included, in listing
	// order: by source, then by name.
	Entries []*Entry
	Refused []Refusal

	// byFold holds the tools and skills, which share one name space, by
	// their lower-cased names: the first of each folded name (see claim).
	// Names are case-sensitive, as MCP's are, so names that differ only in
	// case (calculate_bmi, calculate_BMI) are all accepted; byCase holds each
	// of those by its exact name. They are rare, so byFold answers most exact
	// lookups alone, and a map by exact name of every entry would only repeat
	// it (7 MB at 100,000 tools).
	byFold   map[string]*Entry
	byCase   map[string]*Entry
	bySource map[string]*Source
	// Prompts and resources have name spaces of their own. Prompts are
	// by exact name, and by lower-cased name when only one folds so (nil
	// when several do).
	byPrompt, byPromptFold map[string]*Entry
	byURI, byTemplate      map[string]*Entry
}

// Lookup finds a tool or skill by its exact name, falling back to a
// case-insensitive match when only one entry's name matches so. Prompts and
// resources have lookups of their own.
func (s *Snapshot) Lookup(name string) (*Entry, bool) {
	e, ok := s.byFold[strings.ToLower(name)]
	if !ok || e.Name == name {
		return e, ok
	}
	if exact, ok := s.byCase[name]; ok {
		return exact, true
	}
	if _, several := s.byCase[e.Name]; several {
		return nil, false // which of them is meant, case cannot say
	}
	return e, true
}

// CaseVariants returns the entries whose names differ from name only in
// case, name's own included, when there are several: what a name that
// Lookup cannot resolve by case alone may have meant.
func (s *Snapshot) CaseVariants(name string) []*Entry {
	e, ok := s.byFold[strings.ToLower(name)]
	if !ok {
		return nil
	}
	if _, several := s.byCase[e.Name]; !several {
		return nil
	}
	var out []*Entry
	for _, v := range s.byCase {
		if strings.EqualFold(v.Name, name) {
			out = append(out, v)
		}
	}
	slices.SortFunc(out, func(a, b *Entry) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Source returns the named source.
func (s *Snapshot) Source(name string) (*Source, bool) {
	src, ok := s.bySource[name]
	return src, ok
}

// Listed returns the entries that may be listed and searched.
func (s *Snapshot) Listed() []*Entry {
	var out []*Entry
	for _, e := range s.Entries {
		if e.Listed() {
			out = append(out, e)
		}
	}
	return out
}

// Catalog merges the entries of every source into snapshots and tells
// subscribers when they change. It is safe for concurrent use.
type Catalog struct {
	// notifyMu serializes updates end to end, so that subscribers see
	// changes in order.
	notifyMu sync.Mutex
	mu       sync.Mutex
	order    []string // source names in priority order
	sources  map[string]*Source
	reserved map[string]string // names nothing may take, with why
	snap     *Snapshot
	subs     map[int]func(old, new *Snapshot)
	nextSub  int
}

// New returns an empty catalog. Reserved names (toolsearch's own
// tools) are refused to every source.
func New(reserved ...string) *Catalog {
	c := &Catalog{sources: map[string]*Source{}, reserved: map[string]string{}, subs: map[int]func(old, new *Snapshot){}}
	for _, r := range reserved {
		c.reserved[strings.ToLower(r)] = r
	}
	c.snap = c.build(0)
	return c
}

// Snapshot returns the current snapshot.
func (c *Catalog) Snapshot() *Snapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.snap
}

// Put adds or replaces a source. A new source ranks after the existing ones
// when names collide.
func (c *Catalog) Put(src *Source) {
	c.update(func() {
		if _, ok := c.sources[src.Name]; !ok {
			c.order = append(c.order, src.Name)
		}
		c.sources[src.Name] = src
	})
}

// Remove drops a source and its entries.
func (c *Catalog) Remove(name string) {
	c.update(func() {
		if _, ok := c.sources[name]; ok {
			delete(c.sources, name)
			c.order = slices.DeleteFunc(c.order, func(n string) bool { return n == name })
		}
	})
}

// Subscribe calls fn after every change with the snapshots before and after.
// Calls are serialized and made without the catalog's lock held. The
// returned function ends the subscription.
func (c *Catalog) Subscribe(fn func(old, new *Snapshot)) (cancel func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	id := c.nextSub
	c.nextSub++
	c.subs[id] = fn
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.subs, id)
	}
}

func (c *Catalog) update(change func()) {
	c.notifyMu.Lock()
	defer c.notifyMu.Unlock()
	c.mu.Lock()
	change()
	old := c.snap
	c.snap = c.build(old.Version + 1)
	snap := c.snap
	subs := make([]func(old, new *Snapshot), 0, len(c.subs))
	for _, id := range slices.Sorted(maps.Keys(c.subs)) {
		subs = append(subs, c.subs[id])
	}
	c.mu.Unlock()
	for _, fn := range subs {
		fn(old, snap)
	}
}

// build merges the sources into a snapshot. Names are unique: the first
// source in priority order keeps a contested name and later claimants are
// refused, never silently renamed. Tools and skills share a name space;
// prompts have their own, and resources are keyed by URI, which no two
// sources may claim (see contestedURIs).
func (c *Catalog) build(version uint64) *Snapshot {
	entries := 0
	for _, src := range c.sources {
		entries += len(src.Entries)
	}
	// Sized for the entries: a large server's 100,000 grew these maps
	// through a dozen rehashes at every change of any source.
	s := &Snapshot{
		Version:      version,
		byFold:       make(map[string]*Entry, entries),
		bySource:     map[string]*Source{},
		byPrompt:     map[string]*Entry{},
		byPromptFold: map[string]*Entry{},
		byURI:        map[string]*Entry{},
		byTemplate:   map[string]*Entry{},
	}
	contested := contestedURIs(c.order, c.sources)
	for _, name := range c.order {
		src := c.sources[name]
		s.Sources = append(s.Sources, src)
		s.bySource[name] = src
		s.Refused = append(s.Refused, src.Refused...)
		for _, e := range byKindAndName(src.Entries) {
			if reason := c.claim(s, e, contested); reason != "" {
				s.Refused = append(s.Refused, Refusal{e, reason})
				continue
			}
			s.Entries = append(s.Entries, e)
		}
	}
	return s
}

// byKindAndName returns the entries by kind, then name, and those alike in
// the order given: a stable sort's order, from an unstable sort that breaks
// ties by position (the stable sort, an insertion sort merged in place, took
// a sixth of a second for a large server's 100,000 entries, at every change
// of any source).
func byKindAndName(entries []*Entry) []*Entry {
	type placed struct {
		e *Entry
		i int
	}
	order := make([]placed, len(entries))
	for i, e := range entries {
		order[i] = placed{e, i}
	}
	slices.SortFunc(order, func(a, b placed) int {
		if d := kindOrder(a.e.Kind) - kindOrder(b.e.Kind); d != 0 {
			return d
		}
		if d := strings.Compare(a.e.Name, b.e.Name); d != 0 {
			return d
		}
		return a.i - b.i
	})
	sorted := make([]*Entry, len(order))
	for i, p := range order {
		sorted[i] = p.e
	}
	return sorted
}

// claim records e under its name in s, or says why it cannot have it.
func (c *Catalog) claim(s *Snapshot, e *Entry, contested map[string][]string) string {
	fold := strings.ToLower(e.Name)
	switch e.Kind {
	case KindPrompt:
		if prev, ok := s.byPrompt[e.Name]; ok {
			return fmt.Sprintf("name collides with the prompt %s from %s", prev.Name, prev.Source)
		}
		s.byPrompt[e.Name] = e
		if _, ok := s.byPromptFold[fold]; ok {
			s.byPromptFold[fold] = nil // names alike but for case: none is the case-insensitive match
		} else {
			s.byPromptFold[fold] = e
		}
		return ""
	case KindResource:
		if !e.Listed() {
			return "" // a hidden resource claims nothing: hiding settles a contest
		}
		if claimants, ok := contested[uriKey(e)]; ok {
			return contestedReason(e, claimants)
		}
		byURI := s.byURI
		if e.Template != nil {
			byURI = s.byTemplate
		}
		if prev, ok := byURI[e.Name]; ok {
			return fmt.Sprintf("%s is listed more than once by %s; the first is used", e.Name, prev.Source)
		}
		byURI[e.Name] = e
		return ""
	}
	if r, ok := c.reserved[fold]; ok {
		return fmt.Sprintf("%q is reserved for toolsearch's own %s tool", e.Name, r)
	}
	prev, ok := s.byFold[fold]
	if !ok {
		s.byFold[fold] = e
		return ""
	}
	if prev.Name == e.Name {
		return fmt.Sprintf("name collides with %s from %s", prev.Name, prev.Source)
	}
	if s.byCase == nil {
		s.byCase = map[string]*Entry{prev.Name: prev}
	} else if _, ok := s.byCase[e.Name]; ok {
		return fmt.Sprintf("name collides with %s from %s", e.Name, s.byCase[e.Name].Source)
	}
	s.byCase[prev.Name] = prev
	s.byCase[e.Name] = e
	return ""
}

// LastLines returns the last n non-blank lines of text (a stderr tail), for
// places that show only a few.
func LastLines(text string, n int) []string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, strings.TrimRight(l, " \t\r"))
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}
