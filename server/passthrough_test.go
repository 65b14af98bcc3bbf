package server

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/upstream"
)

// waitLimit bounds every wait of these tests; nothing depends on timing.
const waitLimit = 20 * time.Second

// upstreamServer is an upstream with a bit of everything, reached in
// memory, that speaks the protocol of era ("" for the latest). Its tools: "ask" elicits, "sample" samples, "work" reports
// progress labelled with its "who" argument and waits for release.
func upstreamServer(t *testing.T, release <-chan struct{}, era string) *mcp.Server {
	t.Helper()
	var versions []string
	if era != "" && era < "2026-07-28" {
		versions = []string{era}
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "up"}, &mcp.ServerOptions{
		SupportedProtocolVersions: versions,
		CompletionHandler: func(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
			ref := req.Params.Ref.Name + req.Params.Ref.URI
			return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{ref + "=" + req.Params.Argument.Value + "!"}}}, nil
		},
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	s.AddPrompt(&mcp.Prompt{Name: "greet", Description: "Greet someone.", Arguments: []*mcp.PromptArgument{{Name: "who", Required: true}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			// toolsearch makes its own requests: the client's _meta (its
			// protocol version, capabilities, name) stays with toolsearch.
			if info, ok := req.Params.Meta[mcp.MetaKeyClientInfo].(map[string]any); ok && info["name"] == "recorder" {
				return nil, fmt.Errorf("the client's _meta reached the upstream: %v", req.Params.Meta)
			}
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "Hello, " + req.Params.Arguments["who"]}}}}, nil
		})
	s.AddPrompt(&mcp.Prompt{Name: "secret_prompt"}, nil)
	s.AddPrompt(&mcp.Prompt{Name: "draft_prompt"}, nil)
	s.AddResource(&mcp.Resource{URI: "notes://today", Name: "today", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "buy milk"}}}, nil
		})
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "notes://day/{date}", Name: "day"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/octet-stream", Blob: []byte(req.Params.URI)}}}, nil
		})
	type who struct {
		Who string `json:"who"`
	}
	// ask and sample ask the client in their results (SEP-2322): the SDK
	// turns that into requests of their own for clients before 2026-07-28.
	s.AddTool(&mcp.Tool{Name: "ask", InputSchema: map[string]any{"type": "object"}}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if res, ok := req.Params.InputResponses["name"].(*mcp.ElicitResult); ok {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%s %v", res.Action, res.Content["name"])}}}, nil
		}
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"name": &mcp.ElicitParams{Message: "Name?",
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}}}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "sample", InputSchema: map[string]any{"type": "object"}}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if res, ok := req.Params.InputResponses["llm"].(*mcp.CreateMessageWithToolsResult); ok {
			return &mcp.CallToolResult{Content: res.Content}, nil
		}
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"llm": &mcp.CreateMessageParams{MaxTokens: 5,
			Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}}}}, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "work"}, func(ctx context.Context, req *mcp.CallToolRequest, a who) (*mcp.CallToolResult, any, error) {
		for i := 1; i <= 2; i++ {
			if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: float64(i), Message: a.Who}); err != nil {
				return nil, nil, err
			}
		}
		select {
		case <-release:
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done " + a.Who}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "hang"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		hangStarted <- struct{}{}
		<-ctx.Done()
		hangCancelled <- struct{}{}
		return nil, nil, ctx.Err()
	})
	return s
}

// hangStarted and hangCancelled hear of every call of an upstream's hang
// tool, and of its cancellation.
var hangStarted, hangCancelled = make(chan struct{}, 16), make(chan struct{}, 16)

// passthroughServer serves a catalog whose upstream "up" is up, in the
// protocol version upVersion speaks ("" for the latest).
func passthroughServer(t *testing.T, up *mcp.Server) (*Server, *upstream.Manager) {
	t.Helper()
	cat := catalog.New(ReservedNames...)
	m := upstream.New([]upstream.ServerConfig{{Name: "up", Type: upstream.TypeStdio, Command: "up"}}, upstream.Options{
		Catalog:  cat,
		CacheDir: t.TempDir(),
		Settings: map[string]upstream.Settings{"up": {Policy: map[string]catalog.Policy{"secret_*": catalog.PolicyHidden, "draft_*": catalog.PolicyVisibleOnly}}},
		Dial: func(ctx context.Context, _ upstream.ServerConfig) (mcp.Transport, error) {
			ct, st := mcp.NewInMemoryTransports()
			_, err := up.Connect(ctx, st, nil)
			return ct, err
		},
	})
	m.Start(context.Background())
	t.Cleanup(func() { m.Close() })
	s, err := New(cat, Options{ListingBudget: DefaultListingBudget, Upstreams: m})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	deadline := time.Now().Add(waitLimit)
	for {
		src, _ := s.Snapshot().Source("up")
		if src != nil && src.State == catalog.StateActive && len(src.Entries) > 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the upstream never came up: %+v", src)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return s, m
}

// recorder is a client that answers what upstreams ask and records what it
// is told.
type recorder struct {
	mu       sync.Mutex
	progress []string
	logs     []string
	updates  []string
	prompts  int // prompts list_changed received
}

func (r *recorder) client(caps bool) *mcp.Client {
	opts := &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			r.add(&r.progress, fmt.Sprintf("%v:%v:%s", req.Params.ProgressToken, req.Params.Progress, req.Params.Message))
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			r.add(&r.logs, fmt.Sprintf("%s %v", req.Params.Logger, req.Params.Data))
		},
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			r.add(&r.updates, req.Params.URI)
		},
		PromptListChangedHandler: func(context.Context, *mcp.PromptListChangedRequest) {
			r.mu.Lock()
			r.prompts++
			r.mu.Unlock()
		},
		Capabilities: &mcp.ClientCapabilities{},
	}
	if caps {
		opts.ElicitationHandler = func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
		}
		opts.CreateMessageHandler = func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: &mcp.TextContent{Text: "sampled"}}, nil
		}
	}
	return mcp.NewClient(&mcp.Implementation{Name: "recorder"}, opts)
}

func (r *recorder) add(list *[]string, s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	*list = append(*list, s)
}

func (r *recorder) got(list *[]string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(*list)
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

var eras = []string{"2025-11-25", "2026-07-28"}

// eraPairs are the protocol versions of a client and an upstream: each may
// be of either era.
func eraPairs() []struct{ name, client, upstream string } {
	var out []struct{ name, client, upstream string }
	for _, c := range eras {
		for _, u := range eras {
			out = append(out, struct{ name, client, upstream string }{"client " + c + ", upstream " + u, c, u})
		}
	}
	return out
}

func TestUpstreamPromptsAndResourcesOnBothEras(t *testing.T) {
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			s, _ := passthroughServer(t, upstreamServer(t, nil, era))
			rec := &recorder{}
			cs := connectTo(t, s.NewMCPServer(), rec.client(true), era)
			ctx := context.Background()

			var prompts []string
			for p, err := range cs.Prompts(ctx, nil) {
				if err != nil {
					t.Fatal(err)
				}
				prompts = append(prompts, p.Name)
			}
			if want := []string{"up__draft_prompt", "up__greet"}; !slices.Equal(prompts, want) {
				t.Errorf("prompts = %v, want %v (the hidden one left out)", prompts, want)
			}
			pr, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "up__greet", Arguments: map[string]string{"who": "Ada"}})
			if err != nil || pr.Messages[0].Content.(*mcp.TextContent).Text != "Hello, Ada" {
				t.Errorf("GetPrompt = %+v, %v", pr, err)
			}
			if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "up__draft_prompt"}); err == nil || !strings.Contains(err.Error(), "listed but not available") {
				t.Errorf("GetPrompt of a visible_only prompt: %v", err)
			}
			if _, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "up__draft_prompt"}, Argument: mcp.CompleteParamsArgument{Name: "x", Value: "a"}}); err == nil || !strings.Contains(err.Error(), "listed but not available") {
				t.Errorf("Complete for a visible_only prompt: %v", err)
			}
			if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "up__secret_prompt"}); err == nil {
				t.Error("a hidden prompt was served")
			}

			var uris []string
			for r, err := range cs.Resources(ctx, nil) {
				if err != nil {
					t.Fatal(err)
				}
				uris = append(uris, r.URI)
			}
			if !slices.Contains(uris, "notes://today") || !slices.Contains(uris, StatsURI) {
				t.Errorf("resources = %v", uris)
			}
			rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://today"})
			if err != nil || rr.Contents[0].Text != "buy milk" {
				t.Errorf("ReadResource(text) = %+v, %v", rr, err)
			}
			rr, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://day/monday"})
			if err != nil || string(rr.Contents[0].Blob) != "notes://day/monday" {
				t.Errorf("ReadResource(blob, by template) = %+v, %v", rr, err)
			}
			var templates []string
			for tm, err := range cs.ResourceTemplates(ctx, nil) {
				if err != nil {
					t.Fatal(err)
				}
				templates = append(templates, tm.URITemplate)
			}
			if !slices.Equal(templates, []string{"notes://day/{date}"}) {
				t.Errorf("templates = %v", templates)
			}

			comp, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "up__greet"}, Argument: mcp.CompleteParamsArgument{Name: "who", Value: "A"}})
			if err != nil || !slices.Equal(comp.Completion.Values, []string{"greet=A!"}) {
				t.Errorf("Complete(prompt) = %+v, %v", comp, err)
			}
			comp, err = cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: "notes://day/{date}"}, Argument: mcp.CompleteParamsArgument{Name: "date", Value: "mon"}})
			if err != nil || !slices.Equal(comp.Completion.Values, []string{"notes://day/{date}=mon!"}) {
				t.Errorf("Complete(template) = %+v, %v", comp, err)
			}
		})
	}
}

func TestASubscriptionGetsTheUpstreamsUpdates(t *testing.T) {
	up := upstreamServer(t, nil, "2025-11-25")
	s, _ := passthroughServer(t, up)
	subscribed, other := &recorder{}, &recorder{}
	ms := s.NewMCPServer()
	cs := connectTo(t, ms, subscribed.client(true), "2025-11-25")
	connectTo(t, ms, other.client(true), "2025-11-25")
	ctx := context.Background()
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "notes://day/tuesday"}); err != nil {
		t.Fatal(err)
	}
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "notes://nowhere"}); err == nil {
		t.Error("a subscription to a URI no server has was taken")
	}
	go func() {
		for range 200 {
			_ = up.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: "notes://day/tuesday"})
			if len(subscribed.got(&subscribed.updates)) > 0 {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	waitUntil(t, "the update", func() bool { return len(subscribed.got(&subscribed.updates)) > 0 })
	if got := subscribed.got(&subscribed.updates)[0]; got != "notes://day/tuesday" {
		t.Errorf("update for %s", got)
	}
	if got := other.got(&other.updates); len(got) > 0 {
		t.Errorf("a session that did not subscribe got %v", got)
	}
}

func TestCallsPassUpstreamRequestsToTheirClient(t *testing.T) {
	for _, c := range eraPairs() {
		t.Run(c.name, func(t *testing.T) {
			era := c.client
			s, _ := passthroughServer(t, upstreamServer(t, nil, c.upstream))
			able, bare := &recorder{}, &recorder{}
			ms := s.NewMCPServer()
			csAble := connectTo(t, ms, able.client(true), era)
			csBare := connectTo(t, ms, bare.client(false), era)
			for _, tt := range []struct{ tool, want string }{{"up__ask", "accept Ada"}, {"up__sample", "sampled"}} {
				text, res := callText(t, csAble, CallTool, map[string]any{"name": tt.tool})
				if res.IsError || text != tt.want {
					t.Errorf("%s: %q (isError %v), want %q", tt.tool, text, res.IsError, tt.want)
				}
				// Without the capability the upstream's request fails at
				// once with the protocol's error, and so does the call. A
				// 2026-07-28 upstream asks in its result, which cannot be
				// answered with an error: the call fails in toolsearch.
				text, res = callText(t, csBare, CallTool, map[string]any{"name": tt.tool})
				want := "method not found"
				if c.upstream >= "2026-07-28" {
					want = "the client that made this request does not support"
				}
				if !res.IsError || !strings.Contains(text, want) {
					t.Errorf("%s without the capability: %q (isError %v)", tt.tool, text, res.IsError)
				}
			}
		})
	}
}

func TestTwoSessionsCallingOneUpstreamGetTheirOwnProgress(t *testing.T) {
	release := make(chan struct{})
	s, _ := passthroughServer(t, upstreamServer(t, release, ""))
	a, b := &recorder{}, &recorder{}
	csA := connectTo(t, s.NewMCPServer(), a.client(true), "2025-11-25")
	csB := connectTo(t, s.NewMCPServer(), b.client(true), "2025-11-25")

	var wg sync.WaitGroup
	call := func(cs *mcp.ClientSession, who string, token any) {
		params := &mcp.CallToolParams{Name: CallTool, Arguments: map[string]any{"name": "up__work", "arguments": map[string]any{"who": who}}}
		params.SetProgressToken(token)
		wg.Go(func() {
			res, err := cs.CallTool(context.Background(), params)
			if err != nil || res.IsError {
				t.Errorf("%s: %+v, %v", who, res, err)
			}
		})
	}
	// Both clients happen to use the same token: each must still get only
	// its own call's progress.
	call(csA, "a", "same")
	call(csB, "b", "same")
	waitUntil(t, "progress of both calls", func() bool {
		return len(a.got(&a.progress)) == 2 && len(b.got(&b.progress)) == 2
	})
	close(release)
	wg.Wait()
	if got, want := strings.Join(a.got(&a.progress), " "), "same:1:a same:2:a"; got != want {
		t.Errorf("a got %q, want %q", got, want)
	}
	if got, want := strings.Join(b.got(&b.progress), " "), "same:1:b same:2:b"; got != want {
		t.Errorf("b got %q, want %q", got, want)
	}
}

func TestUpstreamLogsReachClientsThatAskedForThem(t *testing.T) {
	// Servers of 2026-07-28 log only within requests: this one is older.
	up := upstreamServer(t, nil, "2025-11-25")
	s, _ := passthroughServer(t, up)
	listening, quiet := &recorder{}, &recorder{}
	ms := s.NewMCPServer()
	cs := connectTo(t, ms, listening.client(true), "2025-11-25")
	connectTo(t, ms, quiet.client(true), "2025-11-25")
	if err := cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	// The level reaches the upstream in the background: log until a
	// message comes through.
	waitUntil(t, "a log message", func() bool {
		for ss := range up.Sessions() {
			_ = ss.Log(context.Background(), &mcp.LoggingMessageParams{Level: "warning", Logger: "disk", Data: "low space"})
		}
		time.Sleep(5 * time.Millisecond)
		return len(listening.got(&listening.logs)) > 0
	})
	if got := listening.got(&listening.logs)[0]; got != "up/disk low space" {
		t.Errorf("log = %q, want the server named in the logger", got)
	}
	if got := quiet.got(&quiet.logs); len(got) > 0 {
		t.Errorf("a session that set no level got %v", got)
	}
}

func TestPromptListChangedIsForwarded(t *testing.T) {
	up := upstreamServer(t, nil, "")
	s, _ := passthroughServer(t, up)
	rec := &recorder{}
	cs := connectTo(t, s.NewMCPServer(), rec.client(true), "2025-11-25")
	up.AddPrompt(&mcp.Prompt{Name: "fresh"}, nil)
	waitUntil(t, "prompts list_changed", func() bool {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		return rec.prompts > 0
	})
	res, err := cs.ListPrompts(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(res.Prompts)
	if !strings.Contains(string(data), "up__fresh") {
		t.Errorf("prompts after the change: %s", data)
	}
}

func TestCancellingACallCancelsItUpstream(t *testing.T) {
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			s, _ := passthroughServer(t, upstreamServer(t, nil, ""))
			rec := &recorder{}
			cs := connectTo(t, s.NewMCPServer(), rec.client(true), era)
			ctx, cancel := context.WithCancel(context.Background())
			errc := make(chan error, 1)
			go func() {
				_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: CallTool, Arguments: map[string]any{"name": "up__hang"}})
				errc <- err
			}()
			select {
			case <-hangStarted:
			case <-time.After(waitLimit):
				t.Fatal("the call never reached the upstream")
			}
			cancel()
			select {
			case <-hangCancelled:
			case <-time.After(waitLimit):
				t.Fatal("the upstream call was never cancelled")
			}
			<-errc
		})
	}
}

// A URI that the templates of two servers match was read from whichever
// template sorts first in the SDK's list, so that a server could take the
// reads of another's resources with a template made to sort before
// theirs ("notes://day/2{+rest}" before "notes://day/{date}"), while a
// subscription to the same URI was refused as claimed by both.
func TestAURITheTemplatesOfTwoServersMatchIsReadFromNeither(t *testing.T) {
	var grabbed atomic.Int32
	templated := func(name, tmpl string) *mcp.Server {
		up := mcp.NewServer(&mcp.Implementation{Name: name}, nil)
		up.AddTool(&mcp.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
		up.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: tmpl, Name: name}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			if name == "grab" {
				grabbed.Add(1)
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "from " + name}}}, nil
		})
		return up
	}
	s := serverOf(t, map[string]*mcp.Server{"notes": templated("notes", "notes://day/{date}"), "grab": templated("grab", "notes://day/2{+rest}")})
	waitUntil(t, "both templates", func() bool {
		_, a := s.Snapshot().ResourceTemplate("notes://day/{date}")
		_, b := s.Snapshot().ResourceTemplate("notes://day/2{+rest}")
		return a && b
	})
	cs := connectTo(t, s.NewMCPServer(), (&recorder{}).client(true), "2025-11-25")
	ctx := context.Background()

	if res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://day/2024-05-01"}); err == nil {
		t.Errorf("a URI both servers' templates match was read: %q", res.Contents[0].Text)
	}
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "notes://day/2024-05-01"}); err == nil {
		t.Error("a subscription to a URI both servers' templates match was taken")
	}
	if n := grabbed.Load(); n > 0 {
		t.Errorf("the server whose template sorts first was asked %d times", n)
	}
	// A URI only one server's template matches is still read from it.
	if res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://day/monday"}); err != nil || res.Contents[0].Text != "from notes" {
		t.Errorf("ReadResource(notes://day/monday) = %+v, %v", res, err)
	}
}

// BenchmarkResourceOf finds the template a URI belongs to among the 1,000
// templates one server may list.
func BenchmarkResourceOf(b *testing.B) {
	src := &catalog.Source{Name: "notes", Kind: catalog.SourceServer, State: catalog.StateActive}
	for i := range 1000 {
		src.Entries = append(src.Entries, catalog.NewTemplateEntry("notes", &mcp.ResourceTemplate{URITemplate: fmt.Sprintf("notes%d://day/{date}/{+rest}", i), Name: fmt.Sprint("t", i)}))
	}
	catalog := catalog.New(ReservedNames...)
	catalog.Put(src)
	s, err := New(catalog, Options{ListingBudget: DefaultListingBudget})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	snap := s.Snapshot()
	for b.Loop() {
		if e := s.resourceOf(snap, "notes999://day/x/y"); e == nil {
			b.Fatal("no template found")
		}
	}
}

// serverOf serves the catalog of the upstreams ups, by name.
func serverOf(t *testing.T, ups map[string]*mcp.Server) *Server {
	t.Helper()
	var configs []upstream.ServerConfig
	for name := range ups {
		configs = append(configs, upstream.ServerConfig{Name: name, Type: upstream.TypeStdio, Command: name})
	}
	catalog := catalog.New(ReservedNames...)
	m := upstream.New(configs, upstream.Options{
		Catalog:  catalog,
		CacheDir: t.TempDir(),
		Dial: func(ctx context.Context, cfg upstream.ServerConfig) (mcp.Transport, error) {
			ct, st := mcp.NewInMemoryTransports()
			_, err := ups[cfg.Name].Connect(ctx, st, nil)
			return ct, err
		},
	})
	m.Start(context.Background())
	t.Cleanup(func() { m.Close() })
	s, err := New(catalog, Options{ListingBudget: DefaultListingBudget, Upstreams: m})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// A subscription held the lock of every subscription of its MCP server
// while the upstream answered it: a server slow to answer held up the
// subscriptions of every session to every other server, up to its timeout.
func TestASlowSubscriptionHoldsUpNoOther(t *testing.T) {
	gate, arrived := make(chan struct{}), make(chan struct{}, 1)
	defer close(gate)
	subscribable := func(name string, slow bool) *mcp.Server {
		up := mcp.NewServer(&mcp.Implementation{Name: name}, &mcp.ServerOptions{
			SupportedProtocolVersions: []string{"2025-11-25"}, // a subscription is a request it answers
			SubscribeHandler: func(ctx context.Context, _ *mcp.SubscribeRequest) error {
				if slow {
					arrived <- struct{}{}
					select {
					case <-gate:
					case <-ctx.Done():
					}
				}
				return nil
			},
			UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
		})
		up.AddTool(&mcp.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
		up.AddResource(&mcp.Resource{URI: name + "://today", Name: "today"}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: name}}}, nil
		})
		return up
	}
	s := serverOf(t, map[string]*mcp.Server{"slow": subscribable("slow", true), "quick": subscribable("quick", false)})
	waitUntil(t, "both resources", func() bool {
		_, a := s.Snapshot().Resource("slow://today")
		_, b := s.Snapshot().Resource("quick://today")
		return a && b
	})
	ms := s.NewMCPServer()
	csSlow := connectTo(t, ms, (&recorder{}).client(true), "2025-11-25")
	csQuick := connectTo(t, ms, (&recorder{}).client(true), "2025-11-25")

	go csSlow.Subscribe(context.Background(), &mcp.SubscribeParams{URI: "slow://today"})
	select { // the slow subscription is under way
	case <-arrived:
	case <-time.After(waitLimit):
		t.Fatal("the slow subscription never reached its server")
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := csQuick.Subscribe(ctx, &mcp.SubscribeParams{URI: "quick://today"}); err != nil {
		t.Errorf("a subscription to another server while one is slow: %v", err)
	}
}

// TestReservedSchemesNeverReachAnUpstream: a catch-all template
// ({+anything}) captured skill:// and toolsearch:// URIs, and reads of
// missing or other-profile skill files were answered by the upstream under
// toolsearch's names. Templates that can expand to a reserved scheme are
// refused, and no read, subscription or completion of such a URI reaches
// an upstream.
func TestReservedSchemesNeverReachAnUpstream(t *testing.T) {
	var asked atomic.Int32
	up := mcp.NewServer(&mcp.Implementation{Name: "grab"}, &mcp.ServerOptions{
		CompletionHandler: func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
			asked.Add(1)
			return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{"x"}}}, nil
		},
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { asked.Add(1); return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	up.AddTool(&mcp.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	})
	read := func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		asked.Add(1)
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "from the upstream"}}}, nil
	}
	for _, tmpl := range []string{"{+anything}", "{scheme}://{+rest}", "sk{x}://{+rest}", "SKILL://{+rest}", "notes://{+rest}"} {
		up.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: tmpl, Name: tmpl}, read)
	}
	s := serverOf(t, map[string]*mcp.Server{"grab": up})
	waitUntil(t, "the upstream's templates", func() bool {
		_, ok := s.Snapshot().ResourceTemplate("notes://{+rest}")
		return ok
	})
	for _, tmpl := range []string{"{+anything}", "{scheme}://{+rest}", "sk{x}://{+rest}", "SKILL://{+rest}"} {
		if _, ok := s.Snapshot().ResourceTemplate(tmpl); ok {
			t.Errorf("the template %q is served", tmpl)
		}
	}
	cs := connectTo(t, s.NewMCPServer(), (&recorder{}).client(true), "2025-11-25")
	ctx := context.Background()
	for _, uri := range []string{"skill://missing/SKILL.md", "Skill://other-profile/notes.md", "toolsearch://stats/more"} {
		if res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err == nil {
			t.Errorf("%s was read: %q", uri, res.Contents[0].Text)
		}
		_ = cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri})
		_, _ = cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: uri}, Argument: mcp.CompleteParamsArgument{Name: "rest", Value: ""}})
	}
	if n := asked.Load(); n > 0 {
		t.Errorf("the upstream was asked %d times for URIs of toolsearch's own schemes", n)
	}
	// Its own scheme is still served.
	if res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://today"}); err != nil || res.Contents[0].Text != "from the upstream" {
		t.Errorf("ReadResource(notes://today) = %+v, %v", res, err)
	}
}
