//go:build linux

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/internal/procfs"
	"github.com/toolsearch/toolsearch/internal/supervise"
)

// TestServeKilledStopsEveryServer starts toolsearch with three stdio
// servers, each of which starts a daemon with setsid first, checks that
// they all run under one supervisor, kills toolsearch with SIGKILL, and
// checks that nothing it started survives: servers, daemons, supervisor.
func TestServeKilledStopsEveryServer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "tools.json", `[{"name":"ping","inputSchema":{"type":"object"}}]`)
	servers := map[string]any{}
	for i := range 3 {
		servers[fmt.Sprint("s", i)] = map[string]any{
			"command": "sh",
			"args": []string{"-c", `echo $$ > "$DIR/server$N.pid"; ` +
				`setsid sh -c 'echo $$ > "$DIR/daemon$N.pid"; exec sleep 600' & exec "$0"`, exe},
			"env": map[string]string{"DIR": dir, "N": fmt.Sprint(i), fakeUpstreamEnv: filepath.Join(dir, "tools.json")},
		}
	}
	cfg, _ := json.Marshal(map[string]any{"mcpServers": servers})
	writeFile(t, dir, "mcp.json", string(cfg))
	cmd := toolsearch(context.Background(), "serve", "--mcp-config", filepath.Join(dir, "mcp.json"))
	cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+t.TempDir())
	cmd.Stderr = &testLog{t: t}
	stdin, err := cmd.StdinPipe() // held open: toolsearch serves until killed
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pids []int
	for i := range 3 {
		pids = append(pids, readPid(t, filepath.Join(dir, fmt.Sprint("server", i, ".pid"))),
			readPid(t, filepath.Join(dir, fmt.Sprint("daemon", i, ".pid"))))
	}
	var supervisors []int
	for i := 0; i < len(pids); i += 2 {
		st, err := procfs.ReadStat(pids[i])
		if err != nil {
			t.Fatal(err)
		}
		if name, _ := procfs.Argv0(st.PPID); name != supervise.SupervisorName {
			t.Errorf("server %d runs under %d, %q", pids[i], st.PPID, name)
		}
		supervisors = append(supervisors, st.PPID)
	}
	if supervisors[0] != supervisors[1] || supervisors[1] != supervisors[2] {
		t.Errorf("the servers run under supervisors %v: want one", supervisors)
	}
	cmd.Process.Kill()
	cmd.Wait()
	for _, pid := range append(pids, supervisors[0]) {
		for deadline := time.Now().Add(stopLimit); alive(pid) && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
		assertGone(t, pid, "a process of the killed toolsearch")
	}
}
