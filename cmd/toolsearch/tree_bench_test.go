//go:build linux

package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/internal/procfs"
	"github.com/toolsearch/toolsearch/internal/supervise"
)

// TestProcessTreeMemory measures the memory of `toolsearch serve`'s whole
// process tree with ten stdio upstreams that serve the dev split's 2,102
// tools between them (this test binary as each server, see
// serveFakeUpstream), once every server has listed its tools and the
// catalog has settled: the proportional set size (Pss, each shared page
// divided among the processes that map it) of toolsearch's own process,
// of its supervisors, of the servers, and of the whole tree. It is a
// measurement for BENCHMARKS.md (run it with -v).
//
// The build measured is a fresh `go build` of this tree; to put others
// beside it in the same run, TOOLSEARCH_TREE_BINARIES lists them as
// name=path pairs separated by commas (as "before=/tmp/toolsearch-main").
// The builds take turns, TOOLSEARCH_TREE_ROUNDS rounds (3 unless set).
func TestProcessTreeMemory(t *testing.T) {
	if os.Getenv("TOOLSEARCH_TREE_MEASURE") == "" {
		t.Skip("a measurement for BENCHMARKS.md: set TOOLSEARCH_TREE_MEASURE=1")
	}
	servers := tenDevServers(t)
	cfg := filepath.Join(t.TempDir(), "mcp.json")
	data, _ := json.Marshal(map[string]any{"mcpServers": servers})
	if err := os.WriteFile(cfg, data, 0o644); err != nil {
		t.Fatal(err)
	}
	type build struct{ name, path string }
	self := filepath.Join(t.TempDir(), "toolsearch")
	if out, err := exec.Command("go", "build", "-o", self, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	builds := []build{{"this tree", self}}
	for _, pair := range strings.Split(os.Getenv("TOOLSEARCH_TREE_BINARIES"), ",") {
		if name, path, ok := strings.Cut(pair, "="); ok {
			builds = append(builds, build{name, path})
		}
	}
	mcpproxy := os.Getenv("TOOLSEARCH_TREE_MCPPROXY")
	if mcpproxy != "" {
		builds = append(builds, build{"mcpproxy", mcpproxy})
	}
	rounds := 3
	fmt.Sscan(os.Getenv("TOOLSEARCH_TREE_ROUNDS"), &rounds)
	figures := map[string][]treeFigures{}
	for round := range rounds {
		for _, b := range builds {
			var f treeFigures
			if b.path == mcpproxy {
				f = measureMcpproxy(t, mcpproxy, servers)
			} else {
				f = measureTree(t, b.path, cfg)
			}
			t.Logf("round %d, %s: %+v", round+1, b.name, f)
			figures[b.name] = append(figures[b.name], f)
		}
	}
	t.Log("| build | tree Pss MB, median (min–max) | toolsearch | supervisors | servers | processes |")
	t.Log("| --- | ---: | ---: | ---: | ---: | ---: |")
	for _, b := range builds {
		fs := figures[b.name]
		med := func(get func(treeFigures) int64) string {
			v := make([]int64, len(fs))
			for i, f := range fs {
				v[i] = get(f)
			}
			slices.Sort(v)
			return fmt.Sprintf("%.1f", float64(v[len(v)/2])/1024)
		}
		tree := func(f treeFigures) int64 { return f.main + f.supervisors + f.servers }
		lo := slices.MinFunc(fs, func(a, b treeFigures) int { return cmp.Compare(tree(a), tree(b)) })
		hi := slices.MaxFunc(fs, func(a, b treeFigures) int { return cmp.Compare(tree(a), tree(b)) })
		t.Logf("| %s | %s (%.1f–%.1f) | %s | %s (%d) | %s | %d |", b.name, med(tree), float64(tree(lo))/1024, float64(tree(hi))/1024,
			med(func(f treeFigures) int64 { return f.main }), med(func(f treeFigures) int64 { return f.supervisors }), fs[0].nSupervisors,
			med(func(f treeFigures) int64 { return f.servers }), fs[0].processes)
	}
}

// treeFigures are the Pss, in kB, of a process tree's parts.
type treeFigures struct {
	main, supervisors, servers int64
	nSupervisors, processes    int
}

// measureTree starts bin serve on cfg, waits until its ten servers have
// listed their tools and a few seconds more, and adds up its tree.
func measureTree(t *testing.T, bin, cfg string) treeFigures {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--mcp-config", cfg)
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+t.TempDir())
	listed := &listedLog{want: 10, done: make(chan struct{})}
	cmd.Stderr = listed
	stdin, err := cmd.StdinPipe() // serve runs until its stdin ends
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Minute):
			cmd.Process.Kill()
			<-done
		}
	}()
	select {
	case <-listed.done:
	case <-time.After(3 * time.Minute):
		t.Fatalf("%s: the servers never all listed their tools:\n%s", bin, listed.tail())
	}
	time.Sleep(5 * time.Second) // indexing and pricing, in the background
	return treeOf(t, cmd.Process.Pid)
}

// treeOf adds up the Pss of the tree below root.
func treeOf(t *testing.T, root int) treeFigures {
	t.Helper()
	kids := map[int][]int{}
	pids, err := procfs.PIDs()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pids {
		if st, err := procfs.ReadStat(p); err == nil {
			kids[st.PPID] = append(kids[st.PPID], p)
		}
	}
	var f treeFigures
	for todo := []int{root}; len(todo) > 0; {
		pid := todo[0]
		todo = append(todo[1:], kids[pid]...)
		pss, err := procfs.RollupKB(pid, "Pss")
		if err != nil {
			continue // gone meanwhile
		}
		f.processes++
		switch name, _ := procfs.Argv0(pid); {
		case pid == root:
			f.main += pss
		case name == supervise.SupervisorName:
			f.supervisors += pss
			f.nSupervisors++
		default:
			f.servers += pss
		}
	}
	return f
}

// measureMcpproxy starts mcpproxy-go (bin) serving the same servers, waits
// until all ten run and then as long as toolsearch is given and more
// (it indexes their tools in the background), and adds up its tree.
func measureMcpproxy(t *testing.T, bin string, servers map[string]any) treeFigures {
	t.Helper()
	dir := t.TempDir()
	var list []map[string]any
	for _, name := range slices.Sorted(maps.Keys(servers)) {
		e := servers[name].(map[string]any)
		list = append(list, map[string]any{"name": name, "protocol": "stdio", "command": e["command"], "env": e["env"],
			"enabled": true, "quarantined": false})
	}
	data, _ := json.Marshal(map[string]any{"listen": "127.0.0.1:0", "data_dir": dir, "enable_tray": false,
		"enable_socket": false, "mcpServers": list})
	cfg := filepath.Join(dir, "mcp_config.json")
	if err := os.WriteFile(cfg, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "serve", "--config", cfg)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	log := &listedLog{want: -1, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Minute):
			cmd.Process.Kill()
			<-done
		}
	}()
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		if f := treeOf(t, cmd.Process.Pid); f.processes-1 >= len(servers) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("mcpproxy never ran the servers:\n%s", log.tail())
		}
	}
	time.Sleep(15 * time.Second)
	if os.Getenv("TOOLSEARCH_TREE_LOG") != "" {
		t.Logf("mcpproxy's log:\n%s", log.tail())
	}
	return treeOf(t, cmd.Process.Pid)
}

// tenDevServers are ten stdio servers that serve the dev split's tools
// between them: its servers dealt out, the largest first, to whichever of
// the ten has the fewest tools, under their own tool names (prefixed with
// their server's where two would meet).
func tenDevServers(t *testing.T) map[string]any {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "eval", "dev", "catalog.json"))
	if err != nil {
		data, err = os.ReadFile("/work/shared/eval/dev/catalog.json")
	}
	if err != nil {
		t.Skipf("no eval catalog (shared/eval/dev/catalog.json beside the repository): %v", err)
	}
	var all []map[string]any
	if err := json.Unmarshal(data, &all); err != nil {
		t.Fatal(err)
	}
	byServer := map[string][]map[string]any{}
	for _, tool := range all {
		server, _, _ := strings.Cut(tool["name"].(string), "__")
		byServer[server] = append(byServer[server], tool)
	}
	servers := slices.SortedFunc(maps.Keys(byServer), func(a, b string) int {
		return cmp.Or(cmp.Compare(len(byServer[b]), len(byServer[a])), cmp.Compare(a, b))
	})
	groups := make([][]map[string]any, 10)
	names := make([]map[string]bool, 10)
	for i := range names {
		names[i] = map[string]bool{}
	}
	for _, s := range servers {
		i := 0
		for j := range groups {
			if len(groups[j]) < len(groups[i]) {
				i = j
			}
		}
		for _, tool := range byServer[s] {
			full := tool["name"].(string)
			_, name, ok := strings.Cut(full, "__")
			if !ok || names[i][name] {
				name = strings.Replace(full, "__", "_", 1)
			}
			names[i][name] = true
			tool["name"] = name
			groups[i] = append(groups[i], tool)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out := map[string]any{}
	for i, tools := range groups {
		file := filepath.Join(dir, fmt.Sprint("s", i, ".json"))
		data, _ := json.Marshal(tools)
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprint("s", i)] = map[string]any{"command": exe, "env": map[string]string{fakeUpstreamEnv: file}}
	}
	return out
}

// listedLog keeps serve's log, and closes done once want servers have
// listed their tools.
type listedLog struct {
	mu   sync.Mutex
	want int
	seen map[string]bool
	log  []byte
	done chan struct{}
}

func (l *listedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.log = append(l.log, p...)
	if len(l.log) > 64<<10 {
		l.log = l.log[len(l.log)-32<<10:]
	}
	for line := range strings.Lines(string(p)) {
		if !strings.Contains(line, `msg="tools listed"`) {
			continue
		}
		_, server, _ := strings.Cut(line, "server=")
		server, _, _ = strings.Cut(server, " ")
		if l.seen == nil {
			l.seen = map[string]bool{}
		}
		if !l.seen[server] {
			l.seen[server] = true
			if len(l.seen) == l.want {
				close(l.done)
			}
		}
	}
	return len(p), nil
}

func (l *listedLog) tail() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.log)
}

var _ io.Writer = (*listedLog)(nil)
