package main

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// configMapMount lays out dir as the kubelet mounts a ConfigMap, and
// replaces its files as the kubelet does: a new timestamped folder, a new
// ..data link renamed over the old one, the old folder removed.
type configMapMount struct {
	t   *testing.T
	dir string
	gen int
}

func (m *configMapMount) write(files map[string]string) {
	m.t.Helper()
	m.gen++
	stamp := "..2026_12_05_07_00_0" + string(rune('0'+m.gen)) + ".123456789"
	if err := os.Mkdir(filepath.Join(m.dir, stamp), 0o755); err != nil {
		m.t.Fatal(err)
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(m.dir, stamp, name), []byte(body), 0o644); err != nil {
			m.t.Fatal(err)
		}
	}
	old, _ := os.Readlink(filepath.Join(m.dir, "..data"))
	if err := os.Symlink(stamp, filepath.Join(m.dir, "..data_tmp")); err != nil {
		m.t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(m.dir, "..data_tmp"), filepath.Join(m.dir, "..data")); err != nil {
		m.t.Fatal(err)
	}
	for name := range files {
		if _, err := os.Lstat(filepath.Join(m.dir, name)); os.IsNotExist(err) {
			if err := os.Symlink(filepath.Join("..data", name), filepath.Join(m.dir, name)); err != nil {
				m.t.Fatal(err)
			}
		}
	}
	if old != "" {
		if err := os.RemoveAll(filepath.Join(m.dir, old)); err != nil {
			m.t.Fatal(err)
		}
	}
}

// TestServeReloadsAConfigMap: serve reading its configuration from a
// ConfigMap's mount takes the kubelet's swap of it as an edit: a server
// added to the mounted .mcp.json starts.
func TestServeReloadsAConfigMap(t *testing.T) {
	m := &configMapMount{t: t, dir: t.TempDir()}
	m.write(map[string]string{"toolsearch.yaml": "mcpConfig: mcp.json\n", "mcp.json": `{"mcpServers": {}}`})
	r := startReplica(t, m.dir, "configmap")
	awaitReady(t, r, http.StatusOK)
	m.write(map[string]string{"toolsearch.yaml": "mcpConfig: mcp.json\n", "mcp.json": `{"mcpServers": {"added": {"command": "/nonexistent/added"}}}`})
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, body := readyz(r.base)
		if ups, _ := body["upstreams"].(map[string]any); ups["added"] != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server added by the ConfigMap's swap never showed: readyz %v", body)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
