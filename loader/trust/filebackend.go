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
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/gofrs/flock"
	"github.com/toolsearch/toolsearch/internal/atomicfile"
)

// fileBackend keeps the approvals in one JSON file shared by every process
// of the user: a write takes a file lock, re-reads the file under it so
// that no other process's approval is lost, and replaces the file
// atomically; a reader notices another process's write by the file's
// version.
type fileBackend struct {
	file string
	log  *slog.Logger

	mu      sync.Mutex
	read    bool               // version and sum are of a read or write
	version atomicfile.Version // of the file last read or written
	sum     [sha256.Size]byte  // of its bytes
}

// FileBackend keeps the approvals in file (see [FileName]).
func FileBackend(file string, logger *slog.Logger) Backend {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &fileBackend{file: file, log: logger}
}

func (b *fileBackend) String() string { return b.file }

// last returns the sum of the bytes last read or written, if any.
func (b *fileBackend) last() *[sha256.Size]byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.read {
		return nil
	}
	sum := b.sum
	return &sum
}

func (b *fileBackend) remember(version atomicfile.Version, sum [sha256.Size]byte) {
	b.mu.Lock()
	b.read, b.version, b.sum = true, version, sum
	b.mu.Unlock()
}

func (b *fileBackend) forget() {
	b.mu.Lock()
	b.read = false
	b.mu.Unlock()
}

func (b *fileBackend) Read(_ context.Context, force bool) (*Data, error) {
	if !force {
		if info, err := os.Stat(b.file); err == nil {
			b.mu.Lock()
			same := b.read && atomicfile.VersionOf(info).Same(b.version)
			b.mu.Unlock()
			if same {
				return nil, nil
			}
		}
	}
	d, version, sum, err := readFile(b.file, b.last())
	if err != nil {
		b.forget()
		return nil, err
	}
	b.remember(version, sum)
	return d, nil
}

func (b *fileBackend) Update(ctx context.Context, merge func(*Data) bool) (*Data, bool, error) {
	if err := os.MkdirAll(filepath.Dir(b.file), 0o700); err != nil {
		return nil, false, err
	}
	lock := flock.New(b.file + ".lock")
	lctx, cancel := context.WithTimeout(ctx, lockTimeout)
	defer cancel()
	locked, err := lock.TryLockContext(lctx, 20*time.Millisecond)
	if err != nil || !locked {
		return nil, false, fmt.Errorf("approvals file %s is locked by another process: %w", b.file, errors.Join(err, lctx.Err()))
	}
	defer lock.Unlock()
	d, version, sum, err := readFile(b.file, nil)
	if err != nil {
		return nil, false, fmt.Errorf("not writing approvals over a file that cannot be read (fix or remove it): %w", err)
	}
	if !merge(d) {
		if last := b.last(); last != nil && *last == sum {
			return nil, false, nil // what the store holds already
		}
		b.remember(version, sum)
		return d, false, nil
	}
	sum, err = writeFile(b.file, d)
	if err != nil {
		return nil, false, err
	}
	b.remember(atomicfile.Stat(b.file), sum)
	return d, true, nil
}

// Timing of Watch: changes are read after a short quiet spell, since a
// replace shows as several events; where the folder cannot be watched,
// the file is polled.
const (
	watchDebounce = 50 * time.Millisecond
	pollInterval  = 2 * time.Second
)

// Watch follows the file: the folder is watched rather than the file,
// which each write replaces.
func (b *fileBackend) Watch(ctx context.Context, changed func(force bool)) {
	dir := filepath.Dir(b.file)
	w, err := fsnotify.NewWatcher()
	if err == nil {
		if err = os.MkdirAll(dir, 0o700); err == nil {
			err = w.Add(dir)
		}
		if err != nil {
			w.Close()
		}
	}
	if err != nil {
		b.log.Warn("not watching the approvals file; polling it", "file", b.file, "every", pollInterval, "err", err)
		poll(ctx, pollInterval, changed)
		return
	}
	defer w.Close()
	// A change made between Open and now would otherwise be missed.
	changed(false)
	var fire <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			if filepath.Clean(ev.Name) == filepath.Clean(b.file) {
				fire = time.After(watchDebounce)
			}
		case err, ok := <-w.Errors:
			if !ok {
				return
			}
			b.log.Warn("watching the approvals file", "err", err)
			fire = time.After(watchDebounce)
		case <-fire:
			fire = nil
			changed(true)
		}
	}
}

// poll calls changed(false) every interval until ctx ends.
func poll(ctx context.Context, interval time.Duration, changed func(force bool)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			changed(false)
		}
	}
}

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
