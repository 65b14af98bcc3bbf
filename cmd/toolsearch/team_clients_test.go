//go:build team && linux

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// outcome is what a client can tell of a write call it made.
type outcome int

const (
	// succeeded: the client saw the tool's result; the write happened.
	succeeded outcome = iota
	// refused: the client saw an answer that says the call was not made
	// (a tool error, a JSON-RPC error, a lost session, no server at all);
	// the write must not have happened.
	refused
	// cut: the connection or the replica went away before an answer (a
	// kill -9 with the call in flight); the write may or may not have
	// happened, but never twice.
	cut
)

func (o outcome) String() string { return [...]string{"succeeded", "refused", "cut"}[o] }

// callRecord is one write call as its client saw it.
type callRecord struct {
	id, client, principal string
	outcome               outcome
	detail                string
	at                    time.Time
	took                  time.Duration
}

// callLog is every write call of a run, from every client.
type callLog struct {
	mu    sync.Mutex
	calls []callRecord
	seq   atomic.Int64
}

func (l *callLog) newID(client string) string {
	return fmt.Sprintf("%s-%d", client, l.seq.Add(1))
}

func (l *callLog) add(r callRecord) {
	l.mu.Lock()
	l.calls = append(l.calls, r)
	l.mu.Unlock()
}

func (l *callLog) all() []callRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.calls)
}

// modernCall sends one sessionless request of protocol 2026-07-28, as a
// client of that era does through the load balancer to any replica, and
// classifies what came back.
func modernCall(ctx context.Context, base, token, tool string, args map[string]any) (string, outcome) {
	params := map[string]any{"name": tool, "arguments": args, "_meta": map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "team", "version": "1"},
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
	}}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/mcp", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := teamHTTP.Do(req)
	if err != nil {
		return err.Error(), cut
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 16<<20))
	switch {
	case res.StatusCode == http.StatusBadGateway || res.StatusCode == http.StatusGatewayTimeout:
		// HAProxy's answer when the replica died with the request sent.
		return res.Status, cut
	case res.StatusCode != http.StatusOK:
		return fmt.Sprintf("%s: %s", res.Status, bytes.TrimSpace(data)), refused
	case err != nil:
		return err.Error(), cut
	}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		data = lastSSEData(data)
	}
	var msg struct {
		Result *mcp.CallToolResult `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &msg); err != nil {
		// An event stream cut short: the answer never came.
		return fmt.Sprintf("%v: %s", err, data), cut
	}
	if msg.Error != nil {
		return msg.Error.Message, refused
	}
	if msg.Result == nil {
		return string(data), cut
	}
	return resultText(msg.Result), resultOutcome(msg.Result)
}

var teamHTTP = &http.Client{Timeout: 30 * time.Second}

// lastSSEData is the last data line of an event stream: the response,
// after any progress or log notifications.
func lastSSEData(stream []byte) []byte {
	var last []byte
	sc := bufio.NewScanner(bytes.NewReader(stream))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			last = []byte(d)
		}
	}
	return last
}

func resultText(res *mcp.CallToolResult) string {
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	return text.String()
}

func resultOutcome(res *mcp.CallToolResult) outcome {
	if res.IsError {
		return refused
	}
	return succeeded
}

// sessionClient is a 2025-11-25 client through the load balancer: one
// session, opened again whenever the server says it is lost.
type sessionClient struct {
	base, token string
	cs          *mcp.ClientSession
	reconnects  int
}

func (c *sessionClient) connect(ctx context.Context) error {
	if c.cs != nil {
		c.cs.Close()
		c.cs = nil
		c.reconnects++
	}
	hc := &http.Client{Transport: bearerRT{c.token, http.DefaultTransport}, Timeout: 30 * time.Second}
	client := mcp.NewClient(&mcp.Implementation{Name: "team-session", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: c.base + "/mcp", HTTPClient: hc},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		return err
	}
	c.cs = cs
	return nil
}

// call makes one call in the session, opening one first when it has
// none; a call that fails leaves the client to open a new session.
func (c *sessionClient) call(ctx context.Context, tool string, args map[string]any) (string, outcome) {
	if c.cs == nil {
		if err := c.connect(ctx); err != nil {
			// An initialize whose connection went away (the replica
			// killed with it sent) got no answer: cut, as a call's. No
			// tool was called either way.
			if msg := err.Error(); strings.HasSuffix(msg, ": EOF") || strings.Contains(msg, "connection reset") || strings.Contains(msg, "502 Bad Gateway") {
				return "connect: " + msg, cut
			}
			return "connect: " + err.Error(), refused
		}
	}
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		msg := err.Error()
		c.cs.Close()
		c.cs = nil
		c.reconnects++
		if lostSession(err) {
			return msg, refused
		}
		return msg, cut
	}
	return resultText(res), resultOutcome(res)
}

// lostSession reports a call the server refused because it no longer
// knows the session (a 404 before anything is done); any other failure
// is the connection going away mid-call. It asks the SDK's error, not
// the message: a message names the address, and a port such as 40429
// holds "404".
func lostSession(err error) bool {
	return errors.Is(err, mcp.ErrSessionMissing)
}

func (c *sessionClient) close() {
	if c.cs != nil {
		c.cs.Close()
	}
}

// caller is either era's client.
type caller interface {
	call(ctx context.Context, tool string, args map[string]any) (string, outcome)
}

type modernClient struct{ base, token string }

func (c modernClient) call(ctx context.Context, tool string, args map[string]any) (string, outcome) {
	return modernCall(ctx, c.base, c.token, tool, args)
}

// writeLoop searches, then writes through call_tool, until ctx ends,
// logging every write; server and tool name the write (ledger__record,
// shared__stamp, mine__stamp).
func writeLoop(ctx context.Context, log *callLog, name, principal string, c caller, target string, pause time.Duration) {
	for ctx.Err() == nil {
		c.call(ctx, "tool_search", map[string]any{"query": "record an entry in the team ledger"})
		if ctx.Err() != nil {
			return
		}
		id := log.newID(name)
		start := time.Now()
		text, o := c.call(ctx, "call_tool", map[string]any{"name": target, "arguments": map[string]any{"id": id}})
		if ctx.Err() != nil && o != succeeded {
			// The run ended with this call in flight: the test stopped
			// waiting, so it may have happened either way.
			o = cut
		}
		if o == succeeded && !strings.Contains(text, "recorded "+id) {
			o = refused // an answer, but not the tool's: a refusal toolsearch made
		}
		log.add(callRecord{id: id, client: name, principal: principal, outcome: o, detail: text, at: start, took: time.Since(start)})
		if pause > 0 {
			select {
			case <-ctx.Done():
			case <-time.After(pause):
			}
		}
	}
}

// A call cut by a replica killed under it is no lost session, whatever
// port the load balancer listens on.
func TestTeamLostSession(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"the connection closed, on a port that holds 404", errors.New(`calling "tools/call": sending "tools/call": rejected by transport: Post "http://127.0.0.1:40429/mcp": EOF`), false},
		{"the session gone", fmt.Errorf(`calling "tools/call": sending "tools/call": failed to connect (session ID: x): %w`, mcp.ErrSessionMissing), true},
		{"a reset connection", errors.New(`Post "http://127.0.0.1:8404/mcp": read: connection reset by peer`), false},
	} {
		if got := lostSession(tc.err); got != tc.want {
			t.Errorf("%s: lostSession = %v, want %v", tc.name, got, tc.want)
		}
	}
}
