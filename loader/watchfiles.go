package loader

import (
	"context"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// WatchFiles calls changed each time one of the files paths returns is
// written, created, removed or renamed, once a burst of such events has been
// quiet for debounce, until ctx ends. Editors replace a file rather than
// write it in place, so the folders holding the files are watched, not the
// files: a file that does not exist yet is picked up when it appears. paths
// is asked again after each call, so that the set may change (a
// configuration naming another file). A folder that cannot be watched is
// logged and skipped.
func WatchFiles(ctx context.Context, debounce time.Duration, paths func() []string, changed func(), log *slog.Logger) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	files := map[string]bool{}
	dirs := map[string]bool{}
	follow := func() {
		files = map[string]bool{}
		for _, p := range paths() {
			if p == "" {
				continue
			}
			abs, err := filepath.Abs(p)
			if err != nil {
				continue
			}
			files[abs] = true
			if dir := filepath.Dir(abs); !dirs[dir] {
				if err := w.Add(dir); err != nil {
					log.Warn("cannot watch a configuration folder", "dir", dir, "err", err)
					continue
				}
				dirs[dir] = true
			}
		}
	}
	follow()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if files[filepath.Clean(ev.Name)] && ev.Op != fsnotify.Chmod {
				timer.Reset(debounce)
			}
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			log.Warn("watching configuration files", "err", err)
		case <-timer.C:
			changed()
			follow()
		}
	}
}
