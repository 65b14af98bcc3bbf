// Package stdio is the transport toolsearch serves MCP on over stdin and
// stdout: newline-delimited JSON-RPC, as the go-sdk's mcp.StdioTransport
// speaks it, except that one bad line does not end the connection.
//
// The go-sdk ends a stdio connection, and so the process, at the first
// line it cannot take: a line that is not JSON, a batch under a protocol
// without batches, an id that is an object, a message without "jsonrpc".
// Here each line is checked before the SDK sees it, and a bad one is
// answered with the JSON-RPC error the specification names (-32700 parse
// error, -32600 invalid request), with the request's id when it can be
// read and null otherwise; then the next line is read.
//
// Request ids reach the SDK as the client sent them: the transport invents
// none. The SDK writes a request's id into more than its response (the
// 2026-07-28 subscriptions/listen stamps it into the _meta of its
// acknowledgement, of its result and of every notification it carries),
// so an id of the transport's own would reach the client in places no
// transport can know of. Instead the transport takes only the ids the SDK
// holds exactly, which are the ids MCP allows: strings, and integers within
// ±(2^53−1), the range a JSON parser of almost any language reads back
// exactly (the SDK reads numbers as float64, and would answer a request
// with id 1.5 as if its id were 1). Any other number is refused with an
// error that carries the id as sent. A response gets back the id's exact
// spelling (1e3, "\u0041"), and a client reusing an id still in flight is
// told so, which keeps a batch's requests apart.
//
// A line longer than MaxLineLength (16 MiB by default, the SDK's own cap)
// is skipped without being held in memory, and answered with an error.
//
// Batches (JSON arrays of messages) are taken only on sessions of protocol
// 2025-03-26 or older, which have them; the responses to a batch's requests
// come back as one array, with an error in place of each bad element.
package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Transport is an mcp.Transport over a reader and a writer of
// newline-delimited JSON-RPC, stdin and stdout by default.
type Transport struct {
	In  io.Reader // os.Stdin when nil; closed with the connection if it is an io.Closer
	Out io.Writer // os.Stdout when nil; never closed
	// MaxLineLength bounds one message, in bytes; 0 means
	// mcp.DefaultMaxLineLength (16 MiB).
	MaxLineLength int
	// Logger receives a warning for every line answered with an error;
	// nil discards them.
	Logger *slog.Logger
}

// Connect implements mcp.Transport. It starts reading at once.
func (t *Transport) Connect(context.Context) (mcp.Connection, error) {
	in, out := t.In, t.Out
	if in == nil {
		in = os.Stdin
	}
	if out == nil {
		out = os.Stdout
	}
	max := t.MaxLineLength
	if max <= 0 {
		max = mcp.DefaultMaxLineLength
	}
	log := t.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &conn{
		out:      out,
		log:      log,
		incoming: make(chan []jsonrpc.Message),
		failed:   make(chan error, 1),
		closed:   make(chan struct{}),
		inFlight: map[jsonrpc.ID]json.RawMessage{},
		batches:  map[jsonrpc.ID]*batch{},
	}
	if closer, ok := in.(io.Closer); ok {
		c.closeIn = closer.Close
	}
	go c.readLines(bufio.NewReaderSize(in, 64<<10), max)
	return c, nil
}

// conn is one connection. Reads come from readLines through incoming;
// writes, ours and the SDK's, are serialized by writeMu.
type conn struct {
	out     io.Writer
	writeMu sync.Mutex
	log     *slog.Logger

	incoming chan []jsonrpc.Message // the messages of one line
	failed   chan error             // why reading stopped (io.EOF at the end)
	queue    []jsonrpc.Message      // the rest of a batch; only Read touches it
	closed   chan struct{}
	close    sync.Once
	closeIn  func() error

	mu sync.Mutex
	// inFlight holds the ids of the client's requests not yet answered,
	// as the SDK reads them, with each id as sent: to refuse an id already
	// in use, and to answer with the id's own spelling.
	inFlight map[jsonrpc.ID]json.RawMessage
	batches  map[jsonrpc.ID]*batch // by the ids of the requests they wait for
	version  string                // the protocol version negotiated
	initID   jsonrpc.ID            // the initialize request's, until answered
}

// Read implements mcp.Connection.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for len(c.queue) == 0 {
		select {
		case msgs := <-c.incoming:
			c.queue = msgs
		case err := <-c.failed:
			c.failed <- err // for any later Read
			return nil, err
		case <-c.closed:
			return nil, io.EOF
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	msg := c.queue[0]
	c.queue = c.queue[1:]
	return msg, nil
}

// Write implements mcp.Connection. A response gets back the request id as
// the client spelled it, and joins the rest of its batch if it answers one.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding message: %w", err)
	}
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return c.writeLine(data)
	}
	c.mu.Lock()
	if c.initID.IsValid() && resp.ID == c.initID {
		c.initID = jsonrpc.ID{}
		if v := negotiated(resp); v != "" { // not a refused second initialize
			c.version = v
		}
	}
	if sent, ok := c.inFlight[resp.ID]; ok {
		delete(c.inFlight, resp.ID)
		data = withID(data, resp.ID, sent)
	}
	b := c.batches[resp.ID]
	var whole []byte
	if b != nil {
		delete(c.batches, resp.ID)
		whole = b.answer(resp.ID, data)
	}
	c.mu.Unlock()
	switch {
	case b == nil:
		return c.writeLine(data)
	case whole != nil:
		return c.writeLine(whole)
	}
	return nil // the batch still waits for other responses
}

// Close implements mcp.Connection. It closes the input, which ends a read
// in progress.
func (c *conn) Close() error {
	var err error
	c.close.Do(func() {
		close(c.closed)
		if c.closeIn != nil {
			err = c.closeIn()
		}
	})
	return err
}

// SessionID implements mcp.Connection: stdio has no session ids.
func (c *conn) SessionID() string { return "" }

// writeLine writes one message. Output stays open after Close, as with
// the SDK's stdio transport: answers to the last requests still go out
// once the input has ended.
func (c *conn) writeLine(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.out.Write(append(data, '\n'))
	return err
}

// readLines reads the input line by line until it ends, and hands the
// messages of each good line to Read.
func (c *conn) readLines(r *bufio.Reader, max int) {
	for {
		line, tooLong, err := readLine(r, max)
		var msgs []jsonrpc.Message
		if tooLong {
			c.refuse(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("the message is longer than the limit of %d bytes and was not read", max))
		} else if len(bytes.TrimSpace(line)) > 0 {
			msgs = c.take(line)
		}
		if len(msgs) > 0 {
			select {
			case c.incoming <- msgs:
			case <-c.closed:
				return
			}
		}
		if err != nil {
			c.failed <- err
			return
		}
	}
}

// readLine returns the next line without its line break, or reports that
// it was longer than max and skips it without keeping more than max bytes.
// err is set at the end of the input; line then holds what came last.
func readLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			if len(bytes.TrimRight(line, "\r\n")) > max {
				line, tooLong = nil, true
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

// negotiated reads the protocol version from an initialize result.
func negotiated(resp *jsonrpc.Response) string {
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if resp.Error != nil || json.Unmarshal(resp.Result, &res) != nil {
		return ""
	}
	return res.ProtocolVersion
}

// batchesAllowed reports whether the session's protocol has batches: those
// before 2025-06-18 do, once a version has been negotiated.
func (c *conn) batchesAllowed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version != "" && c.version < "2025-06-18"
}

// withID puts the id as the client spelled it, sent, in place of the SDK's
// spelling of the same id, in an encoded response. The SDK writes
// "jsonrpc" first and "id" second; should that change, the message is
// decoded and encoded again.
func withID(data []byte, id jsonrpc.ID, sent json.RawMessage) []byte {
	spelled, err := json.Marshal(id.Raw())
	if err != nil || bytes.Equal(spelled, sent) {
		return data
	}
	head := append([]byte(`{"jsonrpc":"2.0","id":`), spelled...)
	if rest, ok := bytes.CutPrefix(data, head); ok && len(rest) > 0 && (rest[0] == ',' || rest[0] == '}') {
		out := make([]byte, 0, len(data)+len(sent))
		out = append(out, `{"jsonrpc":"2.0","id":`...)
		out = append(out, sent...)
		return append(out, rest...)
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) != nil {
		return data
	}
	fields["id"] = sent
	if out, err := json.Marshal(fields); err == nil {
		return out
	}
	return data
}

// errorResponse is a JSON-RPC error response with the id as sent.
func errorResponse(id json.RawMessage, code int, msg string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	data, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: int64(code), Message: msg}})
	return data
}

// refuse answers a bad line, and logs why.
func (c *conn) refuse(id json.RawMessage, code int, msg string) {
	c.log.Warn("answered a malformed message with an error", "code", code, "reason", msg)
	c.writeLine(errorResponse(id, code, msg))
}
