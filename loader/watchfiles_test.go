package loader

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// kubeletMount lays out dir as the kubelet mounts a ConfigMap: each file a
// link through ..data, itself a link to a timestamped folder.
type kubeletMount struct {
	t   *testing.T
	dir string
	gen int
}

func (m *kubeletMount) write(files map[string]string) {
	m.t.Helper()
	m.gen++
	stamp := filepath.Join(m.dir, "..2026_12_05_06_"+string(rune('a'+m.gen)))
	if err := os.Mkdir(stamp, 0o755); err != nil {
		m.t.Fatal(err)
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(stamp, name), []byte(body), 0o644); err != nil {
			m.t.Fatal(err)
		}
	}
	old, _ := os.Readlink(filepath.Join(m.dir, "..data"))
	// The kubelet's atomic swap: a new link beside ..data, renamed over it.
	tmp := filepath.Join(m.dir, "..data_tmp")
	if err := os.Symlink(filepath.Base(stamp), tmp); err != nil {
		m.t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(m.dir, "..data")); err != nil {
		m.t.Fatal(err)
	}
	for name := range files {
		link := filepath.Join(m.dir, name)
		if _, err := os.Lstat(link); os.IsNotExist(err) {
			if err := os.Symlink(filepath.Join("..data", name), link); err != nil {
				m.t.Fatal(err)
			}
		}
	}
	if old != "" {
		os.RemoveAll(filepath.Join(m.dir, old))
	}
}

func TestWatchFilesSeesAConfigMapSwap(t *testing.T) {
	m := &kubeletMount{t: t, dir: t.TempDir()}
	m.write(map[string]string{"toolsearch.yaml": "a: 1\n"})
	cfg := filepath.Join(m.dir, "toolsearch.yaml")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	changed := make(chan struct{}, 8)
	go WatchFiles(ctx, 20*time.Millisecond, func() []string { return []string{cfg} }, func() { changed <- struct{}{} }, nil)
	// Until the watch is in place, swaps go unseen: swap until one is seen.
	deadline := time.After(10 * time.Second)
	for seen := false; !seen; {
		m.write(map[string]string{"toolsearch.yaml": "a: 2\n"})
		select {
		case <-changed:
			seen = true
		case <-time.After(200 * time.Millisecond):
		case <-deadline:
			t.Fatal("a ConfigMap's ..data swap was not seen as a change of the file linked through it")
		}
	}
	data, err := os.ReadFile(cfg)
	if err != nil || string(data) != "a: 2\n" {
		t.Fatalf("the mount reads %q, %v", data, err)
	}
}
