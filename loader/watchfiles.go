package loader

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
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
//
// A file that is a link is followed through the names its link passes:
// Kubernetes mounts a ConfigMap's file as a link through ..data, a link to
// a timestamped folder that the kubelet replaces by renaming a new ..data
// over it, and no event names the file itself (see linkedNames).
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
			for _, name := range linkedNames(abs) {
				files[name] = true
				if dir := filepath.Dir(name); !dirs[dir] && w.Add(dir) == nil {
					dirs[dir] = true
				}
			}
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

// maxLinkHops bounds how many links linkedNames follows: a loop of links
// must not hold the watcher.
const maxLinkHops = 8

// linkedNames are the paths whose replacement changes what path reads
// when path is a link: for each link on the way, the first name of its
// target (..data for a ConfigMap's file), and the target itself.
func linkedNames(path string) []string {
	var out []string
	for range maxLinkHops {
		target, err := os.Readlink(path)
		if err != nil {
			return out
		}
		if !filepath.IsAbs(target) {
			dir := filepath.Dir(path)
			first, _, _ := strings.Cut(filepath.ToSlash(filepath.Clean(target)), "/")
			if first != ".." && first != "." {
				out = append(out, filepath.Join(dir, filepath.FromSlash(first)))
			}
			target = filepath.Join(dir, target)
		}
		path = filepath.Clean(target)
		out = append(out, path)
	}
	return out
}
