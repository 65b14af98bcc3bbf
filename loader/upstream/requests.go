package upstream

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Caller is the client a request to an upstream is made for. While the
// upstream serves the request, its requests to the client (elicitation,
// sampling, roots) and its progress and log messages go to the caller, and
// the caller's answers go back unchanged. One upstream connection serves
// every client of toolsearch, so each request says whom it is for: attach
// the caller to the request's context with WithCaller.
//
// A caller that lacks a capability returns the protocol's error at once
// (a *jsonrpc.Error), never waits.
type Caller interface {
	Elicit(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error)
	CreateMessage(ctx context.Context, p *mcp.CreateMessageWithToolsParams) (*mcp.CreateMessageWithToolsResult, error)
	ListRoots(ctx context.Context, p *mcp.ListRootsParams) (*mcp.ListRootsResult, error)
	// Progress reports the request's progress, under the caller's own
	// token (ProgressToken).
	Progress(ctx context.Context, p *mcp.ProgressNotificationParams)
	Log(ctx context.Context, p *mcp.LoggingMessageParams)
	ElicitationComplete(ctx context.Context, p *mcp.ElicitationCompleteParams)
	// ProgressToken is the token the caller asked for progress under; nil
	// when it asked for none.
	ProgressToken() any
	// Recipient identifies the client that receives the caller's
	// requests: two requests with the same recipient may share what the
	// upstream does not tie to either of them.
	Recipient() any
}

type callerKey struct{}

// WithCaller returns a context whose upstream requests are made for c.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

func callerOf(ctx context.Context) Caller {
	c, _ := ctx.Value(callerKey{}).(Caller)
	return c
}

// Bounds on what an upstream's requests and notifications cost.
const (
	// clientAnswerTimeout bounds how long one request of an upstream
	// waits for the caller's answer: a person filling in a form, or a
	// host's model sampling. The call's own timeout stops meanwhile.
	clientAnswerTimeout = 10 * time.Minute
	// maxRoundTrips bounds the input-required rounds of one request to
	// an upstream of protocol 2026-07-28.
	maxRoundTrips = 10
	// notifyRate is how many progress and log messages one upstream may
	// pass on per second; beyond it they are dropped.
	notifyRate = 100
	// maxURLElicitations bounds the URL elicitations whose completion is
	// awaited per upstream; the oldest is forgotten first.
	maxURLElicitations = 256
)

// inflight is one request to an upstream made for a caller.
type inflight struct {
	caller Caller
	token  string // the progress token sent upstream; "" when none
	clock  *callClock
	// ctx is the request's: the upstream's requests to the caller end
	// with it, even when the upstream does not cancel them.
	ctx context.Context
	// asking counts the upstream's requests to the caller outstanding
	// (guarded by the relay's mu; see admit).
	asking int

	// The last progress passed on, and a signal at each.
	mu              sync.Mutex
	progress, total float64
	more            chan struct{}
}

// progressSettle bounds how long a finished request waits for the progress
// its server announced (total) and sent before its result.
const progressSettle = 250 * time.Millisecond

// settle waits, once the upstream answered, for the progress notifications
// it sent before its answer: the SDK hands notifications to their handler
// in order but answers at once, so the last ones may still be on their way.
// It waits only while the progress reported is short of the total the
// server announced, and at most progressSettle.
func (in *inflight) settle() {
	if in == nil || in.token == "" {
		return
	}
	timeout := time.NewTimer(progressSettle)
	defer timeout.Stop()
	for {
		in.mu.Lock()
		done := in.total <= 0 || in.progress >= in.total
		in.mu.Unlock()
		if done {
			return
		}
		select {
		case <-in.more:
		case <-timeout.C:
			return
		}
	}
}

// relay keeps an upstream's requests in flight, to route what the upstream
// sends back to the caller each belongs to.
type relay struct {
	mu      sync.Mutex
	calls   map[*inflight]bool
	byToken map[string]*inflight
	// urlElicitations maps the id of a URL elicitation to its recipient,
	// in order of arrival, since its completion comes after the call.
	urlElicitations map[string]Caller
	urlOrder        []string
	// sent notifications passed in the second that began at window;
	// allow drops those beyond notifyRate.
	window time.Time
	sent   int
	// asking counts the upstream's requests to callers outstanding;
	// asked those sent in the second that began at askWindow (see admit).
	asking    int
	askWindow time.Time
	asked     int
}

// begin registers a request for the caller of ctx, if any, and returns its
// record and the function that ends it. Its progress token is unique in
// the Manager, so that two callers of one upstream each get only their own
// progress.
func (u *upstream) begin(ctx context.Context, clock *callClock) (*inflight, func()) {
	c := callerOf(ctx)
	if c == nil {
		return nil, func() {}
	}
	in := &inflight{caller: c, clock: clock, ctx: ctx, more: make(chan struct{}, 1)}
	if c.ProgressToken() != nil {
		in.token = fmt.Sprintf("toolsearch-%d", u.m.tokens.Add(1))
	}
	r := &u.rel
	r.mu.Lock()
	if r.calls == nil {
		r.calls, r.byToken = map[*inflight]bool{}, map[string]*inflight{}
	}
	r.calls[in] = true
	if in.token != "" {
		r.byToken[in.token] = in
	}
	r.mu.Unlock()
	return in, func() {
		r.mu.Lock()
		delete(r.calls, in)
		delete(r.byToken, in.token)
		r.mu.Unlock()
	}
}

// withToken sets the request's progress token to in's.
func withToken(p interface{ SetProgressToken(any) }, in *inflight) {
	if in != nil && in.token != "" {
		p.SetProgressToken(in.token)
	}
}

// recipients returns one request in flight per recipient.
func (r *relay) recipients() []*inflight {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*inflight
	seen := map[any]bool{}
	for in := range r.calls {
		if k := in.caller.Recipient(); !seen[k] {
			seen[k] = true
			out = append(out, in)
		}
	}
	return out
}

// allow reports whether one more notification may pass this second.
func (r *relay) allow() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if now := time.Now(); now.Sub(r.window) >= time.Second {
		r.window, r.sent = now, 0
	}
	r.sent++
	return r.sent <= notifyRate
}

// Errors an upstream gets for requests toolsearch cannot pass on.
var (
	errNoCaller = &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
		Message: "no client request is in progress through toolsearch: requests to the client are passed on only while a call, prompt or resource read it made is in progress"}
	errAmbiguousCaller = &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
		Message: "requests from several clients are in progress through toolsearch and this protocol does not say which one this request belongs to; retry when only one is in progress"}
)

// callerFor picks the request in flight that a request from the upstream,
// which does not say what it belongs to (protocols before 2026-07-28 on
// one connection), is for: the only client with requests in flight.
func (u *upstream) callerFor() (*inflight, error) {
	switch rs := u.rel.recipients(); len(rs) {
	case 0:
		return nil, errNoCaller
	case 1:
		return rs[0], nil
	default:
		return nil, errAmbiguousCaller
	}
}

// ask passes one request of the upstream to in's caller: the call's clock
// stops meanwhile, and the wait is bounded by clientAnswerTimeout and by
// the request in is.
func ask[R any](ctx context.Context, in *inflight, do func(context.Context, Caller) (R, error)) (R, error) {
	if in.clock != nil {
		in.clock.pause()
		defer in.clock.resume()
	}
	ctx, cancel := context.WithTimeoutCause(ctx, clientAnswerTimeout, errNoAnswer)
	defer cancel()
	defer context.AfterFunc(in.ctx, cancel)()
	res, err := do(ctx, in.caller)
	if errors.Is(context.Cause(ctx), errNoAnswer) {
		var zero R
		return zero, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("the client gave no answer within %v", clientAnswerTimeout)}
	}
	return res, err
}

var errNoAnswer = errors.New("no answer from the client")

// relayOptions sets the client options that pass an upstream's requests
// and notifications on to callers. toolsearch declares sampling (with tools
// and context), elicitation (form and URL) and roots to every upstream: the
// caller of each request decides what it supports.
func (u *upstream) relayOptions(o *mcp.ClientOptions) {
	o.Capabilities = &mcp.ClientCapabilities{
		RootsV2:     &mcp.RootCapabilities{},
		Sampling:    &mcp.SamplingCapabilities{Tools: &mcp.SamplingToolsCapabilities{}, Context: &mcp.SamplingContextCapabilities{}},
		Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}},
	}
	// Input-required results (protocol 2026-07-28) are answered by
	// request, which knows whom each request is for.
	o.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
	o.ElicitationHandler = func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		in, err := u.callerFor()
		if err != nil {
			return nil, err
		}
		return u.elicit(ctx, in, req.Params)
	}
	o.CreateMessageWithToolsHandler = func(ctx context.Context, req *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
		in, err := u.callerFor()
		if err != nil {
			return nil, err
		}
		return u.sample(ctx, in, req.Params)
	}
	o.ProgressNotificationHandler = func(ctx context.Context, req *mcp.ProgressNotificationClientRequest) {
		u.progress(ctx, req.Params)
	}
	o.LoggingMessageHandler = func(ctx context.Context, req *mcp.LoggingMessageRequest) {
		u.logMessage(ctx, req.Params)
	}
	o.ElicitationCompleteHandler = func(ctx context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
		if c := u.rel.takeURLElicitation(req.Params.ElicitationID); c != nil {
			c.ElicitationComplete(ctx, req.Params)
		}
	}
}

// rootsMiddleware answers roots/list, which the SDK answers itself with
// the client's own roots, from the caller instead.
func (u *upstream) rootsMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "roots/list" {
			return next(ctx, method, req)
		}
		in, err := u.callerFor()
		if err != nil {
			return nil, err
		}
		p, _ := req.GetParams().(*mcp.ListRootsParams)
		return u.roots(ctx, in, p)
	}
}

// sample passes a sampling request on to the caller's host.
func (u *upstream) sample(ctx context.Context, in *inflight, p *mcp.CreateMessageWithToolsParams) (*mcp.CreateMessageWithToolsResult, error) {
	return askFor(ctx, u, in, func(ctx context.Context, c Caller) (*mcp.CreateMessageWithToolsResult, error) {
		return c.CreateMessage(ctx, u.relayedSampling(p))
	})
}

// roots asks the caller's host for its roots.
func (u *upstream) roots(ctx context.Context, in *inflight, p *mcp.ListRootsParams) (*mcp.ListRootsResult, error) {
	return askFor(ctx, u, in, func(ctx context.Context, c Caller) (*mcp.ListRootsResult, error) {
		return c.ListRoots(ctx, u.relayedRoots(p))
	})
}

// elicit passes an elicitation on, remembering whom a URL elicitation went
// to for its completion.
func (u *upstream) elicit(ctx context.Context, in *inflight, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	res, err := askFor(ctx, u, in, func(ctx context.Context, c Caller) (*mcp.ElicitResult, error) {
		return c.Elicit(ctx, u.relayedElicit(p))
	})
	if err == nil && p != nil && p.Mode == "url" && p.ElicitationID != "" {
		u.rel.rememberURLElicitation(p.ElicitationID, in.caller)
	}
	return res, err
}

func (r *relay) rememberURLElicitation(id string, c Caller) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.urlElicitations == nil {
		r.urlElicitations = map[string]Caller{}
	}
	if _, ok := r.urlElicitations[id]; !ok {
		r.urlOrder = append(r.urlOrder, id)
	}
	r.urlElicitations[id] = c
	for len(r.urlOrder) > maxURLElicitations {
		delete(r.urlElicitations, r.urlOrder[0])
		r.urlOrder = r.urlOrder[1:]
	}
}

func (r *relay) takeURLElicitation(id string) Caller {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.urlElicitations[id]
	delete(r.urlElicitations, id)
	return c
}

// progress passes a progress notification to the caller whose token it
// carries, under the caller's own token and without the server's secrets.
// Unknown tokens are dropped.
func (u *upstream) progress(ctx context.Context, p *mcp.ProgressNotificationParams) {
	token, ok := p.ProgressToken.(string)
	if !ok {
		return
	}
	u.rel.mu.Lock()
	in := u.rel.byToken[token]
	u.rel.mu.Unlock()
	if in == nil || !u.rel.allow() {
		return
	}
	mapped := *p
	mapped.ProgressToken = in.caller.ProgressToken()
	mapped.Message = u.redact.String(p.Message)
	in.caller.Progress(ctx, &mapped)
	in.mu.Lock()
	in.progress, in.total = p.Progress, p.Total
	in.mu.Unlock()
	signal(in.more)
}

// logMessage passes a log message on: to the clients with requests in
// flight to the server, which it most likely concerns, or else to the
// Manager's log watchers. Its logger names the server first, since clients
// get the messages of every server from toolsearch, and it goes without the
// server's secrets, as its stderr does.
func (u *upstream) logMessage(ctx context.Context, msg *mcp.LoggingMessageParams) {
	u.log.Debug("server log message", "level", msg.Level, "logger", msg.Logger)
	if !u.rel.allow() {
		return
	}
	p := *msg
	if p.Logger = u.cfg.Name; msg.Logger != "" {
		p.Logger += "/" + u.redact.String(msg.Logger)
	}
	p.Data = u.redact.Value(msg.Data)
	if rs := u.rel.recipients(); len(rs) > 0 {
		for _, in := range rs {
			in.caller.Log(ctx, &p)
		}
		return
	}
	u.m.watchers.log(u.cfg.Name, &p)
}

// request sends params to the server on s for the caller of ctx, if any:
// its progress token mapped, and, while the server answers that it needs
// input (protocol 2026-07-28), the caller asked for it and the request sent
// again with the answers. The token is set in params.
func request[P interface {
	*mcp.CallToolParams | *mcp.GetPromptParams | *mcp.ReadResourceParams
	SetProgressToken(any)
}, R mcp.Result](ctx context.Context, u *upstream, clock *callClock, params P, send func(context.Context, P) (R, error)) (R, error) {
	in, end := u.begin(ctx, clock)
	defer end()
	defer in.settle()
	withToken(params, in)
	for round := 1; ; round++ {
		res, err := send(ctx, params)
		if err != nil {
			return res, err
		}
		requests, state, ok := needsInput(res)
		if !ok {
			return res, nil
		}
		var zero R
		switch {
		case len(requests) == 0:
			return zero, errors.New("the server is busy (it asked for no input, which means: retry later)")
		case round >= maxRoundTrips:
			return zero, fmt.Errorf("the server still needed input after %d rounds", maxRoundTrips)
		case in == nil:
			return zero, errors.New("the server needs input from the client, and this request was not made for one")
		}
		responses, err := u.fulfill(ctx, in, requests)
		if err != nil {
			return zero, err
		}
		params = withInput(params, responses, state)
	}
}

// needsInput reads the input requests and request state of a result that
// says the server needs input.
func needsInput(res mcp.Result) (mcp.InputRequestMap, string, bool) {
	switch r := res.(type) {
	case *mcp.CallToolResult:
		return r.InputRequests, r.RequestState, r.NeedsInput()
	case *mcp.GetPromptResult:
		return r.InputRequests, r.RequestState, r.NeedsInput()
	case *mcp.ReadResourceResult:
		return r.InputRequests, r.RequestState, r.NeedsInput()
	}
	return nil, "", false
}

// withInput returns a copy of params that carries the caller's answers and
// the request state to echo, as the SDK's own retries do.
func withInput[P *mcp.CallToolParams | *mcp.GetPromptParams | *mcp.ReadResourceParams](params P, responses mcp.InputResponseMap, state string) P {
	switch p := any(params).(type) {
	case *mcp.CallToolParams:
		cp := *p
		cp.InputResponses, cp.RequestState = responses, state
		return any(&cp).(P)
	case *mcp.GetPromptParams:
		cp := *p
		cp.InputResponses, cp.RequestState = responses, state
		return any(&cp).(P)
	case *mcp.ReadResourceParams:
		cp := *p
		cp.InputResponses, cp.RequestState = responses, state
		return any(&cp).(P)
	}
	return params
}

// fulfill asks the caller for every input an upstream needs, one at a time:
// a person answers one form after another.
func (u *upstream) fulfill(ctx context.Context, in *inflight, requests mcp.InputRequestMap) (mcp.InputResponseMap, error) {
	responses := make(mcp.InputResponseMap, len(requests))
	for id, ir := range requests {
		var (
			resp mcp.InputResponse
			err  error
		)
		switch p := ir.(type) {
		case *mcp.ElicitParams:
			resp, err = u.elicit(ctx, in, p)
		case *mcp.CreateMessageWithToolsParams:
			resp, err = u.sample(ctx, in, p)
		case *mcp.ListRootsParams:
			resp, err = u.roots(ctx, in, p)
		default:
			err = fmt.Errorf("unsupported input request %T", ir)
		}
		if err != nil {
			return nil, fmt.Errorf("input request %q: %w", id, err)
		}
		responses[id] = resp
	}
	return responses, nil
}

// callClock bounds the upstream's share of a request: it runs while the
// upstream works and stops while the caller is asked for input (a person
// answering a form), so that a server's timeout measures the server.
type callClock struct {
	mu      sync.Mutex
	left    time.Duration
	started time.Time
	timer   *time.Timer
	paused  int // requests to the caller outstanding
}

// withCallClock returns a context that ends with cause once limit has run
// on its clock.
func withCallClock(ctx context.Context, limit time.Duration, cause error) (context.Context, *callClock, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	c := &callClock{left: limit, started: time.Now()}
	c.timer = time.AfterFunc(limit, func() { cancel(cause) })
	return ctx, c, func() {
		c.mu.Lock()
		c.timer.Stop()
		c.mu.Unlock()
		cancel(context.Canceled)
	}
}

func (c *callClock) pause() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.paused++; c.paused == 1 && c.timer.Stop() {
		c.left -= time.Since(c.started)
	}
}

func (c *callClock) resume() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.paused--; c.paused == 0 {
		c.started = time.Now()
		c.timer.Reset(max(c.left, 0))
	}
}
