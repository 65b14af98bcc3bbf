package relay

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/ownership"
)

// Bounds on calls of 2026-07-28 clients waiting for their input.
const (
	// MaxParked is how many calls may wait for their clients' input at
	// once. Beyond it, an upstream asking for input gets an error at once.
	MaxParked = 256
	// ParkTimeout is how long a call waits for its client to retry with
	// the input asked for. After it the call is cancelled upstream.
	ParkTimeout = 10 * time.Minute
)

// A Relay holds the calls of 2026-07-28 clients that wait for input, by
// request state. One serves a whole server: a client's retry may come on
// any connection. It is safe for concurrent use.
type Relay struct {
	mu          sync.Mutex
	parked      map[string]*call
	maxParked   int
	parkTimeout time.Duration
}

// New returns a Relay with the default bounds.
func New() *Relay {
	return &Relay{parked: map[string]*call{}, maxParked: MaxParked, parkTimeout: ParkTimeout}
}

// Run runs do, which forwards the client request req upstream, with a Caller
// that passes the upstream's requests and messages to the client.
//
// For clients of protocols before 2026-07-28 Run returns what do returns.
// For 2026-07-28 clients, do runs on while Run returns, at the first input
// the upstream asks for, the result inputRequired makes of the input
// requests and a request state; the client's retry, carrying that state and
// its answers, calls Run again, which passes the answers on and waits for
// the next input request or do's result. ctx is the client request's.
func Run[R any](r *Relay, ctx context.Context, req Request, do func(context.Context, Caller) (R, error), inputRequired func(mcp.InputRequestMap, string) R) (R, error) {
	if !modern(req) {
		return do(ctx, &sessionCaller{ctx: ctx, ss: req.Session, token: progressToken(req.Meta)})
	}
	var c *call
	if req.RequestState == "" {
		c = r.start(ctx, req, func(ctx context.Context, caller Caller) (any, error) { return do(ctx, caller) })
	} else {
		var err error
		if ownership.CheckState(ctx, req.RequestState) != nil {
			// Another caller's state, or none this cluster issued: the
			// call it names, if any, is not this caller's to resume.
			var zero R
			return zero, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
				Message: "requestState was not issued to this caller by a replica of this cluster: make the request again without it"}
		}
		if c, err = r.resume(req); err != nil {
			var zero R
			return zero, err
		}
	}
	out, err := r.wait(ctx, req, c)
	switch v := out.(type) {
	case mcp.InputRequestMap:
		return inputRequired(v, c.state), nil
	case R:
		return v, err
	}
	var zero R
	return zero, err
}

// call is one request of a 2026-07-28 client forwarded upstream.
type call struct {
	caller *parkedCaller
	cancel context.CancelFunc
	done   chan outcome  // do's result, once
	asked  chan struct{} // an input request is pending

	mu      sync.Mutex
	state   string            // the request state naming it while parked
	pending map[string]*input // input requests not yet answered, by id
	nextID  int
	timer   *time.Timer // the park timeout
}

type outcome struct {
	res any
	err error
}

// input is one request of the upstream for the client's input.
type input struct {
	params mcp.InputRequest
	sent   bool // returned to the client, whose retry must answer it
	answer chan answer
}

type answer struct {
	resp mcp.InputResponse
	err  error
}

// start runs do for a new request in the background: it outlives the
// client request, which ends with the first input-required result.
func (r *Relay) start(ctx context.Context, req Request, do func(context.Context, Caller) (any, error)) *call {
	c := &call{done: make(chan outcome, 1), asked: make(chan struct{}, 1), pending: map[string]*input{}}
	c.caller = &parkedCaller{call: c, caps: capabilities(req.Session), token: progressToken(req.Meta)}
	callCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	c.cancel = cancel
	go func() {
		res, err := do(callCtx, c.caller)
		c.done <- outcome{res, err}
	}()
	return c
}

// resume takes the call a retry names from the parked ones and passes it
// the client's answers.
func (r *Relay) resume(req Request) (*call, error) {
	r.mu.Lock()
	c := r.parked[req.RequestState]
	delete(r.parked, req.RequestState)
	r.mu.Unlock()
	if c == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("requestState %q names no call waiting for input: it ended, or waited longer than %v; make the request again", req.RequestState, ParkTimeout)}
	}
	c.mu.Lock()
	c.timer.Stop()
	for id, in := range c.pending {
		if !in.sent {
			continue
		}
		delete(c.pending, id)
		if resp, ok := req.InputResponses[id]; ok && resp != nil {
			in.answer <- answer{resp: resp}
		} else {
			in.answer <- answer{err: &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("the client's retry did not answer input request %q", id)}}
		}
	}
	c.mu.Unlock()
	return c, nil
}

// wait waits, for the client request of ctx, for the call's result or its
// next input requests (returned as an mcp.InputRequestMap, with the call
// parked). A client request that ends first cancels the call.
func (r *Relay) wait(ctx context.Context, req Request, c *call) (any, error) {
	c.caller.attach(ctx, req)
	defer c.caller.detach()
	for {
		select {
		case o := <-c.done:
			c.cancel()
			return o.res, o.err
		case <-c.asked:
			requests := c.unsent()
			if len(requests) == 0 {
				continue // answered or given up meanwhile
			}
			if err := r.park(ctx, c); err != nil {
				c.refuse(err)
				continue
			}
			return requests, nil
		case <-ctx.Done():
			c.cancel()
			return nil, ctx.Err()
		}
	}
}

// unsent marks the pending input requests not yet returned to the client
// as sent, and returns them.
func (c *call) unsent() mcp.InputRequestMap {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out mcp.InputRequestMap
	for _, id := range slices.Sorted(maps.Keys(c.pending)) {
		if in := c.pending[id]; !in.sent {
			in.sent = true
			if out == nil {
				out = mcp.InputRequestMap{}
			}
			out[id] = in.params
		}
	}
	return out
}

// refuse answers every pending input request with err.
func (c *call) refuse(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, in := range c.pending {
		delete(c.pending, id)
		in.answer <- answer{err: err}
	}
}

// park files the call under a new request state until the client's retry,
// or until the park timeout cancels it. The state names this replica and
// the caller when the client request's ctx carries a Sealer (package
// internal/ownership), so that a retry reaching another replica comes
// here, and no other caller's does.
func (r *Relay) park(ctx context.Context, c *call) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.parked) >= r.maxParked {
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
			Message: fmt.Sprintf("%d calls wait for their clients' input already, the most toolsearch keeps; retry later", r.maxParked)}
	}
	state := ownership.NewState(ctx)
	r.parked[state] = c
	c.mu.Lock()
	c.state = state
	c.timer = time.AfterFunc(r.parkTimeout, func() {
		r.mu.Lock()
		expired := r.parked[state] == c
		if expired {
			delete(r.parked, state)
		}
		r.mu.Unlock()
		if expired {
			c.refuse(errors.New("the client did not come back with the input asked for"))
			c.cancel()
		}
	})
	c.mu.Unlock()
	return nil
}

// Parked reports how many calls wait for their clients' input.
func (r *Relay) Parked() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.parked)
}
