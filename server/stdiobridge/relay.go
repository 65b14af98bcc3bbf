package stdiobridge

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// inflight is one client's request being served by the server.
type inflight struct {
	ctx   context.Context
	ss    *mcp.ServerSession
	token string // the progress token sent to the server; "" for none
	asked any    // the client's own progress token

	// The last progress passed on, and a signal at each (see settle).
	mu              sync.Mutex
	progress, total float64
	pending         int // progress read from the server, not yet passed on
	more            chan struct{}
}

// progressSettle bounds how long a finished request waits for the progress
// the server announced and sent before its answer.
const progressSettle = 250 * time.Millisecond

// settle waits, once the server answered, for the progress notifications
// it sent before its answer: the go-sdk hands notifications to their
// handler in order but answers at once, so the last ones may still be on
// their way. It waits while one read (see countingTransport) is not yet
// passed on, or the progress passed on is short of the total the server
// announced, and at most progressSettle.
func (in *inflight) settle() {
	if in.token == "" {
		return
	}
	timeout := time.NewTimer(progressSettle)
	defer timeout.Stop()
	for {
		in.mu.Lock()
		done := in.pending <= 0 && (in.total <= 0 || in.progress >= in.total)
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

// arrived records progress read from the server.
func (in *inflight) arrived() {
	in.mu.Lock()
	in.pending++
	in.mu.Unlock()
}

// passed records progress passed on.
func (in *inflight) passed(p *mcp.ProgressNotificationParams) {
	in.mu.Lock()
	in.progress, in.total = p.Progress, p.Total
	in.pending--
	in.mu.Unlock()
	select {
	case in.more <- struct{}{}:
	default:
	}
}

// relay keeps the requests in flight, to send what the server sends back
// to the client each belongs to.
type relay struct {
	mu      sync.Mutex
	next    int
	calls   map[*inflight]bool
	byToken map[string]*inflight
	// elicitations maps a URL elicitation's id to the session it went
	// to, whose completion notice comes after the call (bounded: see
	// maxURLElicitations).
	elicitations map[string]*mcp.ServerSession
	elicitOrder  []string
}

// maxURLElicitations bounds the URL elicitations whose completion is
// awaited; the oldest is forgotten first.
const maxURLElicitations = 256

func (r *relay) init() {
	r.calls, r.byToken, r.elicitations = map[*inflight]bool{}, map[string]*inflight{}, map[string]*mcp.ServerSession{}
}

// begin registers a request of ss in flight, under a progress token of
// the bridge's if the client asked for progress, and returns the function
// that ends it.
func (r *relay) begin(ctx context.Context, ss *mcp.ServerSession, asked any) (*inflight, func()) {
	in := &inflight{ctx: ctx, ss: ss, asked: asked, more: make(chan struct{}, 1)}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	if asked != nil {
		in.token = "toolsearch-bridge-" + strconv.Itoa(r.next)
		r.byToken[in.token] = in
	}
	r.calls[in] = true
	return in, func() {
		in.settle()
		r.mu.Lock()
		defer r.mu.Unlock()
		delete(r.calls, in)
		delete(r.byToken, in.token)
	}
}

// sessions returns one request in flight per client session.
func (r *relay) sessions() []*inflight {
	r.mu.Lock()
	defer r.mu.Unlock()
	seen := map[*mcp.ServerSession]bool{}
	var out []*inflight
	for in := range r.calls {
		if !seen[in.ss] {
			seen[in.ss] = true
			out = append(out, in)
		}
	}
	return out
}

// Errors the server gets for requests the bridge cannot pass on.
var (
	errNoClient = &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
		Message: "no client request is in progress through toolsearch bridge: requests to the client are passed on only while a call, prompt or resource read it made is in progress"}
	errAmbiguousClient = &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
		Message: "requests from several clients are in progress through toolsearch bridge and this protocol does not say which one this request belongs to; retry when only one is in progress"}
)

// sole picks the client a request of the server is for: the only one with
// requests in flight.
func (r *relay) sole() (*inflight, error) {
	switch ins := r.sessions(); len(ins) {
	case 0:
		return nil, errNoClient
	case 1:
		return ins[0], nil
	default:
		return nil, errAmbiguousClient
	}
}

// askCtx is the context of a request passed to in's client: it ends with
// the server's request or with the client's, whichever ends first.
func askCtx(ctx context.Context, in *inflight) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(in.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

func (r *relay) rememberElicitation(id string, ss *mcp.ServerSession) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.elicitations[id]; !ok {
		r.elicitOrder = append(r.elicitOrder, id)
	}
	r.elicitations[id] = ss
	if len(r.elicitOrder) > maxURLElicitations {
		delete(r.elicitations, r.elicitOrder[0])
		r.elicitOrder = r.elicitOrder[1:]
	}
}

func (r *relay) takeElicitation(id string) *mcp.ServerSession {
	r.mu.Lock()
	defer r.mu.Unlock()
	ss := r.elicitations[id]
	delete(r.elicitations, id)
	return ss
}

func (r *relay) byProgressToken(token any) *inflight {
	s, ok := token.(string)
	if !ok {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byToken[s]
}

// clientOptions are the options of the bridge's client of the server: it
// declares every client capability (each client of the bridge decides, per
// request, what it supports) and passes what the server sends to the
// client it belongs to.
func (b *Bridge) clientOptions() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		Logger: b.log,
		Capabilities: &mcp.ClientCapabilities{
			RootsV2:     &mcp.RootCapabilities{ListChanged: true},
			Sampling:    &mcp.SamplingCapabilities{Tools: &mcp.SamplingToolsCapabilities{}, Context: &mcp.SamplingContextCapabilities{}},
			Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}},
		},
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			in, err := b.rel.sole()
			if err != nil {
				return nil, err
			}
			ctx, done := askCtx(ctx, in)
			defer done()
			res, err := in.ss.Elicit(ctx, req.Params)
			if err == nil && req.Params != nil && req.Params.Mode == "url" && req.Params.ElicitationID != "" {
				b.rel.rememberElicitation(req.Params.ElicitationID, in.ss)
			}
			return res, err
		},
		CreateMessageWithToolsHandler: func(ctx context.Context, req *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
			in, err := b.rel.sole()
			if err != nil {
				return nil, err
			}
			ctx, done := askCtx(ctx, in)
			defer done()
			return in.ss.CreateMessageWithTools(ctx, req.Params)
		},
		ElicitationCompleteHandler: func(ctx context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
			if ss := b.rel.takeElicitation(req.Params.ElicitationID); ss != nil {
				_ = ss.NotifyElicitationComplete(ctx, req.Params)
			}
		},
		ProgressNotificationHandler: func(ctx context.Context, req *mcp.ProgressNotificationClientRequest) {
			in := b.rel.byProgressToken(req.Params.ProgressToken)
			if in == nil {
				return
			}
			p := *req.Params
			p.ProgressToken = in.asked
			_ = in.ss.NotifyProgress(ctx, &p)
			in.passed(&p)
		},
		LoggingMessageHandler: func(ctx context.Context, req *mcp.LoggingMessageRequest) {
			b.logMessage(ctx, req.Params)
		},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			b.listChanged(listTools)
		},
		PromptListChangedHandler: func(context.Context, *mcp.PromptListChangedRequest) {
			b.listChanged(listPrompts)
		},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			b.listChanged(listResources)
		},
		ResourceUpdatedHandler: func(ctx context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			_ = b.srv.ResourceUpdated(ctx, req.Params)
		},
	}
}

// rootsMiddleware answers the server's roots/list, which the go-sdk would
// answer itself with the bridge's own (no) roots, from the client it is
// for.
func (b *Bridge) rootsMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "roots/list" {
			return next(ctx, method, req)
		}
		in, err := b.rel.sole()
		if err != nil {
			return nil, err
		}
		ctx, done := askCtx(ctx, in)
		defer done()
		p, _ := req.GetParams().(*mcp.ListRootsParams)
		return in.ss.ListRoots(ctx, p)
	}
}

// logMessage passes a log message of the server to the clients with
// requests in flight, else to every client; each session drops what is
// below the level its client set.
func (b *Bridge) logMessage(ctx context.Context, p *mcp.LoggingMessageParams) {
	if ins := b.rel.sessions(); len(ins) > 0 {
		for _, in := range ins {
			_ = in.ss.Log(ctx, p)
		}
		return
	}
	for ss := range b.srv.Sessions() {
		_ = ss.Log(ctx, p)
	}
}
