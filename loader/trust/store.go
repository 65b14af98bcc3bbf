package trust

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofrs/flock"
	"github.com/toolsearch/toolsearch/internal/atomicfile"
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
// at once: a write takes a file lock, re-reads the file under it so that no
// other process's approval is lost, and replaces the file atomically.
type Store struct {
	file string // "" keeps approvals in memory only
	log  *slog.Logger

	writeMu  sync.Mutex  // one write at a time within the process
	watching atomic.Bool // one Watch at a time

	mu      sync.Mutex
	d       *data
	err     error              // why the file could not be read: every decision fails closed
	version atomicfile.Version // of the file d was read from
	sum     [sha256.Size]byte  // of the bytes d was read from or written as

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
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &Store{file: file, log: logger, d: emptyData(), subs: map[int]func(){}}
	if file == "" {
		return s
	}
	// Read in the background: a large server's approvals take a part of
	// the start worth having (half a second at 100,000 tools), which the
	// start spends reading its catalogs meanwhile. s.mu is held until the
	// file is read, so that whatever looks at the approvals waits for them.
	s.mu.Lock()
	go func() {
		defer s.mu.Unlock()
		s.apply(readFile(s.file, nil))
	}()
	return s
}

// File returns the store's file.
func (s *Store) File() string { return s.file }

// Err returns why the file cannot be read, or nil.
func (s *Store) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

func emptyData() *data { return &data{Version: storeVersion, Sources: map[string]*record{}} }

// readFile reads and parses the file. unless, when set, skips the parsing
// when the file's bytes have that sum: the file is then the one already
// read (or written), and d is nil.
func readFile(file string, unless *[sha256.Size]byte) (d *data, version atomicfile.Version, sum [sha256.Size]byte, err error) {
	f, info, err := atomicfile.Open(file) // a regular file, or an error
	if errors.Is(err, os.ErrNotExist) {
		return emptyData(), atomicfile.Version{}, sum, nil
	}
	if err != nil {
		return nil, atomicfile.Version{}, sum, err
	}
	defer f.Close()
	// Summed first, as it is read, when the sum may spare the rest: a
	// change event for the process's own write (a large server's first
	// listing writes tens of MB) then costs neither the decoding nor a
	// buffer of the file's size.
	if unless != nil {
		h := sha256.New()
		if _, err := io.Copy(h, atomicfile.LimitReader(f, file, atomicfile.MaxState)); err != nil {
			return nil, atomicfile.Version{}, sum, err
		}
		if h.Sum(sum[:0]); sum == *unless {
			return nil, atomicfile.VersionOf(info), sum, nil
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, atomicfile.Version{}, sum, err
		}
	}
	// Read whole, as the decoder would buffer it anyway.
	content, err := atomicfile.ReadLimited(f, file, atomicfile.MaxState)
	if err != nil {
		return nil, atomicfile.Version{}, sum, err
	}
	sum = sha256.Sum256(content)
	d = new(data)
	if err := json.Unmarshal(content, d); err != nil {
		return nil, atomicfile.Version{}, sum, fmt.Errorf("%s: %w", file, err)
	}
	if d.Version != storeVersion {
		return nil, atomicfile.Version{}, sum, fmt.Errorf("%s: version %d, this toolsearch reads version %d", file, d.Version, storeVersion)
	}
	if d.Sources == nil {
		d.Sources = map[string]*record{}
	}
	for k, r := range d.Sources {
		switch {
		case r == nil:
			// A source written as null (by hand: encode writes none) had
			// crashed every start. It stays known, with no approvals: a
			// next listing is then not taken for a first one, which
			// would trust all it serves.
			d.Sources[k] = &record{Entries: map[string][]Approval{}}
		case r.Entries == nil:
			r.Entries = map[string][]Approval{}
		default:
			internBy(r.Entries)
		}
	}
	return d, atomicfile.VersionOf(info), sum, nil
}

// internBy makes the approvals that a listing recorded share one string
// for who approved them: decoded, each had its own (1.6 MB at 100,000).
func internBy(entries map[string][]Approval) {
	for _, list := range entries {
		for i := range list {
			switch list[i].By {
			case ByFirstListing:
				list[i].By = ByFirstListing
			case ByNewTool:
				list[i].By = ByNewTool
			}
		}
	}
}

// reload reads the file again if its version changed (whatever the
// version, when forced), and reports whether what the store holds changed.
func (s *Store) reload(force bool) bool {
	if s.file == "" {
		return false
	}
	if info, err := os.Stat(s.file); err == nil && !force {
		s.mu.Lock()
		same := s.err == nil && atomicfile.VersionOf(info).Same(s.version)
		s.mu.Unlock()
		if same {
			return false
		}
	}
	s.mu.Lock()
	var unless *[sha256.Size]byte
	if s.err == nil {
		last := s.sum
		unless = &last
	}
	s.mu.Unlock()
	d, version, sum, err := readFile(s.file, unless)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.apply(d, version, sum, err)
}

// apply takes in what readFile returned, under s.mu, and reports whether
// what the store holds changed.
func (s *Store) apply(d *data, version atomicfile.Version, sum [sha256.Size]byte, err error) bool {
	if err != nil {
		if s.err == nil || s.err.Error() != err.Error() {
			s.log.Error("approvals file unreadable: holding every tool that needs approval until it is fixed or removed", "file", s.file, "err", err)
			s.err = err
			return true
		}
		return false
	}
	if d == nil { // the same bytes as last time
		s.version = version
		return false
	}
	changed := s.err != nil || !sameData(s.d, d)
	s.d, s.version, s.sum, s.err = d, version, sum, nil
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
func (s *Store) Approve(ctx context.Context, key, name string, items []Item) error {
	now := time.Now().UTC()
	merge := func(d *data) bool {
		r := d.Sources[key]
		changed := false
		if r == nil {
			r = &record{Name: name, Entries: map[string][]Approval{}}
			d.Sources[key] = r
			changed = true
		}
		for _, it := range items {
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
// reports that nothing changed. The file is locked, read again, changed
// and replaced, so that approvals written meanwhile by another process
// survive; ctx bounds the wait for the lock.
func (s *Store) write(ctx context.Context, merge func(*data) bool) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if s.file == "" {
		s.mu.Lock()
		changed := merge(s.d)
		s.mu.Unlock()
		if changed {
			s.notify()
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(s.file), 0o700); err != nil {
		return err
	}
	lock := flock.New(s.file + ".lock")
	lctx, cancel := context.WithTimeout(ctx, lockTimeout)
	defer cancel()
	locked, err := lock.TryLockContext(lctx, 20*time.Millisecond)
	if err != nil || !locked {
		return fmt.Errorf("approvals file %s is locked by another process: %w", s.file, errors.Join(err, lctx.Err()))
	}
	defer lock.Unlock()
	d, _, _, err := readFile(s.file, nil)
	if err != nil {
		return fmt.Errorf("not writing approvals over a file that cannot be read (fix or remove it): %w", err)
	}
	if !merge(d) {
		if s.reload(true) {
			s.notify()
		}
		return nil
	}
	sum, err := writeFile(s.file, d)
	if err != nil {
		return err
	}
	version := atomicfile.Stat(s.file)
	s.mu.Lock()
	s.d, s.version, s.sum, s.err = d, version, sum, nil
	s.mu.Unlock()
	s.notify()
	return nil
}

// writeFile replaces file with d atomically (atomicfile), and returns the
// sum of the bytes written.
func writeFile(file string, d *data) (sum [sha256.Size]byte, err error) {
	err = atomicfile.Write(file, func(f io.Writer) error {
		h := sha256.New()
		w := bufio.NewWriter(io.MultiWriter(f, h))
		if err := encode(w, d); err != nil {
			return err
		}
		if err := w.Flush(); err != nil {
			return err
		}
		h.Sum(sum[:0])
		return nil
	})
	return sum, err
}

// encode writes d as json.MarshalIndent(d, "", " ") does, and a line
// break, an entry at a time: the store of a server with 100,000 tools is
// some 25 MB of JSON, which encoding whole, then indenting, took four
// times over.
func encode(w *bufio.Writer, d *data) error {
	key := func(k string) error {
		b, err := json.Marshal(k)
		w.Write(b)
		return err
	}
	fmt.Fprintf(w, "{\n \"version\": %d,\n \"sources\": ", d.Version)
	if d.Sources == nil {
		w.WriteString("null")
	} else if len(d.Sources) == 0 {
		w.WriteString("{}")
	} else {
		w.WriteString("{\n")
		for i, k := range slices.Sorted(maps.Keys(d.Sources)) {
			if i > 0 {
				w.WriteString(",\n")
			}
			w.WriteString("  ")
			if err := key(k); err != nil {
				return err
			}
			r := d.Sources[k]
			if r == nil {
				w.WriteString(": null")
				continue
			}
			w.WriteString(": {\n   \"name\": ")
			if err := key(r.Name); err != nil {
				return err
			}
			w.WriteString(",\n   \"entries\": ")
			if err := encodeEntries(w, r.Entries, key); err != nil {
				return err
			}
			w.WriteString("\n  }")
		}
		w.WriteString("\n }")
	}
	_, err := w.WriteString("\n}\n")
	return err
}

func encodeEntries(w *bufio.Writer, entries map[string][]Approval, key func(string) error) error {
	switch {
	case entries == nil:
		w.WriteString("null")
		return nil
	case len(entries) == 0:
		w.WriteString("{}")
		return nil
	}
	w.WriteString("{\n")
	for i, k := range slices.Sorted(maps.Keys(entries)) {
		if i > 0 {
			w.WriteString(",\n")
		}
		w.WriteString("    ")
		if err := key(k); err != nil {
			return err
		}
		w.WriteString(": ")
		b, err := json.MarshalIndent(entries[k], "    ", " ")
		if err != nil {
			return err
		}
		w.Write(b)
	}
	_, err := w.WriteString("\n   }")
	return err
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
