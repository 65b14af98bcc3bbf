//go:build team && linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/toolsearch/toolsearch/internal/procfs"
)

// The team suite runs toolsearch as a team would: a PostgreSQL cluster,
// three replicas of the built binary with a HOME each (nothing shared
// through files), and Debian's HAProxy in front with
// examples/deploy/haproxy.cfg, all on loopback, each a child of the test
// stopped by its PID; at the end no process of the run is left.
//
//	go test -tags team -count=1 -run Team ./cmd/toolsearch

const (
	teamOperatorToken = "team-operator-token"
	teamAliceToken    = "team-alice-token"
	teamBobToken      = "team-bob-token"
)

// teamBinary builds toolsearch once for a cluster, into dir: the replicas
// and the CLI run the binary a user runs, not the test binary.
func teamBinary(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "bin", "toolsearch")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// team is one cluster: its database, replicas, load balancer and the
// upstreams it fronts.
type team struct {
	t        *testing.T
	root     string // everything of the run: configurations, HOMEs, logs
	bin      string
	pg       *teamPG
	up       *teamUpstream
	replicas []*teamReplica
	lb       *teamHAProxy
	cfgDir   string // toolsearch.yaml and .mcp.json, the same for everyone (copied per replica)
	keyFile  string
}

// teamOptions say what a cluster fronts.
type teamOptions struct {
	tokenTTL time.Duration // the authorization server's access tokens
	replicas int
}

func startTeam(t *testing.T, o teamOptions) *team {
	t.Helper()
	haproxy := teamHAProxyPath(t)
	tm := &team{t: t, root: t.TempDir()}
	if keep := os.Getenv("TOOLSEARCH_TEAM_KEEP"); keep != "" {
		// The run's folders (logs, configurations, HOMEs) kept for a look
		// afterwards.
		tm.root = filepath.Join(keep, t.Name())
		os.RemoveAll(tm.root)
		if err := os.MkdirAll(tm.root, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tm.bin = teamBinary(t, tm.root)
	// Registered first, so it runs last: after every process was stopped
	// by its PID, none of the run may be left.
	t.Cleanup(tm.checkNoneLeft)
	tm.pg = startTeamPG(t)
	tm.up = startTeamUpstream(t, o.tokenTTL)
	tm.keyFile = filepath.Join(tm.root, "state.key")
	if out, err := exec.Command(tm.bin, "state", "keygen", tm.keyFile).CombinedOutput(); err != nil {
		t.Fatalf("state keygen: %v\n%s", err, out)
	}
	tm.cfgDir = filepath.Join(tm.root, "config")
	tm.writeConfig(tm.cfgDir)
	for i := 1; i <= o.replicas; i++ {
		r := &teamReplica{tm: tm, name: fmt.Sprintf("replica-%d", i), port: freePort(t)}
		r.dir = filepath.Join(tm.root, r.name)
		tm.writeConfig(filepath.Join(r.dir, "config"))
		tm.replicas = append(tm.replicas, r)
	}
	// Started together, as a Deployment's pods are: the first listing is
	// decided once whoever wins.
	var wg sync.WaitGroup
	for _, r := range tm.replicas {
		r.start()
	}
	for _, r := range tm.replicas {
		wg.Add(1)
		go func() { defer wg.Done(); r.waitReady(60 * time.Second) }()
	}
	wg.Wait()
	for _, r := range tm.replicas {
		if status := r.readyStatus(); status != http.StatusOK {
			t.Fatalf("%s never became ready: /readyz without a token, as a load balancer asks, answers %d (0: no answer):\n%s", r.name, status, r.logTail())
		}
	}
	tm.lb = startTeamHAProxy(t, haproxy, tm.root, tm.replicas)
	return tm
}

// writeConfig writes the configuration every replica and CLI reads, as a
// ConfigMap would mount it: the same toolsearch.yaml and .mcp.json.
func (tm *team) writeConfig(dir string) {
	t := tm.t
	mcpJSON, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"ledger": map[string]any{"type": "http", "url": tm.up.base + "/ledger/mcp"},
		"shared": map[string]any{"type": "http", "url": tm.up.base + "/shared/mcp"},
		"mine":   map[string]any{"type": "http", "url": tm.up.base + "/mine/mcp"},
	}})
	writeFile(t, dir, ".mcp.json", string(mcpJSON))
	writeFile(t, dir, "toolsearch.yaml", `# the team suite's configuration: every replica and CLI reads the same
state:
  backend: postgres
  dsn: "${TOOLSEARCH_PG}"
  keyFile: `+tm.keyFile+`
connectWait: 5s
servers:
  ledger: {quarantine: changed}
  shared: {quarantine: "off", oauth: {identity: shared}}
  mine: {quarantine: "off", oauth: {identity: user}}
http:
  tokens:
    - {env: ALICE_TOKEN, principal: alice}
    - {env: BOB_TOKEN, principal: bob}
`)
}

// env is a process's environment in the cluster: a HOME of its own and
// the secrets a Secret would give it, nothing else of the test's.
func (tm *team) env(home string) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"TOOLSEARCH_PG=" + tm.pg.dsn("toolsearch"),
		"TOOLSEARCH_TOKEN=" + teamOperatorToken,
		"ALICE_TOKEN=" + teamAliceToken,
		"BOB_TOKEN=" + teamBobToken,
	}
}

// cli runs a toolsearch command as an operator would, from a HOME of its
// own with the same configuration (and so the same state).
func (tm *team) cli(extraEnv []string, args ...string) (string, error) {
	home := filepath.Join(tm.root, "cli-home")
	os.MkdirAll(home, 0o700)
	cfg := filepath.Join(tm.root, "cli-config")
	if _, err := os.Stat(cfg); err != nil {
		tm.writeConfig(cfg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, tm.bin, append(args, "--config", filepath.Join(cfg, "toolsearch.yaml"))...)
	cmd.Env = append(tm.env(home), extraEnv...)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	if err != nil {
		return out.String() + errs.String(), err
	}
	return out.String(), err
}

// live returns the replicas running now.
func (tm *team) live() []*teamReplica {
	var out []*teamReplica
	for _, r := range tm.replicas {
		if r.running() {
			out = append(out, r)
		}
	}
	return out
}

// checkNoneLeft fails the test when a process of the run outlived it: any
// process whose command line names the run's folders (the binary, the
// replicas' supervisors, HAProxy's configuration, PostgreSQL's data).
func (tm *team) checkNoneLeft() {
	t := tm.t
	marks := []string{tm.root}
	if tm.pg != nil {
		marks = append(marks, tm.pg.dir)
	}
	var left []string
	deadline := time.Now().Add(10 * time.Second)
	for {
		left = left[:0]
		pids, _ := procfs.PIDs()
		for _, pid := range pids {
			if pid == os.Getpid() {
				continue
			}
			st, err := procfs.ReadStat(pid)
			if err != nil || !st.Live() {
				continue
			}
			cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			line := string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))
			for _, m := range marks {
				if strings.Contains(line, m) {
					left = append(left, fmt.Sprintf("%d %s", pid, line))
					break
				}
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if len(left) > 0 {
		t.Errorf("processes of the run left behind:\n%s", strings.Join(left, "\n"))
		for _, l := range left {
			if pid, err := strconv.Atoi(strings.Fields(l)[0]); err == nil {
				syscall.Kill(pid, syscall.SIGKILL) // by the PID found above, so that the next run starts clean
			}
		}
	}
}

// teamReplica is one toolsearch serve --http of the cluster.
type teamReplica struct {
	tm         *team
	name, port string
	dir        string // its HOME, its configuration, its log

	mu      sync.Mutex
	cmd     *exec.Cmd
	done    chan struct{}
	started time.Time
	log     *os.File
	// logFrom is where this run's lines begin in serve.log, which every
	// start appends to.
	logFrom int64
}

func (r *teamReplica) base() string { return "http://127.0.0.1:" + r.port }

func (r *teamReplica) start() {
	t := r.tm.t
	home := filepath.Join(r.dir, "home")
	os.MkdirAll(home, 0o700)
	cmd := exec.Command(r.tm.bin, "serve", "--http", "127.0.0.1:"+r.port, "--config", filepath.Join(r.dir, "config", "toolsearch.yaml"))
	cmd.Env = append(r.tm.env(home), "HOSTNAME="+r.name)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // should the test die first
	log, err := os.OpenFile(filepath.Join(r.dir, "serve.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	var from int64
	if info, err := log.Stat(); err == nil {
		from = info.Size()
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", r.name, err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); log.Close(); close(done) }()
	r.mu.Lock()
	r.cmd, r.done, r.started, r.log, r.logFrom = cmd, done, time.Now(), log, from
	r.mu.Unlock()
	t.Cleanup(func() { r.stop(syscall.SIGTERM, 30*time.Second) })
}

// stop signals the replica by its PID and waits for it to exit (killing
// it after wait).
func (r *teamReplica) stop(sig syscall.Signal, wait time.Duration) {
	r.mu.Lock()
	cmd, done := r.cmd, r.done
	r.mu.Unlock()
	if cmd == nil {
		return
	}
	select {
	case <-done:
		return
	default:
	}
	cmd.Process.Signal(sig)
	select {
	case <-done:
	case <-time.After(wait):
		r.tm.t.Errorf("%s did not stop within %s of %s; killed", r.name, wait, sig)
		cmd.Process.Kill()
		<-done
	}
}

// signal sends sig without waiting.
func (r *teamReplica) signal(sig syscall.Signal) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cmd.Process.Signal(sig)
}

// exited returns a channel closed when the current process has exited.
func (r *teamReplica) exited() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.done
}

func (r *teamReplica) running() bool {
	select {
	case <-r.exited():
		return false
	default:
		return true
	}
}

// ready asks /readyz as a load balancer does, without a token.
func (r *teamReplica) ready() bool { return r.readyStatus() == http.StatusOK }

// readyStatus is /readyz's status, 0 when the replica did not answer.
func (r *teamReplica) readyStatus() int {
	req, _ := http.NewRequest(http.MethodGet, r.base()+"/readyz", nil)
	req.Host = "localhost"
	c := &http.Client{Timeout: 2 * time.Second}
	res, err := c.Do(req)
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

// waitReady waits until /readyz answers ready and returns how long after
// the process started it did (0 when it never did).
func (r *teamReplica) waitReady(within time.Duration) time.Duration {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if r.ready() {
			r.mu.Lock()
			defer r.mu.Unlock()
			return time.Since(r.started)
		}
		if !r.running() {
			return 0
		}
		time.Sleep(20 * time.Millisecond)
	}
	return 0
}

// waitLog waits until the replica's run has logged a line holding text,
// and reports whether it did within the time given.
func (r *teamReplica) waitLog(text string, within time.Duration) bool {
	r.mu.Lock()
	from := r.logFrom
	r.mu.Unlock()
	for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		data, _ := os.ReadFile(filepath.Join(r.dir, "serve.log"))
		if int64(len(data)) > from && strings.Contains(string(data[from:]), text) {
			return true
		}
		if !r.running() {
			return false
		}
	}
	return false
}

func (r *teamReplica) logTail() string {
	data, _ := os.ReadFile(filepath.Join(r.dir, "serve.log"))
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) > 40 {
		lines = lines[len(lines)-40:]
	}
	return strings.Join(lines, "\n")
}

// teamPG is the cluster's PostgreSQL: Debian's binaries, a data folder
// of its own, TCP on loopback (as replicas reach a database) and a socket
// in the folder; stopped and started again by the test, by its PID.
type teamPG struct {
	t    *testing.T
	bin  string
	dir  string
	port string
	cred *syscall.Credential

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

func startTeamPG(t *testing.T) *teamPG {
	t.Helper()
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(bins) == 0 {
		t.Fatal("no PostgreSQL: install Debian's postgresql (apt-get install postgresql), whose initdb and postgres the suite starts")
	}
	p := &teamPG{t: t, bin: filepath.Dir(bins[len(bins)-1]), port: freePort(t)}
	// Under /tmp rather than the test's folder: postgres refuses root and
	// runs as the postgres user, who must reach its data.
	dir, err := os.MkdirTemp("", "toolsearch-team-pg-")
	if err != nil {
		t.Fatal(err)
	}
	p.dir = dir
	t.Cleanup(func() { os.RemoveAll(dir) })
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatalf("running as root, and no postgres user to run PostgreSQL as: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		p.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		os.Chown(dir, uid, gid)
	}
	if out, err := p.command("initdb", "-D", filepath.Join(dir, "data"), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync").CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	p.start()
	t.Cleanup(p.stop)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, p.dsn("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE toolsearch"); err != nil {
		t.Fatal(err)
	}
	return p
}

func (p *teamPG) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(p.bin, name), args...)
	cmd.Dir = p.dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: p.cred, Pdeathsig: syscall.SIGKILL}
	return cmd
}

func (p *teamPG) dsn(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%s/%s?sslmode=disable&connect_timeout=2", p.port, db)
}

// start starts postgres and waits until it accepts connections.
func (p *teamPG) start() {
	t := p.t
	cmd := p.command("postgres", "-D", filepath.Join(p.dir, "data"), "-k", p.dir,
		"-c", "listen_addresses=127.0.0.1", "-c", "port="+p.port, "-c", "fsync=off", "-c", "max_connections=200")
	log, _ := os.OpenFile(filepath.Join(p.dir, "postgres.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting postgres: %v", err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); log.Close(); close(done) }()
	p.mu.Lock()
	p.cmd, p.done = cmd, done
	p.mu.Unlock()
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		conn, err := pgx.Connect(ctx, p.dsn("postgres"))
		cancel()
		if err == nil {
			conn.Close(context.Background())
			return
		}
		select {
		case <-done:
			out, _ := os.ReadFile(filepath.Join(p.dir, "postgres.log"))
			t.Fatalf("postgres exited:\n%s", out)
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("postgres did not accept connections: %v", err)
		}
	}
}

// stop asks postgres for a fast shutdown (SIGINT, by its PID) and waits.
func (p *teamPG) stop() {
	p.mu.Lock()
	cmd, done := p.cmd, p.done
	p.mu.Unlock()
	if cmd == nil {
		return
	}
	select {
	case <-done:
		return
	default:
	}
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		<-done
	}
}

// restart stops PostgreSQL and starts it again after down.
func (p *teamPG) restart(down time.Duration) {
	p.stop()
	time.Sleep(down)
	p.start()
}

// teamHAProxy is Debian's HAProxy with examples/deploy/haproxy.cfg, its
// addresses replaced by the replicas' loopback ports.
type teamHAProxy struct {
	port string
	cmd  *exec.Cmd
	done chan struct{}
}

func (lb *teamHAProxy) base() string { return "http://127.0.0.1:" + lb.port }

func teamHAProxyPath(t *testing.T) string {
	for _, p := range []string{"/usr/sbin/haproxy", "haproxy"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	t.Fatal("no HAProxy: install Debian's haproxy (apt-get install haproxy), which the suite runs in front of the replicas")
	return ""
}

// teamHAProxyConfig is examples/deploy/haproxy.cfg with the frontend on
// port and the servers at the replicas' ports: the file a team deploys,
// checked to have every address the test replaces.
func teamHAProxyConfig(t *testing.T, port string, replicas []*teamReplica) string {
	t.Helper()
	data, err := os.ReadFile("../../examples/deploy/haproxy.cfg")
	if err != nil {
		t.Fatal(err)
	}
	cfg := string(data)
	replace := func(old, new string) {
		if !strings.Contains(cfg, old) {
			t.Fatalf("examples/deploy/haproxy.cfg lacks %q, which the suite replaces", old)
		}
		cfg = strings.ReplaceAll(cfg, old, new)
	}
	replace("bind :8080", "bind 127.0.0.1:"+port)
	for i, r := range replicas {
		replace(fmt.Sprintf("toolsearch-%d:8080", i+1), "127.0.0.1:"+r.port)
	}
	if strings.Contains(cfg, "toolsearch-4:8080") {
		t.Fatal("examples/deploy/haproxy.cfg names more replicas than the suite starts")
	}
	return cfg
}

func startTeamHAProxy(t *testing.T, haproxy, root string, replicas []*teamReplica) *teamHAProxy {
	t.Helper()
	lb := &teamHAProxy{port: freePort(t)}
	cfgFile := filepath.Join(root, "haproxy.cfg")
	writeFile(t, root, "haproxy.cfg", teamHAProxyConfig(t, lb.port, replicas))
	if out, err := exec.Command(haproxy, "-c", "-f", cfgFile).CombinedOutput(); err != nil {
		t.Fatalf("haproxy -c: %v\n%s", err, out)
	}
	lb.cmd = exec.Command(haproxy, "-db", "-f", cfgFile)
	log, _ := os.Create(filepath.Join(root, "haproxy.log"))
	lb.cmd.Stdout, lb.cmd.Stderr = log, log
	lb.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := lb.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lb.done = make(chan struct{})
	go func() { lb.cmd.Wait(); log.Close(); close(lb.done) }()
	t.Cleanup(func() {
		lb.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-lb.done:
		case <-time.After(10 * time.Second):
			lb.cmd.Process.Kill()
			<-lb.done
		}
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", "127.0.0.1:"+lb.port, time.Second)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			data, _ := os.ReadFile(filepath.Join(root, "haproxy.log"))
			t.Fatalf("haproxy never listened: %v\n%s", err, data)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return lb
}
