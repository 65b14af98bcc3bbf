package trust

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Timing of Watch: changes are read after a short quiet spell, since a
// replace shows as several events; where the folder cannot be watched,
// the file is polled.
const (
	watchDebounce = 50 * time.Millisecond
	pollInterval  = 2 * time.Second
)

// Watch follows the file until ctx ends, so that approvals another process
// writes (`toolsearch approve` beside a running server) take effect at
// once; subscribers hear of each change. The folder is watched rather than
// the file, which each write replaces. While one Watch runs, another
// returns at once.
func (s *Store) Watch(ctx context.Context) {
	if s.file == "" || !s.watching.CompareAndSwap(false, true) {
		return
	}
	defer s.watching.Store(false)
	dir := filepath.Dir(s.file)
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
		s.log.Warn("not watching the approvals file; polling it", "file", s.file, "every", pollInterval, "err", err)
		s.poll(ctx)
		return
	}
	defer w.Close()
	// A change made between Open and now would otherwise be missed.
	if s.reload(false) {
		s.notify()
	}
	var fire <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			if filepath.Clean(ev.Name) == filepath.Clean(s.file) {
				fire = time.After(watchDebounce)
			}
		case err, ok := <-w.Errors:
			if !ok {
				return
			}
			s.log.Warn("watching the approvals file", "err", err)
			fire = time.After(watchDebounce)
		case <-fire:
			fire = nil
			if s.reload(true) {
				s.notify()
			}
		}
	}
}

// poll reads the file when its version changes.
func (s *Store) poll(ctx context.Context) {
	t := time.NewTicker(pollInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if s.reload(false) {
				s.notify()
			}
		}
	}
}
