package stdio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/toolsearch/toolsearch/internal/utf8cut"
)

// A problem is what is wrong with one message, and how to answer it.
type problem struct {
	id     json.RawMessage // the request's id as sent, or nil for null
	code   int
	reason string
	answer bool // false for a response, which is not answered
}

func (p *problem) response() []byte { return errorResponse(p.id, p.code, p.reason) }

// take checks one line and returns its messages for the SDK, having
// answered the bad ones itself.
func (c *conn) take(line []byte) []jsonrpc.Message {
	var raw json.RawMessage
	if err := json.Unmarshal(line, &raw); err != nil {
		c.refuse(nil, jsonrpc.CodeParseError, "parse error: the line is not valid JSON ("+strings.TrimPrefix(err.Error(), "json: ")+"); send one JSON-RPC message per line")
		return nil
	}
	if raw[0] == '[' {
		return c.takeBatch(raw)
	}
	msg, p := c.check(raw)
	if p != nil {
		c.reject(p)
		return nil
	}
	return []jsonrpc.Message{msg}
}

// reject answers or, for a response, only logs a bad message.
func (c *conn) reject(p *problem) {
	if !p.answer {
		c.log.Warn("dropped a malformed response", "reason", p.reason)
		return
	}
	c.refuse(p.id, p.code, p.reason)
}

// check validates one message, collecting every problem, decodes it and
// holds a request's id as in flight (see hold).
func (c *conn) check(raw json.RawMessage) (jsonrpc.Message, *problem) {
	var f map[string]json.RawMessage
	if raw[0] != '{' || json.Unmarshal(raw, &f) != nil {
		return nil, &problem{code: jsonrpc.CodeInvalidRequest, reason: "invalid request: a message must be a JSON object, not " + kindOf(raw), answer: true}
	}
	id, hasID := f["id"]
	method, hasMethod := f["method"]
	_, hasResult := f["result"]
	_, hasError := f["error"]
	isResponse := !hasMethod && (hasResult || hasError)
	idOK := !hasID || kindOf(id) == "a string" || kindOf(id) == "a number" || kindOf(id) == "null"

	var problems []string
	if v, ok := f["jsonrpc"]; !ok {
		problems = append(problems, `the "jsonrpc": "2.0" member is missing`)
	} else if !isString(v, "2.0") {
		problems = append(problems, `"jsonrpc" must be "2.0"`)
	}
	if !idOK {
		problems = append(problems, `"id" must be a string or a number, not `+kindOf(id))
	}
	if hasMethod && kindOf(method) != "a string" {
		problems = append(problems, `"method" must be a string, not `+kindOf(method))
	}
	if !hasMethod && !isResponse {
		problems = append(problems, `a message needs a "method" (a request or a notification), or a "result" or an "error" (a response)`)
	}
	if isResponse && hasID && kindOf(id) == "a number" && !exactInt(id) {
		// toolsearch numbers its requests with integers: a response with
		// any other number answers none of them.
		problems = append(problems, "the id "+shownID(id)+" is not one toolsearch sent")
	}
	if hasMethod && hasID && kindOf(id) == "a number" && !exactInt(id) {
		problems = append(problems, "the id "+shownID(id)+" is not an id MCP allows: request ids are strings or integers, and toolsearch takes integers within ±9007199254740991 (2^53−1), as most JSON parsers read them exactly; send it as a string")
	}
	var answerID json.RawMessage
	if hasID && idOK && kindOf(id) != "null" {
		answerID = id
	}
	if len(problems) > 0 {
		return nil, &problem{id: answerID, code: jsonrpc.CodeInvalidRequest, reason: "invalid request: " + strings.Join(problems, "; "), answer: !isResponse}
	}
	msg, err := jsonrpc.DecodeMessage(raw)
	if err != nil { // what the SDK refuses beyond the above, such as deep nesting
		return nil, &problem{id: answerID, code: jsonrpc.CodeInvalidRequest, reason: "invalid request: " + err.Error(), answer: !isResponse}
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		return msg, nil
	}
	// The SDK acts on a cancellation even when it carries an id (and then
	// answers it with an error): both kinds are aimed.
	if req.Method == "notifications/cancelled" {
		aimCancelled(req)
	}
	if req.ID.IsValid() {
		if p := c.hold(req, answerID); p != nil {
			return nil, p
		}
	}
	return req, nil
}

// hold records a request as in flight under its id, sent as the client
// spelled it, unless a request still in flight has that id.
func (c *conn) hold(req *jsonrpc.Request, sent json.RawMessage) *problem {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, dup := c.inFlight[req.ID]; dup {
		// Null, as the SDK does, so as not to answer the first request.
		return &problem{code: jsonrpc.CodeInvalidRequest, reason: "invalid request: the id " + shownID(sent) + " is in use by a request still in flight; give each request an id of its own", answer: true}
	}
	c.inFlight[req.ID] = bytes.Clone(sent)
	if req.Method == "initialize" {
		c.initID = req.ID
	}
	return nil
}

// aimCancelled points a cancellation naming a number the SDK would read
// as another (1.5 as 1) at no request (a null requestId, which the SDK
// ignores): no request can have such an id, and the SDK would cancel the
// one whose id it reads it as.
func aimCancelled(req *jsonrpc.Request) {
	var params map[string]json.RawMessage
	if json.Unmarshal(req.Params, &params) != nil {
		return
	}
	id, ok := params["requestId"]
	if !ok || kindOf(id) != "a number" || exactInt(id) {
		return
	}
	params["requestId"] = json.RawMessage("null")
	if data, err := json.Marshal(params); err == nil {
		req.Params = data
	}
}

// maxShownID bounds the part of an id a message repeats: an id may be a
// string of megabytes, and the message is answered and logged.
const maxShownID = 64

// shownID is an id as a message names it: whole when short, else its
// start, cut between characters, and its length.
func shownID(id json.RawMessage) string {
	if len(id) <= maxShownID {
		return string(id)
	}
	return string(utf8cut.Prefix(id, maxShownID)) + "… (" + strconv.Itoa(len(id)) + " bytes, cut short here)"
}

// isString reports whether v is the JSON string want.
func isString(v json.RawMessage, want string) bool {
	var s string
	return json.Unmarshal(v, &s) == nil && s == want
}

// maxExactInt is the largest integer a float64, and so the SDK, holds
// exactly along with every integer below it: 2^53−1.
const maxExactInt = 1<<53 - 1

// exactInt reports whether a JSON number is an integer within
// ±maxExactInt, however it is spelled (7, -0, 1e3, 1.0, 700e-2 is not):
// the numbers the SDK reads back as themselves. It works on the digits,
// in time bounded by the number's length whatever its exponent.
func exactInt(num json.RawMessage) bool {
	s := strings.TrimPrefix(string(bytes.TrimSpace(num)), "-")
	mantissa, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	whole, frac, _ := strings.Cut(mantissa, ".")
	digits := strings.TrimLeft(whole+frac, "0")
	if digits == "" {
		return true // a zero, whatever its exponent
	}
	scale := -len(frac)
	if hasExp {
		e, err := strconv.Atoi(strings.TrimPrefix(exp, "+"))
		if err != nil || e > len(s)+16 || e < -len(s) {
			// Beyond ±2^53 with its nonzero digits, or a fraction.
			return false
		}
		scale += e
	}
	for scale < 0 && strings.HasSuffix(digits, "0") {
		digits, scale = digits[:len(digits)-1], scale+1
	}
	if scale < 0 || len(digits)+scale > 16 {
		return false
	}
	n, err := strconv.ParseInt(digits+strings.Repeat("0", scale), 10, 64)
	return err == nil && n <= maxExactInt
}

// kindOf names the kind of a JSON value, for messages.
func kindOf(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// A batch collects the responses to one batch of requests, to be written
// as one array once the last has come.
type batch struct {
	pending   map[jsonrpc.ID]int // index in responses, by the id given
	responses [][]byte
}

// answer records a response and returns the whole batch's once complete.
func (b *batch) answer(id jsonrpc.ID, data []byte) []byte {
	b.responses[b.pending[id]] = data
	delete(b.pending, id)
	if len(b.pending) > 0 {
		return nil
	}
	return b.whole()
}

// whole is the batch's response: an array of the responses, in order.
func (b *batch) whole() []byte {
	return append(append([]byte("["), bytes.Join(b.responses, []byte(","))...), ']')
}

// takeBatch checks a batch and returns its messages for the SDK. Bad
// elements are answered in the batch's response, in their place.
func (c *conn) takeBatch(raw json.RawMessage) []jsonrpc.Message {
	if !c.batchesAllowed() {
		c.refuse(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: batches (JSON arrays of messages) are part of MCP only before protocol version 2025-06-18, and this session %s; send one message per line", c.versionPhrase()))
		return nil
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil || len(elems) == 0 {
		c.refuse(nil, jsonrpc.CodeInvalidRequest, "invalid request: the batch is empty")
		return nil
	}
	b := &batch{pending: map[jsonrpc.ID]int{}}
	var msgs []jsonrpc.Message
	for _, e := range elems {
		msg, p := c.check(e)
		if p != nil {
			if p.answer {
				b.responses = append(b.responses, p.response())
			} else {
				c.reject(p)
			}
			continue
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
			b.pending[req.ID] = len(b.responses)
			b.responses = append(b.responses, nil)
		}
		msgs = append(msgs, msg)
	}
	if len(b.pending) == 0 {
		if len(b.responses) > 0 { // nothing will come to complete it
			c.writeLine(b.whole())
		}
		return msgs
	}
	c.mu.Lock()
	for id := range b.pending {
		c.batches[id] = b
	}
	c.mu.Unlock()
	return msgs
}

// versionPhrase says what protocol the session speaks, for messages.
func (c *conn) versionPhrase() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version == "" {
		return "negotiated none with initialize"
	}
	return "uses " + c.version
}
