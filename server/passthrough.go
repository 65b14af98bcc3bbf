package server

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/upstream"
	"github.com/toolsearch/toolsearch/server/relay"
)

// Passthrough is what Upstreams also do when they serve the upstreams'
// prompts and resources and pass their log messages on; *upstream.Manager
// does. The context of every request carries the client it is made for
// (upstream.WithCaller).
type Passthrough interface {
	GetPrompt(ctx context.Context, server string, p *mcp.GetPromptParams) (*mcp.GetPromptResult, error)
	ReadResource(ctx context.Context, server string, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error)
	Complete(ctx context.Context, server string, p *mcp.CompleteParams) (*mcp.CompleteResult, error)
	Subscribe(ctx context.Context, server, uri string, fn func(*mcp.ResourceUpdatedNotificationParams)) (cancel func(), err error)
	SetLogLevel(level mcp.LoggingLevel)
	WatchLogs(fn func(server string, p *mcp.LoggingMessageParams)) (stop func())
}

var _ Passthrough = (*upstream.Manager)(nil)

// passthrough returns the Upstreams' passthrough, or nil.
func (s *Server) passthrough() Passthrough {
	p, _ := s.opts.Upstreams.(Passthrough)
	return p
}

// sees reports whether the client of a request may see an entry: list it,
// get or read it, complete its arguments or subscribe to it. This is the one
// place that decides it for prompts and resources.
func (s *Server) sees(_ *mcp.ServerSession, e *catalog.Entry) bool {
	return e != nil && e.Listed()
}

// featureSet is what one MCP server lists of the upstreams' prompts,
// resources and templates: exposed name or URI -> digest.
type featureSet struct {
	prompts, resources, templates map[string]string
}

// syncFeatures brings the upstream prompts, resources and templates
// registered on ms in step with snap: new and changed ones are added, gone
// ones removed, and the SDK announces each change with list_changed. Their
// handlers look the entry up again at each request, so that what is served
// is always the current catalog's.
func (s *Server) syncFeatures(ms *mcp.Server, snap *catalog.Snapshot) {
	if s.passthrough() == nil {
		return
	}
	served := s.featuresOf(snap)
	want := served.set
	s.mu.Lock()
	c := s.conns[ms]
	if c == nil {
		s.mu.Unlock()
		return
	}
	have := c.features
	c.features = want
	s.mu.Unlock()
	for _, e := range served.entries {
		if have.of(e)[e.Name] != e.Digest {
			s.registerFeature(ms, e)
		}
	}
	if gone := missing(have.prompts, want.prompts); len(gone) > 0 {
		ms.RemovePrompts(gone...)
	}
	if gone := missing(have.resources, want.resources); len(gone) > 0 {
		ms.RemoveResources(gone...)
	}
	if gone := missing(have.templates, want.templates); len(gone) > 0 {
		ms.RemoveResourceTemplates(gone...)
	}
}

// servedFeatures are the upstream prompts and resources of one snapshot,
// worked out once for every MCP server to sync with and every URI to find.
type servedFeatures struct {
	snap    *catalog.Snapshot
	set     featureSet
	entries []*catalog.Entry
	// templates are the URI templates among the entries, parsed.
	templates []servedTemplate
}

type servedTemplate struct {
	entry *catalog.Entry
	tmpl  *uritemplate.Template
}

// featuresOf returns the upstream prompts, resources and templates of snap
// that are listed. They are shared and must not be changed.
func (s *Server) featuresOf(snap *catalog.Snapshot) *servedFeatures {
	s.featMu.Lock()
	defer s.featMu.Unlock()
	if f := s.served; f != nil && f.snap == snap {
		return f
	}
	f := &servedFeatures{snap: snap, set: featureSet{prompts: map[string]string{}, resources: map[string]string{}, templates: map[string]string{}}}
	for _, e := range snap.Entries {
		if !e.Listed() || e.ForModel() {
			continue
		}
		if src, _ := snap.Source(e.Source); src == nil || src.Kind != catalog.SourceServer {
			continue
		}
		f.set.of(e)[e.Name] = e.Digest
		f.entries = append(f.entries, e)
		if e.Template != nil {
			if t, err := uritemplate.New(e.Name); err == nil {
				f.templates = append(f.templates, servedTemplate{e, t})
			}
		}
	}
	s.served = f
	return f
}

func (f featureSet) of(e *catalog.Entry) map[string]string {
	switch {
	case e.Kind == catalog.KindPrompt:
		return f.prompts
	case e.Template != nil:
		return f.templates
	}
	return f.resources
}

// missing returns the keys of have that want lacks.
func missing(have, want map[string]string) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(have)) {
		if _, ok := want[k]; !ok {
			out = append(out, k)
		}
	}
	return out
}

// registerFeature adds one upstream prompt, resource or template to ms.
func (s *Server) registerFeature(ms *mcp.Server, e *catalog.Entry) {
	// The SDK panics on a URI template it cannot parse; the loader refuses
	// those, but an upstream's definition must never take the server down.
	defer func() {
		if r := recover(); r != nil {
			s.log.Warn("cannot serve an upstream prompt or resource", "name", e.Name, "source", e.Source, "err", r)
		}
	}()
	switch {
	case e.Prompt != nil:
		ms.AddPrompt(e.Prompt, s.getPrompt)
	case e.Resource != nil:
		uri := e.Name
		ms.AddResource(e.Resource, s.readResource(func(snap *catalog.Snapshot, _ string) *catalog.Entry {
			r, _ := snap.Resource(uri)
			return r
		}))
	case e.Template != nil:
		// The SDK hands a URI to the first template that matches it, in
		// the order of their text; resourceOf refuses a URI that templates
		// of two servers match, which a server could otherwise take from
		// another with a template that sorts first.
		ms.AddResourceTemplate(e.Template, s.readResource(s.resourceOf))
	}
}

// runRequest is the relay.Request of a client request.
func runRequest(ss *mcp.ServerSession, meta mcp.Meta, responses mcp.InputResponseMap, state string) relay.Request {
	return relay.Request{Session: ss, Meta: meta, InputResponses: responses, RequestState: state}
}

// getPrompt gets an upstream prompt for the client, by its exposed name.
func (s *Server) getPrompt(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	p := s.passthrough()
	e, ok := s.Snapshot().Prompt(req.Params.Name)
	if !ok || !s.sees(req.Session, e) || p == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown prompt %q", req.Params.Name)}
	}
	if e.Policy != catalog.PolicyCallable {
		return nil, policyRefusal(e)
	}
	s.followLogLevel(req.Params.Meta)
	// toolsearch makes a request of its own: the client's _meta (its
	// protocol version, capabilities and progress token) stays here.
	params := &mcp.GetPromptParams{Name: e.Upstream, Arguments: req.Params.Arguments}
	if params.Name == "" {
		params.Name = e.Name
	}
	return relay.Run(s.relay, ctx, runRequest(req.Session, req.Params.Meta, req.Params.InputResponses, req.Params.RequestState),
		func(ctx context.Context, c relay.Caller) (*mcp.GetPromptResult, error) {
			res, err := p.GetPrompt(upstream.WithCaller(ctx, c), e.Source, params)
			return res, s.protocolError(e, err)
		},
		func(m mcp.InputRequestMap, state string) *mcp.GetPromptResult {
			return &mcp.GetPromptResult{InputRequests: m, RequestState: state}
		})
}

// readResource reads an upstream resource for the client; find names the
// entry a URI belongs to, or nil.
func (s *Server) readResource(find func(*catalog.Snapshot, string) *catalog.Entry) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		p := s.passthrough()
		uri := req.Params.URI
		e := find(s.Snapshot(), uri)
		// A URI of toolsearch's own schemes is never an upstream's,
		// whatever template matches it.
		if upstream.ReservedScheme(uri) != "" || !s.sees(req.Session, e) || p == nil {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		if e.Policy != catalog.PolicyCallable {
			return nil, policyRefusal(e)
		}
		s.followLogLevel(req.Params.Meta)
		params := &mcp.ReadResourceParams{URI: uri}
		return relay.Run(s.relay, ctx, runRequest(req.Session, req.Params.Meta, req.Params.InputResponses, req.Params.RequestState),
			func(ctx context.Context, c relay.Caller) (*mcp.ReadResourceResult, error) {
				res, err := p.ReadResource(upstream.WithCaller(ctx, c), e.Source, params)
				return res, s.protocolError(e, err)
			},
			func(m mcp.InputRequestMap, state string) *mcp.ReadResourceResult {
				return &mcp.ReadResourceResult{InputRequests: m, RequestState: state}
			})
	}
}

// complete completes an argument of a prompt or resource template. Skills'
// prompts take no arguments: they complete to nothing.
func (s *Server) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	none := &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}}}
	ref := req.Params.Ref
	snap := s.Snapshot()
	var e *catalog.Entry
	switch ref.Type {
	case "ref/prompt":
		if p, ok := snap.Prompt(ref.Name); ok {
			e = p
		} else if sk, ok := snap.Lookup(ref.Name); ok && sk.Kind == catalog.KindSkill && sk.Listed() {
			return none, nil
		}
	case "ref/resource":
		if upstream.ReservedScheme(ref.URI) != "" {
			break // toolsearch's own, never an upstream's
		}
		if t, ok := snap.ResourceTemplate(ref.URI); ok {
			e = t
		} else if r, ok := snap.Resource(ref.URI); ok {
			e = r
		}
	}
	p := s.passthrough()
	if e == nil || !s.sees(req.Session, e) || p == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("nothing to complete for %s %s%s", ref.Type, ref.Name, ref.URI)}
	}
	// Arguments of a prompt or template that may not be used are not
	// worth the server's work.
	if e.Policy != catalog.PolicyCallable {
		return nil, policyRefusal(e)
	}
	params := *req.Params
	params.Meta = nil // the client's, not toolsearch's
	if e.Kind == catalog.KindPrompt {
		r := *ref
		if r.Name = e.Upstream; r.Name == "" {
			r.Name = e.Name
		}
		params.Ref = &r
	}
	res, err := p.Complete(ctx, e.Source, &params)
	return res, s.protocolError(e, err)
}

// policyRefusal refuses a prompt or resource that is listed but not
// available (visible_only).
func policyRefusal(e *catalog.Entry) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
		Message: fmt.Sprintf("%s is listed but not available: the policy %s applies to it (servers.%s.policy in toolsearch.yaml)", e.Name, e.Policy, e.Source)}
}

// protocolError turns a failed upstream request into the JSON-RPC error the
// client gets: the upstream's own error unchanged, or a sentence saying
// what went wrong, with service_not_active for a server that is not.
func (s *Server) protocolError(e *catalog.Entry, err error) error {
	var (
		rpc  *jsonrpc.Error
		na   notActive
		to   timeout
		pe   *upstream.PolicyError
		auth authRequired
	)
	switch {
	case err == nil:
		return nil
	case errors.As(err, &rpc):
		// The server's own error: its message screened, its data left
		// out, as every upstream text the model may read.
		return &jsonrpc.Error{Code: rpc.Code, Message: upstreamError(rpc.Message)}
	case errors.As(err, &auth):
		reason, command := auth.AuthRequired()
		reason = upstreamError(reason) // it may quote the server's own error
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
			Message: fmt.Sprintf("auth_required: server %s needs a login before %s can be served (%s); run %s, then try again", e.Source, e.Name, reason, command)}
	case errors.As(err, &na):
		state, reason := na.NotActive()
		msg := fmt.Sprintf("service_not_active: server %s is %s, so %s cannot be served now", e.Source, state, e.Name)
		if reason != "" {
			msg += " (" + upstreamError(reason) + ")"
		}
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msg + ". Try again shortly."}
	case errors.As(err, &pe):
		return policyRefusal(e)
	case errors.As(err, &to) && to.Timeout():
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("%s did not answer in time: %v", e.Name, err)}
	case errors.Is(err, context.Canceled):
		return err
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("%s of server %s failed: %v", e.Name, e.Source, err)}
}

// followLogLevel passes the log level a 2026-07-28 request asks for on to
// the upstreams, as logging/setLevel does for earlier sessions.
func (s *Server) followLogLevel(meta mcp.Meta) {
	if level, ok := meta[mcp.MetaKeyLogLevel].(string); ok && level != "" {
		if p := s.passthrough(); p != nil {
			p.SetLogLevel(mcp.LoggingLevel(level))
		}
	}
}

// logLevelMiddleware passes the log level a client sets on to the
// upstreams: they send what the most verbose client asked for, and each
// session gets what it asked for.
func (s *Server) logLevelMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if p, ok := req.GetParams().(*mcp.SetLoggingLevelParams); ok && err == nil && method == "logging/setLevel" {
			if up := s.passthrough(); up != nil {
				up.SetLogLevel(p.Level)
			}
		}
		return res, err
	}
}

// listFilter keeps what a client may not see out of its prompts/list,
// resources/list and resources/templates/list: upstream entries go by sees,
// toolsearch's own (skills, toolsearch://stats) always pass.
func (s *Server) listFilter(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		ss, _ := req.GetSession().(*mcp.ServerSession)
		snap := s.Snapshot()
		switch r := res.(type) {
		case *mcp.ListPromptsResult:
			r.Prompts = slices.DeleteFunc(r.Prompts, func(p *mcp.Prompt) bool {
				e, ok := snap.Prompt(p.Name)
				return ok && !s.sees(ss, e)
			})
		case *mcp.ListResourcesResult:
			r.Resources = slices.DeleteFunc(r.Resources, func(p *mcp.Resource) bool {
				e, ok := snap.Resource(p.URI)
				return ok && !s.sees(ss, e)
			})
		case *mcp.ListResourceTemplatesResult:
			r.ResourceTemplates = slices.DeleteFunc(r.ResourceTemplates, func(p *mcp.ResourceTemplate) bool {
				e, ok := snap.ResourceTemplate(p.URITemplate)
				return ok && !s.sees(ss, e)
			})
		}
		return res, err
	}
}
