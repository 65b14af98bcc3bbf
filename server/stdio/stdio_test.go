package stdio

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// waitLimit bounds every wait; nothing here depends on timing, only on
// order.
const waitLimit = 20 * time.Second

// wire is a server behind the transport, spoken to line by line.
type wire struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	// release ends the calls to the tool "block"; cancelled receives when
	// one is cancelled.
	release, cancelled chan struct{}
	ran                chan error // what Run returned
	srv                *mcp.Server
}

func newWire(t *testing.T, maxLine int) *wire {
	t.Helper()
	return newLoggedWire(t, maxLine, nil)
}

// newLoggedWire is newWire with the transport's log going to log.
func newLoggedWire(t *testing.T, maxLine int, log *slog.Logger) *wire {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	w := &wire{t: t, in: inW, lines: make(chan string, 16), release: make(chan struct{}), cancelled: make(chan struct{}, 4)}
	srv := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ServerOptions{
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	w.srv = srv
	addEchoTools(srv)
	mcp.AddTool(srv, &mcp.Tool{Name: "block"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		select {
		case <-w.release:
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "released"}}}, nil, nil
		case <-ctx.Done():
			w.cancelled <- struct{}{}
			return nil, nil, ctx.Err()
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- srv.Run(ctx, &Transport{In: inR, Out: outW, MaxLineLength: maxLine, Logger: log}) }()
	w.ran = ran
	go func() {
		defer close(w.lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			w.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		outW.Close()
	})
	return w
}

func (w *wire) send(line string) {
	w.t.Helper()
	if _, err := io.WriteString(w.in, line+"\n"); err != nil {
		w.t.Fatalf("writing %q: %v", line, err)
	}
}

func (w *wire) recv() string {
	w.t.Helper()
	select {
	case line, ok := <-w.lines:
		if !ok {
			w.t.Fatal("the connection ended")
		}
		return line
	case <-time.After(waitLimit):
		w.t.Fatal("no answer")
	}
	return ""
}

// initialize opens a session of the given protocol version.
func (w *wire) initialize(version string) {
	w.t.Helper()
	w.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if got := w.recv(); !strings.Contains(got, `"protocolVersion":"`+version+`"`) {
		w.t.Fatalf("initialize: %s", got)
	}
	w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// alive checks that the server still answers.
func (w *wire) alive() {
	w.t.Helper()
	w.send(`{"jsonrpc":"2.0","id":"alive","method":"ping"}`)
	if got := w.recv(); got != `{"jsonrpc":"2.0","id":"alive","result":{}}` {
		w.t.Fatalf("ping: %s", got)
	}
}

// errorOf decodes an error response.
func errorOf(t *testing.T, line string) (id string, code int, msg string) {
	t.Helper()
	var r struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(line), &r); err != nil || r.Error == nil {
		t.Fatalf("not an error response: %s", line)
	}
	return string(r.ID), r.Error.Code, r.Error.Message
}

func TestMalformedLinesAnswered(t *testing.T) {
	tests := []struct {
		name, line string
		id         string // as in the response
		code       int
		reason     string
	}{
		{"not JSON", `{"jsonrpc":"2.0","id":1,`, "null", -32700, "not valid JSON"},
		{"text", `hello`, "null", -32700, "not valid JSON"},
		{"two values", `{"jsonrpc":"2.0","id":1,"method":"ping"} {}`, "null", -32700, "not valid JSON"},
		{"not an object", `42`, "null", -32600, "must be a JSON object, not a number"},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, "null", -32600, `"id" must be a string or a number, not an object`},
		{"array id", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, "null", -32600, `not an array`},
		{"boolean id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, "null", -32600, `not a boolean`},
		{"no jsonrpc", `{"id":3,"method":"ping"}`, "3", -32600, `"jsonrpc": "2.0" member is missing`},
		{"wrong jsonrpc", `{"jsonrpc":"1.0","id":"a","method":"ping"}`, `"a"`, -32600, `"jsonrpc" must be "2.0"`},
		{"method not a string", `{"jsonrpc":"2.0","id":4,"method":7}`, "4", -32600, `"method" must be a string, not a number`},
		{"every problem", `{"id":{},"method":7}`, "null", -32600, `missing; "id" must be a string or a number, not an object; "method" must be a string`},
		{"neither request nor response", `{"jsonrpc":"2.0","id":5}`, "5", -32600, `needs a "method"`},
		{"batch", `[{"jsonrpc":"2.0","id":6,"method":"ping"}]`, "null", -32600, "batches (JSON arrays of messages) are part of MCP only before protocol version 2025-06-18, and this session uses 2025-11-25"},
		{"empty batch", `[]`, "null", -32600, "batches"},
		{"too deep", `{"jsonrpc":"2.0","id":8,"method":"ping","params":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`, "8", -32600, "depth"},
	}
	w := newWire(t, 0)
	w.initialize("2025-11-25")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w.t = t
			w.send(tt.line)
			id, code, msg := errorOf(t, w.recv())
			if id != tt.id || code != tt.code || !strings.Contains(msg, tt.reason) {
				t.Errorf("got id %s, code %d, %q; want id %s, code %d, a message with %q", id, code, msg, tt.id, tt.code, tt.reason)
			}
			w.alive()
		})
	}
}

// TestIDsEchoedAsSent checks ids the SDK alone would change.
func TestIDsEchoedAsSent(t *testing.T) {
	w := newWire(t, 0)
	w.initialize("2025-11-25")
	for _, id := range []string{`-0`, `1e3`, `1.0`, `9007199254740991`, `-12`, `"x"`, `"\u0041"`, `"1.5"`, `0`} {
		w.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		if got, want := w.recv(), `{"jsonrpc":"2.0","id":`+id+`,"result":{}}`; got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	}
	// An id in flight cannot be used again, in any spelling.
	w.send(`{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"block"}}`)
	for _, id := range []string{`15`, `1.5e1`, `15.0`} {
		w.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		if got, code, msg := errorOf(t, w.recv()); got != "null" || code != -32600 || !strings.Contains(msg, "the id "+id+" is in use") {
			t.Errorf("reused id %s: %s %d %q", id, got, code, msg)
		}
	}
	close(w.release)
	if got := w.recv(); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":15,"result":`) || !strings.Contains(got, "released") {
		t.Errorf("the call: %s", got)
	}
	// Answered, the id is free again.
	w.send(`{"jsonrpc":"2.0","id":15,"method":"ping"}`)
	if got := w.recv(); got != `{"jsonrpc":"2.0","id":15,"result":{}}` {
		t.Errorf("id reused after its answer: %s", got)
	}
}

// TestInexactIDsRefused: the SDK reads 1.5 and 1.7 both as 1, and
// 2^53+1 as 2^53; a request with such an id is refused, with its id as
// sent, rather than given an id of the transport's own, which the SDK
// would write where the client sees it.
func TestInexactIDsRefused(t *testing.T) {
	w := newWire(t, 0)
	w.initialize("2025-11-25")
	for _, id := range []string{`1.5`, `9007199254740992`, `-9007199254740993`, `1e16`, `0.55e1`, `1e-400`} {
		w.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		if got, code, msg := errorOf(t, w.recv()); got != id || code != -32600 || !strings.Contains(msg, "the id "+id+" is not an id MCP allows") {
			t.Errorf("id %s: got %s %d %q", id, got, code, msg)
		}
	}
	w.alive()
}

func TestCancellationByClientID(t *testing.T) {
	for _, id := range []string{`"listen:0"`, `7`, `7.0`} {
		t.Run(id, func(t *testing.T) {
			w := newWire(t, 0)
			w.initialize("2025-11-25")
			w.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"block"}}`)
			w.alive() // the call is in flight once this is answered
			w.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `,"reason":"test"}}`)
			select {
			case <-w.cancelled:
			case <-time.After(waitLimit):
				t.Fatal("the call was not cancelled")
			}
			if got := w.recv(); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":`+id+`,`) {
				t.Errorf("the cancelled call's answer: %s", got)
			}
			w.alive()
		})
	}
}

// TestCancellationOfUnknownIDCancelsNothing: a cancellation naming a
// number the SDK reads as another (1.5 as 1) cancelled the request the
// SDK read it as; one naming an id no request holds cancels nothing.
func TestCancellationOfUnknownIDCancelsNothing(t *testing.T) {
	w := newWire(t, 0)
	w.initialize("2025-11-25")
	w.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block"}}`)
	w.alive()
	w.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1.5}}`)
	w.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`)
	w.send(`{"jsonrpc":"2.0","id":"x","method":"notifications/cancelled","params":{"requestId":1.9}}`)
	if _, code, msg := errorOf(t, w.recv()); code != -32600 || !strings.Contains(msg, "unexpected id") {
		t.Errorf("a cancellation with an id: %d %q", code, msg)
	}
	w.alive() // the cancellations have been taken
	close(w.release)
	if got := w.recv(); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":1,"result":`) || !strings.Contains(got, "released") {
		t.Errorf("the call no cancellation named: %s", got)
	}
}

func TestLongLineSkipped(t *testing.T) {
	w := newWire(t, 1024)
	w.initialize("2025-11-25")
	w.send(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("x", 100_000) + `"}}`)
	if id, code, msg := errorOf(t, w.recv()); id != "null" || code != -32600 || !strings.Contains(msg, "longer than the limit of 1024 bytes") {
		t.Errorf("got %s %d %q", id, code, msg)
	}
	w.alive()
	// A line just within the limit is read.
	pad := 1024 - len(`{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":""}}`)
	w.send(`{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"` + strings.Repeat("x", pad) + `"}}`)
	if got := w.recv(); got != `{"jsonrpc":"2.0","id":2,"result":{}}` {
		t.Errorf("a line of exactly the limit: %s", got)
	}
}

func TestBlankLinesAndCRLF(t *testing.T) {
	w := newWire(t, 0)
	w.initialize("2025-11-25")
	w.send("")
	w.send("   ")
	w.send(`{"jsonrpc":"2.0","id":9,"method":"ping"}` + "\r")
	if got := w.recv(); got != `{"jsonrpc":"2.0","id":9,"result":{}}` {
		t.Errorf("got %s", got)
	}
}

func TestMalformedResponseDropped(t *testing.T) {
	w := newWire(t, 0)
	w.initialize("2025-11-25")
	w.send(`{"jsonrpc":"2.0","id":1.5,"result":{}}`)
	w.send(`{"jsonrpc":"2.0","id":{},"result":{}}`)
	w.send(`{"jsonrpc":"2.0","result":{}}`)
	w.alive() // nothing was answered before the ping's own answer
}

// TestBatchOn20250326 checks batches where the protocol has them: one array
// answers them, in order, with errors in place of bad elements.
func TestBatchOn20250326(t *testing.T) {
	w := newWire(t, 0)
	w.initialize("2025-03-26")
	w.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":{},"method":"ping"},{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"x","progress":1}},{"jsonrpc":"2.0","id":"1","method":"ping"},7]`)
	got := w.recv()
	want := `[{"jsonrpc":"2.0","id":1,"result":{}},` + string(errorResponse(nil, -32600, `invalid request: "id" must be a string or a number, not an object`)) +
		`,{"jsonrpc":"2.0","id":"1","result":{}},` + string(errorResponse(nil, -32600, "invalid request: a message must be a JSON object, not a number")) + `]`
	if got != want {
		t.Errorf("batch response:\n got %s\nwant %s", got, want)
	}
	// Only bad elements: the errors come at once.
	w.send(`[1,2]`)
	var all []json.RawMessage
	if err := json.Unmarshal([]byte(w.recv()), &all); err != nil || len(all) != 2 {
		t.Errorf("a batch of bad elements: %v %d", err, len(all))
	}
	w.send(`[]`)
	if _, code, msg := errorOf(t, w.recv()); code != -32600 || !strings.Contains(msg, "the batch is empty") {
		t.Errorf("empty batch: %d %q", code, msg)
	}
	w.alive()
}

// TestRefusedInitializeKeepsVersion: a second initialize, which the SDK
// refuses, left the session with no protocol version, and so without
// batches.
func TestRefusedInitializeKeepsVersion(t *testing.T) {
	w := newWire(t, 0)
	w.initialize("2025-03-26")
	w.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if _, _, msg := errorOf(t, w.recv()); !strings.Contains(msg, "initialize") {
		t.Errorf("a second initialize: %q", msg)
	}
	w.send(`[{"jsonrpc":"2.0","id":2,"method":"ping"}]`)
	if got := w.recv(); got != `[{"jsonrpc":"2.0","id":2,"result":{}}]` {
		t.Errorf("a batch after a refused initialize: %s", got)
	}
}

func TestBatchBeforeInitialize(t *testing.T) {
	w := newWire(t, 0)
	w.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`)
	if _, code, msg := errorOf(t, w.recv()); code != -32600 || !strings.Contains(msg, "negotiated none with initialize") {
		t.Errorf("got %d %q", code, msg)
	}
}

func TestEndOfInput(t *testing.T) {
	w := newWire(t, 0)
	w.initialize("2025-11-25")
	w.in.Close()
	select {
	case <-w.ran:
	case <-time.After(waitLimit):
		t.Fatal("the session did not end with its input")
	}
}

func TestReadLine(t *testing.T) {
	r := bufio.NewReaderSize(strings.NewReader("one\r\n"+strings.Repeat("x", 40)+"\nlast"), 16)
	for _, want := range []struct {
		line    string
		tooLong bool
		err     error
	}{{"one", false, nil}, {"", true, nil}, {"last", false, io.EOF}} {
		line, tooLong, err := readLine(r, 20)
		if string(line) != want.line || tooLong != want.tooLong || err != want.err {
			t.Errorf("readLine = %q, %v, %v; want %q, %v, %v", line, tooLong, err, want.line, want.tooLong, want.err)
		}
	}
}

func TestExactInt(t *testing.T) {
	for num, want := range map[string]bool{
		"0": true, "7": true, "-7": true, "-0": true, "1e3": true, "1E+3": true, "1.0": true, "700e-2": true,
		"9007199254740991": true, "-9007199254740991": true, "0.0e99999999999999999999": true, "0.00000000000000000000000000001e40": true,
		"1.5": false, "9007199254740992": false, "1e16": false, "7e-1": false, "1e-400": false, "1e99999999999999999999": false,
		"1.0000000000000001": false,
	} {
		if got := exactInt(json.RawMessage(num)); got != want {
			t.Errorf("exactInt(%s) = %v", num, got)
		}
	}
}

func ExampleTransport() {
	srv := mcp.NewServer(&mcp.Implementation{Name: "example", Version: "1"}, nil)
	if err := srv.Run(context.Background(), &Transport{}); err != nil {
		fmt.Println(err)
	}
}

// lockedLog is a log the transport writes while the test reads it.
type lockedLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestLongIDsCutShort: an id may be a string or a number of any length;
// the messages that name one, answered or logged, name only its start.
func TestLongIDsCutShort(t *testing.T) {
	var log lockedLog
	w := newLoggedWire(t, 0, slog.New(slog.NewTextHandler(&log, nil)))
	w.initialize("2025-11-25")
	long := `"` + strings.Repeat("i", 100<<10) + `"`
	w.send(`{"jsonrpc":"2.0","id":` + long + `,"method":"tools/call","params":{"name":"block"}}`)
	w.send(`{"jsonrpc":"2.0","id":` + long + `,"method":"ping"}`)
	if id, code, msg := errorOf(t, w.recv()); id != "null" || code != -32600 || len(msg) > 1<<10 || !strings.Contains(msg, "cut short") {
		t.Errorf("reused id: %s %d, a message of %d bytes: %.200s", id, code, len(msg), msg)
	}
	// A response with an id toolsearch never sent is dropped, and logged.
	w.send(`{"jsonrpc":"2.0","id":1.` + strings.Repeat("5", 100<<10) + `,"result":{}}`)
	w.alive()
	close(w.release)
	w.recv() // the call's answer
	if out := log.String(); len(out) > 4<<10 || strings.Count(out, "cut short") != 2 {
		t.Errorf("a log of %d bytes: %.600s", len(out), out)
	}
}
