package upstream

import (
	"context"
	"fmt"
	"maps"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/problem"
	"github.com/toolsearch/toolsearch/loader/scan"
)

// A server's prompts, resources and resource templates are listed beside
// its tools and published as catalog entries of kinds catalog.KindPrompt and
// catalog.KindResource: prompts as SERVER__PROMPT, resources under their own
// URIs. A hostile server could list without end, so each list is bounded.
const (
	maxPrompts   = 1_000
	maxResources = 10_000
	maxTemplates = 1_000
	// maxPromptName bounds a prompt's own name, in bytes.
	maxPromptName = 256
	// maxURI bounds a resource's URI or URI template, in bytes.
	maxURI = 2048
)

// reservedSchemes are the URI schemes of toolsearch's own resources; no
// upstream resource may take them, and no URI of theirs reaches an
// upstream.
var reservedSchemes = []string{"skill", "toolsearch"}

// ReservedScheme returns the scheme of uri when it is one of toolsearch's
// own (skill:, toolsearch:), else "".
func ReservedScheme(uri string) string {
	scheme, _, ok := strings.Cut(uri, ":")
	if !ok {
		return ""
	}
	for _, r := range reservedSchemes {
		if strings.EqualFold(scheme, r) {
			return r
		}
	}
	return ""
}

// ReservedError refuses a read, subscription or completion of a URI of
// toolsearch's own schemes for an upstream: a catch-all template
// ({+anything}) answered reads of missing skill files under toolsearch's
// names.
type ReservedError struct{ URI, Scheme string }

func (e *ReservedError) Error() string {
	return fmt.Sprintf("%s: the %s: scheme is toolsearch's own, and no upstream server is asked for it", e.URI, e.Scheme)
}

// checkReserved returns a *ReservedError for a URI of a reserved scheme.
func checkReserved(uri string) error {
	if r := ReservedScheme(uri); r != "" {
		return &ReservedError{URI: uri, Scheme: r}
	}
	return nil
}

// features are what a server lists besides its tools, under its own names.
type features struct {
	prompts   []*mcp.Prompt
	resources []*mcp.Resource
	templates []*mcp.ResourceTemplate
	// problems are the lists cut short and the listings that failed.
	problems problem.Problems
}

// featureState is an upstream's side of its features.
type featureState struct {
	// mu serializes listing and publishing, so that an older listing
	// never replaces a newer one.
	mu      sync.Mutex
	changed chan struct{} // the server said its prompts or resources changed
	// listedOn is the session whose features were last listed.
	listedOn *session
	subs     subscriptions
	// scans holds what the scanner found in each definition, by digest,
	// for the definitions of the last rebuild (guarded by upstream.mu).
	scans map[string][]scan.Finding
}

// featureOptions sets the client options that follow a server's prompts
// and resources.
func (u *upstream) featureOptions(o *mcp.ClientOptions) {
	u.feat.changed = make(chan struct{}, 1)
	o.PromptListChangedHandler = func(context.Context, *mcp.PromptListChangedRequest) { signal(u.feat.changed) }
	o.ResourceListChangedHandler = func(context.Context, *mcp.ResourceListChangedRequest) { signal(u.feat.changed) }
	o.ResourceUpdatedHandler = func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
		u.feat.subs.updated(req.Params)
	}
}

// followFeatures keeps the features of the session's server current until
// the session ends: it lists them again when the server says they changed
// (at most once per minRelist), and renews the session's subscriptions and
// log level.
func (u *upstream) followFeatures(s *session) {
	u.feat.subs.renew(s, u)
	u.applyLogLevel(s)
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-u.feat.changed:
		}
		start := time.Now()
		u.listFeatures(s)
		select {
		case <-s.ctx.Done():
			return
		case <-time.After(time.Until(start.Add(u.m.minRelist))):
		}
	}
}

// listFeatures lists the server's features on s and publishes them.
func (u *upstream) listFeatures(s *session) {
	u.feat.mu.Lock()
	defer u.feat.mu.Unlock()
	u.feat.listedOn = s
	f := u.fetchFeatures(s)
	u.update(func() {
		u.features = f
		u.q.feat.listed = true
		u.rebuild()
	})
	u.settle() // records what the mode trusts of them
	u.pubMu.Lock()
	retired := u.retired
	u.pubMu.Unlock()
	if !retired { // a server that took its place keeps the file now
		u.save()
	}
}

// listingFeatures lists the server's features for a listing of its tools
// on s, so that both are published at once: the first listing on s, or an
// explicit one. set puts them in place (call it in the tools' update);
// done ends the listing, which no other may overtake.
func (u *upstream) listingFeatures(s *session, explicit bool) (set, done func()) {
	u.feat.mu.Lock()
	if u.feat.listedOn == s && !explicit {
		return func() {}, u.feat.mu.Unlock
	}
	u.feat.listedOn = s
	f := u.fetchFeatures(s)
	return func() { u.features, u.q.feat.listed = f, true }, u.feat.mu.Unlock
}

// fetchFeatures reads what the server declares of its prompts, resources
// and templates. A list that cannot be read keeps its last known version,
// with a problem saying why.
func (u *upstream) fetchFeatures(s *session) features {
	ctx, cancel := context.WithTimeout(s.ctx, u.m.opts.ConnectTimeout)
	defer cancel()
	u.mu.Lock()
	f := features{prompts: u.features.prompts, resources: u.features.resources, templates: u.features.templates}
	u.mu.Unlock()
	caps := &mcp.ServerCapabilities{}
	if res := s.cs.InitializeResult(); res != nil && res.Capabilities != nil {
		caps = res.Capabilities
	}
	problem := func(msg string) {
		f.problems = append(f.problems, problem.Problem{File: u.cfg.Name, Severity: problem.SeverityWarning, Message: u.redact.String(msg)})
	}
	if caps.Prompts == nil {
		f.prompts = nil
	} else if ps, err := collect(ctx, func(ctx context.Context, cursor string) ([]*mcp.Prompt, string, error) {
		res, err := s.cs.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return res.Prompts, res.NextCursor, nil
	}, maxPrompts, "prompts", problem); err == nil {
		f.prompts = ps
	} else {
		problem("listing prompts: " + err.Error())
	}
	if caps.Resources == nil {
		f.resources, f.templates = nil, nil
	} else {
		if rs, err := collect(ctx, func(ctx context.Context, cursor string) ([]*mcp.Resource, string, error) {
			res, err := s.cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
			if err != nil {
				return nil, "", err
			}
			return res.Resources, res.NextCursor, nil
		}, maxResources, "resources", problem); err == nil {
			f.resources = rs
		} else {
			problem("listing resources: " + err.Error())
		}
		if ts, err := collect(ctx, func(ctx context.Context, cursor string) ([]*mcp.ResourceTemplate, string, error) {
			res, err := s.cs.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: cursor})
			if err != nil {
				return nil, "", err
			}
			return res.ResourceTemplates, res.NextCursor, nil
		}, maxTemplates, "resource templates", problem); err == nil {
			f.templates = ts
		} else {
			problem("listing resource templates: " + err.Error())
		}
	}
	u.log.Info("prompts and resources listed", "prompts", len(f.prompts), "resources", len(f.resources), "templates", len(f.templates))
	return f
}

// collect reads a paginated list page by page (list returns a page's items
// and the next page's cursor), at most limit items of it. A page without
// items that names a next one ends it too: a server could page so without
// end, and every page that goes on must bring an item, so that the pages
// read are bounded with the items.
func collect[T any](ctx context.Context, list func(ctx context.Context, cursor string) ([]T, string, error), limit int, what string, problem func(string)) ([]T, error) {
	var (
		out    []T
		cursor string
	)
	for {
		items, next, err := list(ctx, cursor)
		if err != nil {
			return nil, err
		}
		for _, item := range items {
			if len(out) == limit {
				problem(fmt.Sprintf("the server lists more than %d %s; only the first %d are served", limit, what, limit))
				return out, nil
			}
			out = append(out, item)
		}
		switch {
		case next == "":
			return out, nil
		case len(items) == 0:
			problem(fmt.Sprintf("the server listed a page of no %s that names a next page; only the %d before it are served", what, len(out)))
			return out, nil
		}
		cursor = next
	}
}

// rebuildFeatures makes the catalog entries of the last known features,
// refusing those that cannot be served and holding those that wait for
// approval (see held.go): a held one is not published, so that neither a
// listing nor a get serves it. Callers hold u.mu.
func (u *upstream) rebuildFeatures() {
	refuse := func(e *catalog.Entry, reason string) {
		u.refused = append(u.refused, catalog.Refusal{Entry: e, Reason: reason})
	}
	prevTrusted, fresh := u.startFeatures()
	scans := map[string][]scan.Finding{}
	defer func() { u.feat.scans = scans }()
	// scanned scans a definition's text once per digest: what a prompt or
	// resource says reaches the model (in search results, and when a
	// person picks it), so hidden instructions in it hold it for a
	// person, as they hold a tool.
	scanned := func(e *catalog.Entry, find func() []scan.Finding) []scan.Finding {
		findings, ok := u.feat.scans[e.Digest]
		if !ok {
			findings = find()
		}
		scans[e.Digest] = findings
		return findings
	}
	set := u.settings()
	seen := map[string]bool{}
	for _, p := range u.features.prompts {
		if p == nil {
			continue
		}
		e := catalog.NewPromptEntry(u.cfg.Name, catalog.QualifiedName(u.cfg.Name, p.Name), p)
		if seen[p.Name] {
			refuse(e, fmt.Sprintf("the server lists the prompt %q more than once; the first is used", p.Name))
			continue
		}
		if reason := checkPromptName(p.Name); reason != "" {
			refuse(e, reason)
			continue
		}
		seen[p.Name] = true
		findings := scanned(e, func() []scan.Finding { return scan.Prompt(p) })
		if u.holdFeature(e, KindPrompt, p.Name, p, findings, prevTrusted, fresh) {
			continue
		}
		e.Policy = set.policy(p.Name)
		u.entries = append(u.entries, e)
	}
	// addResource serves a resource or template under uri, unless the URI
	// cannot be served or the definition waits for approval.
	addResource := func(e *catalog.Entry, kind, uri string, def any, name, title, description string) {
		if reason := checkURI(uri, kind == KindTemplate); reason != "" {
			refuse(e, reason)
			return
		}
		findings := scanned(e, func() []scan.Finding {
			return scanTexts("name", name, "title", title, "description", description)
		})
		if u.holdFeature(e, kind, uri, def, findings, prevTrusted, fresh) {
			return
		}
		e.Policy = set.featurePolicy(uri, name)
		u.entries = append(u.entries, e)
	}
	for _, r := range u.features.resources {
		if r != nil {
			addResource(catalog.NewResourceEntry(u.cfg.Name, r), KindResource, r.URI, r, r.Name, r.Title, r.Description)
		}
	}
	for _, t := range u.features.templates {
		if t != nil {
			addResource(catalog.NewTemplateEntry(u.cfg.Name, t), KindTemplate, t.URITemplate, t, t.Name, t.Title, t.Description)
		}
	}
}

// scanTexts scans field, text pairs.
func scanTexts(pairs ...string) []scan.Finding {
	var out []scan.Finding
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, scan.Text(pairs[i], pairs[i+1])...)
	}
	return out
}

// checkPromptName says why a prompt's own name cannot be served, or "".
func checkPromptName(name string) string {
	switch {
	case name == "":
		return "the prompt has no name"
	case len(name) > maxPromptName:
		return fmt.Sprintf("the prompt's name is %d bytes, over the %d served", len(name), maxPromptName)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return fmt.Sprintf("the prompt's name %q holds control characters", name)
	}
	return ""
}

// checkURI says why a resource's URI (or a template's URI template) cannot
// be served, or "".
func checkURI(uri string, template bool) string {
	if uri == "" {
		return "the resource has no URI"
	}
	if len(uri) > maxURI {
		return fmt.Sprintf("the URI is %d bytes, over the %d served", len(uri), maxURI)
	}
	if template {
		if _, err := uritemplate.New(uri); err != nil {
			return fmt.Sprintf("%q is not a valid URI template: %v", uri, err)
		}
		// A scheme that is not fixed text ({+anything}, {s}://, sk{x}:)
		// may expand to one of toolsearch's own.
		if scheme, _, _ := strings.Cut(uri, ":"); strings.Contains(scheme, "{") {
			return fmt.Sprintf("the template %q does not begin with a fixed scheme, so it could expand to URIs of toolsearch's own schemes (%s:)", uri, strings.Join(reservedSchemes, ":, "))
		}
	} else if u, err := url.Parse(uri); err != nil || u.Scheme == "" {
		return fmt.Sprintf("%q is not an absolute URI", uri)
	}
	if r := ReservedScheme(uri); r != "" {
		return fmt.Sprintf("the %s: scheme is toolsearch's own", r)
	}
	return ""
}

// featurePolicy is the policy of a resource or template: the stricter of
// what its URI and its name match, so that a glob on either hides it.
func (s *Settings) featurePolicy(uri, name string) catalog.Policy {
	byURI, byName := s.policy(uri), s.policy(name)
	if byName.StricterThan(byURI) {
		return byName
	}
	return byURI
}

// resourcePolicy is the policy of a URI read or subscribed to: what its
// globs say, and what a listed resource of that URI has, so that a resource
// hidden by its name stays hidden when its URI is read through a template.
func (u *upstream) resourcePolicy(uri string) catalog.Policy {
	set := u.settings()
	pol := set.policy(uri)
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, r := range u.features.resources {
		if r != nil && r.URI == uri {
			if byName := set.featurePolicy(r.URI, r.Name); byName.StricterThan(pol) {
				pol = byName
			}
		}
	}
	return pol
}

// PolicyError refuses a prompt or resource its policy keeps from clients.
type PolicyError struct {
	Server, What string
	Policy       catalog.Policy
}

func (e *PolicyError) Error() string {
	return fmt.Sprintf("upstream %s: %s is not available: its policy is %s", e.Server, e.What, e.Policy)
}

// GetPrompt gets a prompt by its own name at the server, for the caller of
// ctx (see WithCaller), with the same rules as Call: the server's timeout,
// its state, and the prompt's policy.
func (m *Manager) GetPrompt(ctx context.Context, server string, p *mcp.GetPromptParams) (*mcp.GetPromptResult, error) {
	u, err := m.server(server)
	if err != nil {
		return nil, err
	}
	what := "prompt " + p.Name
	if pol := u.settings().policy(p.Name); pol != catalog.PolicyCallable {
		return nil, &PolicyError{Server: server, What: what, Policy: pol}
	}
	var res *mcp.GetPromptResult
	err = m.forward(ctx, u, what, u.live, func(ctx context.Context, s *session, clock *callClock) (err error) {
		params := *p
		params.Meta = maps.Clone(p.Meta) // the token request sets is this request's own
		res, err = request(ctx, u, clock, &params, s.cs.GetPrompt)
		return err
	})
	return res, err
}

// ReadResource reads a resource of the server, for the caller of ctx, with
// the same rules as Call.
func (m *Manager) ReadResource(ctx context.Context, server string, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
	u, err := m.server(server)
	if err != nil {
		return nil, err
	}
	what := "resource " + p.URI
	if err := checkReserved(p.URI); err != nil {
		return nil, err
	}
	if pol := u.resourcePolicy(p.URI); pol != catalog.PolicyCallable {
		return nil, &PolicyError{Server: server, What: what, Policy: pol}
	}
	var res *mcp.ReadResourceResult
	err = m.forward(ctx, u, what, u.live, func(ctx context.Context, s *session, clock *callClock) (err error) {
		params := *p
		params.Meta = maps.Clone(p.Meta) // the token request sets is this request's own
		res, err = request(ctx, u, clock, &params, s.cs.ReadResource)
		return err
	})
	return res, err
}

// Complete asks the server to complete an argument of one of its prompts
// (by its own name) or resource templates, with the same rules as Call.
func (m *Manager) Complete(ctx context.Context, server string, p *mcp.CompleteParams) (*mcp.CompleteResult, error) {
	u, err := m.server(server)
	if err != nil {
		return nil, err
	}
	what := "completion of " + p.Ref.Name + p.Ref.URI
	if err := checkReserved(p.Ref.URI); err != nil {
		return nil, err
	}
	var res *mcp.CompleteResult
	err = m.forward(ctx, u, what, u.live, func(ctx context.Context, s *session, _ *callClock) error {
		if init := s.cs.InitializeResult(); init == nil || init.Capabilities == nil || init.Capabilities.Completions == nil {
			res = &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}}}
			return nil // the server completes nothing: nothing to offer
		}
		res, err = s.cs.Complete(ctx, p)
		return err
	})
	return res, err
}
