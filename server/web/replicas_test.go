package web

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/toolsearch/toolsearch/internal/ownership"
	"github.com/toolsearch/toolsearch/server"
)

var clusterKey = []byte("0123456789abcdef0123456789abcdef")

// cluster is replicas of one catalog sharing a key and a registry, each
// serving on loopback and counting the requests that reach it.
type cluster struct {
	mu    sync.Mutex
	addrs map[string]string // the registry: live replicas' addresses
	urls  []string
	hits  []*atomic.Int64
}

func (c *cluster) address(id string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.addrs[id]
	return a, ok
}

// leave takes replica i out of the registry.
func (c *cluster) leave(i int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.addrs, replicaID(i))
}

func replicaID(i int) string { return "replica-" + string(rune('a'+i)) }

// tokens are the cluster's callers: alice and bob.
var clusterTokens = []ProfileToken{{Token: "alice-token", Principal: "alice"}, {Token: "bob-token", Principal: "bob"}}

func startCluster(t *testing.T, n int) *cluster {
	t.Helper()
	c := &cluster{addrs: map[string]string{}}
	for i := range n {
		s, _ := server.New(testCatalog(t), server.Options{ListingBudget: server.DefaultListingBudget, Upstreams: &fakeUpstreams{}})
		t.Cleanup(s.Close)
		h := NewHandler(s, Options{Tokens: clusterTokens, Replicas: &Replicas{Sealer: ownership.New(clusterKey, replicaID(i)), Address: c.address}})
		hits := &atomic.Int64{}
		counting := &Handler{root: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/mcp" {
				hits.Add(1)
			}
			h.ServeHTTP(w, r)
		}), mcp: h.mcp, profiles: h.profiles, status: h.status, ready: h.ready}
		u := serveHandler(t, counting)
		c.urls = append(c.urls, u)
		c.hits = append(c.hits, hits)
		c.addrs[replicaID(i)] = u
	}
	return c
}

// balancer sends each request to the next replica in turn, as a load
// balancer without affinity does.
type balancer struct {
	urls []string
	next atomic.Int64
	base http.RoundTripper
}

func (b *balancer) RoundTrip(r *http.Request) (*http.Response, error) {
	u, _ := url.Parse(b.urls[int(b.next.Add(1))%len(b.urls)])
	r = r.Clone(r.Context())
	r.URL.Host, r.Host = u.Host, u.Host
	return b.base.RoundTrip(r)
}

func TestASessionIsServedByItsReplicaWhereverItsRequestsGo(t *testing.T) {
	c := startCluster(t, 2)
	lb := &balancer{urls: c.urls, base: http.DefaultTransport}
	hc := &http.Client{Transport: bearer{"alice-token", lb}}
	for _, version := range []string{"2025-11-25", "2025-03-26"} {
		t.Run(version, func(t *testing.T) {
			cs := connectWith(t, hc, c.urls[0], version)
			for i := range 6 {
				text, res := callText(t, cs, server.CallTool, map[string]any{"name": "srv__echo", "arguments": map[string]any{"message": "round " + string(rune('0'+i))}})
				if res.IsError || !strings.Contains(text, "round") {
					t.Fatalf("call %d through the balancer: %v %q", i, res.IsError, text)
				}
			}
		})
	}
	if c.hits[0].Load() == 0 || c.hits[1].Load() == 0 {
		t.Errorf("the balancer reached %d and %d requests", c.hits[0].Load(), c.hits[1].Load())
	}
}

// sessionOf opens a session at replica i for token, and returns its id.
func sessionOf(t *testing.T, c *cluster, i int, token string) string {
	t.Helper()
	resp := mcpPost(t, c.urls[i], token, "", initializeBody)
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("initialize: %d, session %q", resp.StatusCode, id)
	}
	return id
}

func mcpPost(t *testing.T, base, token, session, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

const pingBody = `{"jsonrpc":"2.0","id":2,"method":"ping"}`

func TestSessionsOfOthersAreRefusedAndLostOnesReported(t *testing.T) {
	c := startCluster(t, 2)
	id := sessionOf(t, c, 0, "alice-token")
	mcpPost(t, c.urls[1], "alice-token", id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if got := mcpPost(t, c.urls[1], "alice-token", id, pingBody).StatusCode; got != http.StatusOK {
		t.Fatalf("alice's ping at the other replica: %d, want 200 (forwarded)", got)
	}
	forged := []struct{ name, token, id string }{
		{"bob with alice's session", "bob-token", id},
		{"an id the cluster did not issue", "alice-token", strings.Replace(id, ".", "x.", 1)},
		{"a bare id", "alice-token", "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"},
	}
	for _, f := range forged {
		t.Run(f.name, func(t *testing.T) {
			before := c.hits[0].Load()
			if got := mcpPost(t, c.urls[1], f.token, f.id, pingBody).StatusCode; got != http.StatusForbidden {
				t.Errorf("status %d, want 403", got)
			}
			if c.hits[0].Load() != before {
				t.Error("the request was forwarded to the replica the id names")
			}
		})
	}
	// Its replica gone from the registry, or unreachable, the session is
	// lost: 404, after which a client initializes again.
	c.leave(0)
	if got := mcpPost(t, c.urls[1], "alice-token", id, pingBody).StatusCode; got != http.StatusNotFound {
		t.Errorf("a session of a replica gone from the registry: %d, want 404", got)
	}
	c.mu.Lock()
	c.addrs[replicaID(0)] = "http://127.0.0.1:1" // registered, but nobody listens
	c.mu.Unlock()
	if got := mcpPost(t, c.urls[1], "alice-token", id, pingBody).StatusCode; got != http.StatusNotFound {
		t.Errorf("a session of an unreachable replica: %d, want 404", got)
	}
}

// modernPost sends a 2026-07-28 request and returns its status and body.
func modernPost(t *testing.T, base, token, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "call_tool")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

func retryBody(state string) string {
	return `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"call_tool","arguments":{"name":"srv__echo","arguments":{"message":"x"}},"requestState":"` + state + `","inputResponses":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"x","version":"1"}}}}`
}

func TestARetryGoesToTheReplicaItsCallWaitsAt(t *testing.T) {
	c := startCluster(t, 2)
	state := ownership.New(clusterKey, replicaID(0)).Seal(ownership.RequestState, "alice", "CALL1")
	before := c.hits[0].Load()
	status, body := modernPost(t, c.urls[1], "alice-token", retryBody(state))
	if c.hits[0].Load() != before+1 {
		t.Errorf("alice's retry at replica b did not reach replica a (%d %s)", status, body)
	}
	if !strings.Contains(body, "names no call waiting for input") {
		t.Errorf("replica a's answer for a call it does not hold: %d %s", status, body)
	}
	before = c.hits[0].Load()
	if status, body := modernPost(t, c.urls[1], "bob-token", retryBody(state)); status != http.StatusForbidden || c.hits[0].Load() != before {
		t.Errorf("bob's retry with alice's state: %d %s, forwarded %v", status, body, c.hits[0].Load() != before)
	}
	// The call's replica gone, the retry gets the relay's answer for a
	// call that ended.
	c.leave(0)
	if _, body := modernPost(t, c.urls[1], "alice-token", retryBody(state)); !strings.Contains(body, "names no call waiting for input") {
		t.Errorf("a retry for a replica that is gone: %s", body)
	}
}

// connectWith connects an MCP client of the given version over hc to base.
func connectWith(t *testing.T, hc *http.Client, base, version string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "replicas-test"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: hc}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect (%s): %v", version, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}
