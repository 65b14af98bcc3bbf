package upstream

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Only cache files nobody has written for staleCacheAge go, and never the
// current servers' own: the directory is shared with other projects.
func TestPruneCache(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	old := now.Add(-staleCacheAge - time.Hour)
	recent := now.Add(-staleCacheAge + time.Hour)
	files := []struct {
		name     string
		modified time.Time
		dir      bool
		want     bool // still there after pruning
	}{
		{"gone-0123456789abcdef.json", old, false, false},
		{"mine-0123456789abcdef.json", old, false, true}, // a current server's
		{"other-project-fedcba9876543210.json", recent, false, true},
		{"notes.txt", old, false, true},
		{"x-0123456789abcdef.json.tmp", old, false, true},
		// saveCache's temporary files, left by a toolsearch killed while
		// writing, and one being written now.
		{".tmp-4242", now.Add(-staleTempAge - time.Minute), false, false},
		{".tmp-4343", now, false, true},
		{".tmp-notours", old, false, true},
		{"folder-0123456789abcdef.json", old, true, true},
	}
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		if f.dir {
			os.Mkdir(path, 0o755)
		} else {
			os.WriteFile(path, []byte("{}"), 0o644)
		}
		os.Chtimes(path, f.modified, f.modified)
	}
	keep := map[string]bool{filepath.Join(dir, "mine-0123456789abcdef.json"): true}
	removed, err := pruneCache(dir, keep, now)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(removed, []string{".tmp-4242", "gone-0123456789abcdef.json"}) {
		t.Errorf("removed %q", removed)
	}
	for _, f := range files {
		_, err := os.Stat(filepath.Join(dir, f.name))
		if there := err == nil; there != f.want {
			t.Errorf("%s: there = %v, want %v", f.name, there, f.want)
		}
	}
	if _, err := pruneCache(filepath.Join(dir, "missing"), nil, now); err != nil {
		t.Errorf("a missing directory: %v", err)
	}
}

// Start prunes, and keeps the files of the servers it runs.
func TestStartPrunesAbandonedCatalogs(t *testing.T) {
	e := newEnv(t)
	f := e.add("fake", nil)
	f.addEcho("echo", "Echo.")
	old := time.Now().Add(-staleCacheAge - time.Hour)
	abandoned := filepath.Join(e.opts.CacheDir, "gone-0123456789abcdef.json")
	os.WriteFile(abandoned, []byte("{}"), 0o644)
	os.Chtimes(abandoned, old, old)
	mine := cacheFile(e.opts.CacheDir, e.configs()[0])
	os.WriteFile(mine, []byte("{}"), 0o644)
	os.Chtimes(mine, old, old)

	// No connection, so no listing rewrites the server's file.
	e.opts.Dial = func(ctx context.Context, _ ServerConfig) (mcp.Transport, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	m := New(e.configs(), e.opts)
	m.Start(context.Background())
	defer m.Close()
	if _, err := os.Stat(abandoned); !os.IsNotExist(err) {
		t.Errorf("abandoned catalog still there: %v", err)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("the server's own catalog: %v", err)
	}
}
