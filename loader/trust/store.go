package trust

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// FileName is the store's file in the state directory.
const FileName = "approvals.json"

// storeVersion changes with the file format. A file of another version is
// not read (and not overwritten): approvals fail closed.
const storeVersion = 1

// maxApprovals bounds the digests kept per entry; the oldest go first. A
// tool that flips between a few definitions keeps them all.
const maxApprovals = 16

// lockTimeout bounds the wait for another process's write.
const lockTimeout = 10 * time.Second

// Who approved, as recorded.
const (
	ByFirstListing = "first listing" // trusted as part of a server's first listing
	ByNewTool      = "new tool"      // trusted on appearing, under quarantine: changed
)

// An Approval is one approved digest.
type Approval struct {
	Digest string    `json:"digest"`
	At     time.Time `json:"at"`
	By     string    `json:"by"` // a person's channel ("cli", "http") or what the listing trusted
	// Scanner is the version of the scanner (scan.Version) that found the
	// definition clean when a listing trusted it; 0 for a person's
	// approval, which holds whatever the scanner finds.
	Scanner int `json:"scanner,omitempty"`
}

// An Item asks to approve one entry's digest.
type Item struct {
	Entry   string // a tool's own name at its server, or a skill's path
	Digest  string
	By      string
	Scanner int // see Approval
}

// record is one source's approvals.
type record struct {
	Name    string                `json:"name"` // the source's name, for people reading the file
	Entries map[string][]Approval `json:"entries"`
}

// data is the file's content.
type data struct {
	Version int                `json:"version"`
	Sources map[string]*record `json:"sources"`
}

// A Store holds the approved digests of every source: upstream servers
// under a key that says which server configuration they belong to, skills
// under "skills". It is safe for concurrent use, and for several processes
// at once: its [Backend] (a file, a database) serializes their writes, each
// applied to what is stored under the backend's lock, so that no other
// process's approval is lost. It decides from what it last read, in memory.
type Store struct {
	backend Backend // nil keeps approvals in memory only
	log     *slog.Logger

	// ioMu makes each call of the backend and the taking in of its result
	// one step: a backend's cheap check ("unchanged since I last
	// returned") then always speaks of what the store holds, and two
	// reads never land out of order. It is taken before mu.
	ioMu     sync.Mutex
	watching atomic.Bool // one Watch at a time
	loaded   chan struct{}

	mu  sync.Mutex
	d   *data
	err error // why the file could not be read: every decision fails closed
	// down is why the backend could not be reached last (ErrUnavailable):
	// decisions go on from d meanwhile.
	down error

	// Subscriptions have a lock of their own: subscribing need not wait
	// for the file that Open reads in the background.
	subMu   sync.Mutex
	subs    map[int]func()
	nextSub int
}

// Open reads the store at file. A missing file is an empty store; one that
// cannot be read or parsed makes every decision hold (Err says why) until
// it is fixed or removed. file "" keeps approvals in memory only.
func Open(file string, logger *slog.Logger) *Store {
	if file == "" {
		return OpenBackend(nil, logger)
	}
	return OpenBackend(FileBackend(file, logger), logger)
}

// firstReadRetry is how long Open waits before it reads again a backend
// that could not be reached.
const firstReadRetry = time.Second

// OpenBackend reads the store from backend; nil keeps approvals in memory
// only. A backend that cannot be reached ([ErrUnavailable]) is read again
// until it answers: until then every decision waits (Loaded is not
// closed), since deciding from nothing would trust a first listing anew.
func OpenBackend(backend Backend, logger *slog.Logger) *Store {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &Store{backend: backend, log: logger, d: emptyData(), subs: map[int]func(){}, loaded: make(chan struct{})}
	if backend == nil {
		close(s.loaded)
		return s
	}
	// Read in the background: a large server's approvals take a part of
	// the start worth having (half a second at 100,000 tools), which the
	// start spends reading its catalogs meanwhile. s.mu is held until the
	// file is read, so that whatever looks at the approvals waits for them.
	s.ioMu.Lock()
	s.mu.Lock()
	go func() {
		defer close(s.loaded)
		defer s.ioMu.Unlock()
		defer s.mu.Unlock()
		for {
			d, err := backend.Read(context.Background(), true)
			if !errors.Is(err, ErrUnavailable) {
				s.apply(d, err)
				return
			}
			s.log.Warn("waiting for the shared state to load the approvals", "from", backend, "err", err)
			time.Sleep(firstReadRetry)
		}
	}()
	return s
}

// Loaded is closed once the approvals were first read.
func (s *Store) Loaded() <-chan struct{} { return s.loaded }

// File returns where the approvals are kept: the file, or the backend's
// description; "" in memory.
func (s *Store) File() string {
	if s.backend == nil {
		return ""
	}
	return s.backend.String()
}

// Err returns why the file cannot be read, or nil.
func (s *Store) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Down returns why the backend could not be reached at the last attempt,
// or nil: the approvals held are served meanwhile.
func (s *Store) Down() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.down
}

func emptyData() *data { return &data{Version: storeVersion, Sources: map[string]*record{}} }

// reload reads the backend again if it changed (whatever a cheap check
// says, when forced), and reports whether what the store holds changed.
func (s *Store) reload(force bool) bool {
	if s.backend == nil {
		return false
	}
	s.ioMu.Lock()
	defer s.ioMu.Unlock()
	d, err := s.backend.Read(context.Background(), force)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.apply(d, err)
}

// apply takes in what the backend's Read returned, under s.mu, and reports
// whether what the store holds changed.
func (s *Store) apply(d *data, err error) bool {
	if errors.Is(err, ErrUnavailable) {
		if s.down == nil {
			s.log.Warn("the shared state cannot be reached: deciding from the approvals held until it is back", "from", s.backend, "err", err)
		}
		s.down = err
		return false
	}
	if s.down != nil {
		s.log.Info("the shared state is reachable again", "from", s.backend)
		s.down = nil
	}
	if err != nil {
		if s.err == nil || s.err.Error() != err.Error() {
			s.log.Error("approvals file unreadable: holding every tool that needs approval until it is fixed or removed", "file", s.backend, "err", err)
			s.err = err
			return true
		}
		return false
	}
	if d == nil { // the same as last time
		return false
	}
	changed := s.err != nil || !sameData(s.d, d)
	s.d, s.err = d, nil
	return changed
}

// sameData reports whether two contents hold the same approvals (names
// and all), compared as they stand rather than encoded.
func sameData(a, b *data) bool {
	return a.Version == b.Version && maps.EqualFunc(a.Sources, b.Sources, func(x, y *record) bool {
		return x.Name == y.Name && maps.EqualFunc(x.Entries, y.Entries, func(p, q []Approval) bool {
			return slices.EqualFunc(p, q, func(a, b Approval) bool {
				return a.Digest == b.Digest && a.At.Equal(b.At) && a.By == b.By && a.Scanner == b.Scanner
			})
		})
	})
}

// Known reports whether the source was ever listed under quarantine.
func (s *Store) Known(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.d.Sources[key]
	return ok
}

// Approved reports whether the entry's digest is approved.
func (s *Store) Approved(key, entry, digest string) bool {
	return s.anyApproval(key, entry, digest, func(a Approval) bool { return a.Digest == digest })
}

// byPerson reports an approval a person gave, as opposed to one a listing
// recorded for what it trusted on its own (ByFirstListing, ByNewTool).
func byPerson(a Approval) bool { return a.By != ByFirstListing && a.By != ByNewTool }

// Settled reports whether the scanner's findings on a definition could not
// change its verdict: a person approved it, or a listing trusted it after
// this version of the scanner found it clean. A catalog loading its last
// known tools need not scan those again before it serves them.
func (s *Store) Settled(key, entry, digest string, scanner int) bool {
	return s.anyApproval(key, entry, digest, func(a Approval) bool {
		return a.Digest == digest && (byPerson(a) || a.Scanner == scanner)
	})
}

// Approvals returns the approvals of an entry, oldest first.
func (s *Store) Approvals(key, entry string) []Approval {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.d.Sources[key]; r != nil {
		return slices.Clone(r.Entries[entry])
	}
	return nil
}

// anyApproval reports whether any approval of the entry passes match. An
// approval of digest takes the caller's copy of the string: a catalog
// keeps its entries' digests anyway, and the store's own copies, decoded
// from its file, were 8 MB for a server of 100,000 tools.
func (s *Store) anyApproval(key, entry, digest string, match func(Approval) bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.d.Sources[key]
	if r == nil {
		return false
	}
	list, found := r.Entries[entry], false
	for i := range list {
		if list[i].Digest == digest {
			list[i].Digest = digest
		}
		found = found || match(list[i])
	}
	return found
}

// Approve records the items under the source key (named name), and the
// source as listed even when there are no items (see write).
//
// A server's first listing is decided once, whichever process records it
// first: items trusted as part of a first listing (By ByFirstListing) are
// recorded only when the source is not yet known under the backend's
// lock. Another process (a replica, a second toolsearch of the user) that
// took the same listing for the first one loses the race: its items are
// dropped, it reads the winner's approvals, and its subscribers decide
// again against them, so that two first listings are never both trusted.
func (s *Store) Approve(ctx context.Context, key, name string, items []Item) error {
	now := time.Now().UTC()
	merge := func(d *data) bool {
		r := d.Sources[key]
		changed, first := false, r == nil
		if r == nil {
			r = &record{Name: name, Entries: map[string][]Approval{}}
			d.Sources[key] = r
			changed = true
		}
		for _, it := range items {
			if it.By == ByFirstListing && !first {
				continue // another process recorded the first listing
			}
			list := r.Entries[it.Entry]
			if slices.ContainsFunc(list, func(a Approval) bool { return a.Digest == it.Digest }) {
				continue
			}
			list = append(list, Approval{Digest: it.Digest, At: now, By: it.By, Scanner: it.Scanner})
			if len(list) > maxApprovals {
				list = slices.Delete(list, 0, len(list)-maxApprovals)
			}
			r.Entries[it.Entry] = list
			changed = true
		}
		return changed
	}
	return s.write(ctx, merge)
}

// write applies merge to the approvals and stores them, unless merge
// reports that nothing changed. The backend applies it under its lock to
// what is stored, so that approvals written meanwhile by another process
// survive; ctx bounds the wait for the lock.
func (s *Store) write(ctx context.Context, merge func(*data) bool) error {
	s.ioMu.Lock()
	defer s.ioMu.Unlock()
	if s.backend == nil {
		s.mu.Lock()
		changed := merge(s.d)
		s.mu.Unlock()
		if changed {
			s.notify()
		}
		return nil
	}
	d, wrote, err := s.backend.Update(ctx, merge)
	if err != nil {
		if errors.Is(err, ErrUnavailable) {
			s.mu.Lock()
			s.apply(nil, err)
			s.mu.Unlock()
		}
		return err
	}
	if d == nil {
		return nil
	}
	s.mu.Lock()
	changed := wrote || s.err != nil || !sameData(s.d, d)
	s.d, s.err, s.down = d, nil, nil
	s.mu.Unlock()
	if changed {
		s.notify()
	}
	return nil
}

// Subscribe calls fn after every change of the approvals, whether made in
// this process or read from the file. The returned function ends the
// subscription.
func (s *Store) Subscribe(fn func()) (cancel func()) {
	s.subMu.Lock()
	defer s.subMu.Unlock()
	id := s.nextSub
	s.nextSub++
	s.subs[id] = fn
	return func() {
		s.subMu.Lock()
		defer s.subMu.Unlock()
		delete(s.subs, id)
	}
}

func (s *Store) notify() {
	s.subMu.Lock()
	subs := make([]func(), 0, len(s.subs))
	for _, id := range slices.Sorted(maps.Keys(s.subs)) {
		subs = append(subs, s.subs[id])
	}
	s.subMu.Unlock()
	for _, fn := range subs {
		fn()
	}
}
