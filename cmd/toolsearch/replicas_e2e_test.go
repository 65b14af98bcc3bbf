package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/state/pgstate"
	"github.com/toolsearch/toolsearch/internal/state/pgstate/pgtest"
)

// replica is one toolsearch serve --http of a cluster started by a test.
type replica struct {
	base string
	proc *os.Process
	done chan struct{}
	exit int // its exit code, once done
}

// startReplica starts serve --http as replica id with the configuration
// in dir, a cache of its own (nothing shared through files).
func startReplica(t *testing.T, dir, id string) *replica {
	t.Helper()
	addr := net.JoinHostPort("127.0.0.1", freePort(t))
	cmd := toolsearch(context.Background(), "serve", "--config", filepath.Join(dir, "toolsearch.yaml"), "--http", addr)
	cmd.Env = append(cmd.Env, "HOSTNAME="+id, "XDG_CACHE_HOME="+t.TempDir())
	cmd.Stderr = &testLog{t: t}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &replica{base: "http://" + addr, proc: cmd.Process, done: make(chan struct{})}
	go func() {
		cmd.Wait()
		r.exit = cmd.ProcessState.ExitCode()
		close(r.done)
	}()
	t.Cleanup(func() {
		r.proc.Signal(os.Interrupt)
		select {
		case <-r.done:
		case <-time.After(20 * time.Second):
			r.proc.Kill()
			<-r.done
		}
	})
	return r
}

// readyz returns /readyz's status code and body, asked without a token
// as a load balancer asks; 0 when nothing answers.
func readyz(base string) (int, map[string]any) {
	resp, err := http.Get(base + "/readyz")
	if err != nil {
		return 0, nil
	}
	defer resp.Body.Close()
	var body map[string]any
	json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&body)
	return resp.StatusCode, body
}

func awaitReady(t *testing.T, r *replica, want int) map[string]any {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		code, body := readyz(r.base)
		if code == want {
			return body
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s/readyz never answered %d (last %d %v)", r.base, want, code, body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// roundRobin sends each request to the next of urls in turn, as a load
// balancer without affinity.
type roundRobin struct {
	urls []string
	next atomic.Int64
}

func (b *roundRobin) RoundTrip(r *http.Request) (*http.Response, error) {
	u, _ := url.Parse(b.urls[int(b.next.Add(1))%len(b.urls)])
	r = r.Clone(r.Context())
	r.URL.Host, r.Host = u.Host, u.Host
	return http.DefaultTransport.RoundTrip(r)
}

// TestReplicasBehindABalancer runs two replicas over one PostgreSQL state
// and key file: a session of protocol 2025-11-25 whose requests go to
// either replica is served by the one that made it; SIGTERM turns a
// replica not ready at once, it serves on through its drain delay, stops,
// and leaves the registry; its sessions are then lost (404), so their
// clients initialize again.
func TestReplicasBehindABalancer(t *testing.T) {
	dsn := pgtest.DSN(t)
	dir := t.TempDir()
	key := filepath.Join(dir, "state.key")
	if err := pgstate.WriteKeyFile(key); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TOOLSEARCH_TEST_STATE_DSN", dsn)
	writeFile(t, dir, "toolsearch.yaml", "state:\n  backend: postgres\n  dsn: \"${TOOLSEARCH_TEST_STATE_DSN}\"\n  keyFile: "+key+"\nhttp:\n  drainDelay: 2s\n  shutdownGrace: 5s\n")
	a, b := startReplica(t, dir, "replica-a"), startReplica(t, dir, "replica-b")
	if body := awaitReady(t, a, http.StatusOK); body["ready"] != true {
		t.Errorf("readyz: %v", body)
	}
	awaitReady(t, b, http.StatusOK)

	client := mcp.NewClient(&mcp.Implementation{Name: "replicas-e2e"}, nil)
	hc := &http.Client{Transport: &roundRobin{urls: []string{a.base, b.base}}}
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: a.base + "/mcp", HTTPClient: hc}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for i := range 6 {
		if _, err := cs.ListTools(context.Background(), nil); err != nil {
			t.Fatalf("tools/list %d through the balancer: %v", i, err)
		}
	}
	// A session opened at a, for requests sent to b alone.
	id := initializeAt(t, a.base)

	a.proc.Signal(syscall.SIGTERM)
	awaitReady(t, a, http.StatusServiceUnavailable)
	if resp, err := http.Get(a.base + "/healthz"); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("draining, a stopped serving at once: %v", err)
	}
	select {
	case <-a.done:
	case <-time.After(30 * time.Second):
		t.Fatal("a did not stop after its drain delay and grace")
	}
	db, err := pgstate.Open(context.Background(), dsn, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	live, err := db.Replicas(context.Background(), pgstate.LiveWithin)
	if err != nil || len(live) != 1 || live[0].ID != "replica-b" {
		t.Errorf("after a stopped, the registry holds %+v, %v; want replica-b alone", live, err)
	}
	if got := pingSession(t, b.base, id); got != http.StatusNotFound {
		t.Errorf("a session of the replica that stopped, at b: %d, want 404", got)
	}
}

// initializeAt opens a session at base and returns its Mcp-Session-Id.
func initializeAt(t *testing.T, base string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	id := resp.Header.Get("Mcp-Session-Id")
	if !strings.Contains(id, ".") {
		t.Fatalf("initialize at %s: session %q names no replica", base, id)
	}
	return id
}

// pingSession pings in session id at base and returns the status.
func pingSession(t *testing.T, base, id string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", id)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// TestReplicaNotReadyUntilTheStateLoads: a replica whose database is not
// up yet already answers /readyz, not ready, and /healthz, alive.
func TestReplicaNotReadyUntilTheStateLoads(t *testing.T) {
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := ln.Addr().String()
	ln.Close() // a database nobody runs
	t.Setenv("TOOLSEARCH_TEST_STATE_DSN", "postgres://toolsearch@"+down+"/toolsearch?connect_timeout=1")
	writeFile(t, dir, "toolsearch.yaml", "state:\n  backend: postgres\n  dsn: \"${TOOLSEARCH_TEST_STATE_DSN}\"\n")
	r := startReplica(t, dir, "replica-early")
	if body := awaitReady(t, r, http.StatusServiceUnavailable); body["ready"] != false {
		t.Errorf("readyz while the state loads: %v", body)
	}
	if resp, err := http.Get(r.base + "/healthz"); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("healthz while the state loads: %v", err)
	}
	// Asked to stop while it waits, it stops, as any serve does.
	r.proc.Signal(syscall.SIGTERM)
	select {
	case <-r.done:
		if r.exit != 0 {
			t.Errorf("stopped while waiting for its database: exit %d, want 0", r.exit)
		}
	case <-time.After(20 * time.Second):
		t.Error("a replica waiting for its database did not stop when asked")
	}
}

// TestReplicaStaysReadyWhileTheDatabaseIsDown: a replica that has loaded
// the state stays ready and serves what it holds while the database is
// away; its status page says the registry cannot be read, until it can.
func TestReplicaStaysReadyWhileTheDatabaseIsDown(t *testing.T) {
	proxy, dsn := pgtest.NewLink(t, pgtest.DSN(t))
	dir := t.TempDir()
	key := filepath.Join(dir, "state.key")
	if err := pgstate.WriteKeyFile(key); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TOOLSEARCH_TEST_STATE_DSN", dsn)
	writeFile(t, dir, "toolsearch.yaml", "state:\n  backend: postgres\n  dsn: \"${TOOLSEARCH_TEST_STATE_DSN}\"\n  keyFile: "+key+"\n")
	r := startReplica(t, dir, "replica-down")
	awaitReady(t, r, http.StatusOK)
	client := mcp.NewClient(&mcp.Implementation{Name: "replicas-e2e"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: r.base + "/mcp"}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	proxy.Down()
	registryError := func() string {
		resp, err := http.Get(r.base + "/status.json")
		if err != nil {
			return "status.json: " + err.Error()
		}
		defer resp.Body.Close()
		var st struct {
			Cluster *struct {
				Replicas []struct{ ID string }
				Error    string
			}
		}
		json.NewDecoder(resp.Body).Decode(&st)
		if st.Cluster == nil {
			return "no cluster on the status page"
		}
		return st.Cluster.Error
	}
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(registryError(), "cannot be reached") {
		if code, _ := readyz(r.base); code != http.StatusOK {
			t.Fatalf("with the database down, readyz answered %d", code)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the status page never said the registry cannot be read: %q", registryError())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if code, _ := readyz(r.base); code != http.StatusOK {
		t.Errorf("with the database down, readyz answered %d, want 200: the replica serves what it holds", code)
	}
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Errorf("tools/list with the database down: %v", err)
	}
	proxy.Up()
	deadline = time.Now().Add(30 * time.Second)
	for registryError() != "" {
		if time.Now().After(deadline) {
			t.Fatalf("the database back, the status page still says %q", registryError())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestAParkedCallIsResumedThroughAnyReplica: a 2026-07-28 client whose
// calls an upstream answers with a question gets it in an input-required
// result, whose requestState names the replica holding the call; its
// retry, which the balancer sends to the other replica, is forwarded
// there, and the call completes.
func TestAParkedCallIsResumedThroughAnyReplica(t *testing.T) {
	dsn := pgtest.DSN(t)
	srv := mcp.NewServer(&mcp.Implementation{Name: "asker", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "greet", Description: "Greets whoever answers."},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Who are you?", RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}})
			if err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hello " + res.Content["name"].(string)}}}, nil, nil
		})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(hs.Close) // after the replicas, whose connections it would wait for
	dir := t.TempDir()
	key := filepath.Join(dir, "state.key")
	if err := pgstate.WriteKeyFile(key); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TOOLSEARCH_TEST_STATE_DSN", dsn)
	writeFile(t, dir, "mcp.json", `{"mcpServers": {"up": {"type": "http", "url": "`+hs.URL+`"}}}`)
	writeFile(t, dir, "toolsearch.yaml", "mcpConfig: mcp.json\nstate:\n  backend: postgres\n  dsn: \"${TOOLSEARCH_TEST_STATE_DSN}\"\n  keyFile: "+key+"\n")
	// A remote server's first listing waits for a person: approved once,
	// for every replica.
	approve := toolsearch(t.Context(), "approve", "up", "--connect", "--config", filepath.Join(dir, "toolsearch.yaml"))
	approve.Env = append(approve.Env, "XDG_CACHE_HOME="+t.TempDir())
	if out, err := approve.CombinedOutput(); err != nil {
		t.Fatalf("approve: %v\n%s", err, out)
	}
	a, b := startReplica(t, dir, "replica-a"), startReplica(t, dir, "replica-b")
	awaitReady(t, a, http.StatusOK)
	awaitReady(t, b, http.StatusOK)

	var asked atomic.Int64
	client := mcp.NewClient(&mcp.Implementation{Name: "replicas-e2e"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked.Add(1)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
		},
	})
	// Strictly alternating, each retry reaches the other replica than
	// the request it follows.
	hc := &http.Client{Transport: &roundRobin{urls: []string{a.base, b.base}}}
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: a.base + "/mcp", HTTPClient: hc}, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for i := range 4 {
		var res *mcp.CallToolResult
		deadline := time.Now().Add(30 * time.Second)
		for {
			res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "call_tool", Arguments: map[string]any{"name": "up__greet", "arguments": map[string]any{}}})
			if err != nil {
				t.Fatalf("call %d: %v", i, err)
			}
			text := res.Content[0].(*mcp.TextContent).Text
			if !strings.Contains(text, "is starting") && !strings.Contains(text, "not connected") || time.Now().After(deadline) {
				break
			}
			time.Sleep(200 * time.Millisecond) // the replica's connection to up is still starting
		}
		if text := res.Content[0].(*mcp.TextContent).Text; res.IsError || text != "hello Ada" {
			t.Fatalf("call %d through the balancer: %v %q", i, res.IsError, text)
		}
	}
	if asked.Load() < 4 {
		t.Errorf("the client was asked %d times, want once per call", asked.Load())
	}
}

// TestADrainingServerServesCallsInFull: asked to stop, serve --http with
// a drain delay answers /readyz not ready at once, and a call that still
// reaches it meanwhile (the load balancer has not seen it leave yet) goes
// upstream and back, rather than being refused as the app stops.
func TestADrainingServerServesCallsInFull(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "echoer", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo", Description: "Echoes a word."},
		func(_ context.Context, _ *mcp.CallToolRequest, in struct {
			Word string `json:"word"`
		}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo " + in.Word}}}, nil, nil
		})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	dir := t.TempDir()
	writeFile(t, dir, "mcp.json", `{"mcpServers": {"up": {"type": "http", "url": "`+hs.URL+`"}}}`)
	writeFile(t, dir, "toolsearch.yaml", "mcpConfig: mcp.json\nhttp:\n  drainDelay: 3s\n")
	cache := t.TempDir()
	approve := toolsearch(t.Context(), "approve", "up", "--connect", "--config", filepath.Join(dir, "toolsearch.yaml"))
	approve.Env = append(approve.Env, "XDG_CACHE_HOME="+cache)
	if out, err := approve.CombinedOutput(); err != nil {
		t.Fatalf("approve: %v\n%s", err, out)
	}
	addr := net.JoinHostPort("127.0.0.1", freePort(t))
	cmd := toolsearch(context.Background(), "serve", "--config", filepath.Join(dir, "toolsearch.yaml"), "--http", addr)
	cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+cache)
	cmd.Stderr = &testLog{t: t}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &replica{base: "http://" + addr, proc: cmd.Process, done: make(chan struct{})}
	go func() { cmd.Wait(); close(r.done) }()
	t.Cleanup(func() { r.proc.Kill(); <-r.done })
	awaitReady(t, r, http.StatusOK)
	client := mcp.NewClient(&mcp.Implementation{Name: "drain-e2e"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: r.base + "/mcp"}, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func() string {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "call_tool", Arguments: map[string]any{"name": "up__echo", "arguments": map[string]any{"word": "hi"}}})
		if err != nil {
			return err.Error()
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	for deadline := time.Now().Add(30 * time.Second); call() != "echo hi"; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the call never went through before the stop: %q", call())
		}
	}
	// A request taken in during the drain whose call starts only after
	// the drain ended (its body arrives late) is still in flight: the
	// upstream calls stay open for it, as for one already under way.
	late, lateBody := io.Pipe()
	lateReq, err := http.NewRequest(http.MethodPost, r.base+"/mcp", late)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "call_tool"} {
		lateReq.Header.Set(k, v)
	}
	stopped := time.Now()
	r.proc.Signal(syscall.SIGTERM)
	awaitReady(t, r, http.StatusServiceUnavailable)
	if got := call(); got != "echo hi" {
		t.Errorf("a call during the drain: %q, want echo hi", got)
	}
	answer := make(chan string, 1)
	go func() {
		res, err := http.DefaultClient.Do(lateReq)
		if err != nil {
			answer <- err.Error()
			return
		}
		defer res.Body.Close()
		data, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
		answer <- string(data)
	}()
	lateBody.Write([]byte(`{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "call_tool", ` +
		`"arguments": {"name": "up__echo", "arguments": {"word": "late"}}, "_meta": {` +
		`"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": {"name": "drain-e2e", "version": "1"}, ` +
		`"io.modelcontextprotocol/clientCapabilities": {}}}`))
	time.Sleep(time.Until(stopped.Add(3*time.Second + 500*time.Millisecond)))
	lateBody.Write([]byte("}"))
	lateBody.Close()
	if got := <-answer; !strings.Contains(got, "echo late") {
		t.Errorf("a call whose request came in during the drain and whose body came after it: %q, want echo late", got)
	}
}
