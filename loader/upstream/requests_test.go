package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// fakeCaller is a client toolsearch makes upstream requests for.
type fakeCaller struct {
	name  string
	token any

	elicit func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error)
	sample func(context.Context, *mcp.CreateMessageWithToolsParams) (*mcp.CreateMessageWithToolsResult, error)
	roots  func(context.Context, *mcp.ListRootsParams) (*mcp.ListRootsResult, error)

	mu       sync.Mutex
	progress []string
	logs     []string
}

func (c *fakeCaller) Elicit(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	if c.elicit == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "no elicitation here"}
	}
	return c.elicit(ctx, p)
}

func (c *fakeCaller) CreateMessage(ctx context.Context, p *mcp.CreateMessageWithToolsParams) (*mcp.CreateMessageWithToolsResult, error) {
	if c.sample == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "no sampling here"}
	}
	return c.sample(ctx, p)
}

func (c *fakeCaller) ListRoots(ctx context.Context, p *mcp.ListRootsParams) (*mcp.ListRootsResult, error) {
	if c.roots == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "no roots here"}
	}
	return c.roots(ctx, p)
}

func (c *fakeCaller) Progress(_ context.Context, p *mcp.ProgressNotificationParams) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.progress = append(c.progress, fmt.Sprintf("%v:%v:%s", p.ProgressToken, p.Progress, p.Message))
}

func (c *fakeCaller) Log(_ context.Context, p *mcp.LoggingMessageParams) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.logs = append(c.logs, fmt.Sprint(p.Data))
}

func (c *fakeCaller) ElicitationComplete(context.Context, *mcp.ElicitationCompleteParams) {}
func (c *fakeCaller) ProgressToken() any                                                  { return c.token }
func (c *fakeCaller) Recipient() any                                                      { return c.name }

func (c *fakeCaller) got() (progress, logs []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.progress...), append([]string(nil), c.logs...)
}

// gatedProgressTool reports progress under the request's token, labelled
// with the request's "who" argument, then waits for release.
func gatedProgressTool(f *fakeServer, release <-chan struct{}) {
	type args struct {
		Who string `json:"who"`
	}
	mcp.AddTool(f.Server, &mcp.Tool{Name: "work"}, func(ctx context.Context, req *mcp.CallToolRequest, a args) (*mcp.CallToolResult, any, error) {
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
}

func TestProgressGoesToItsOwnCallerUnderItsOwnToken(t *testing.T) {
	for _, opts := range []*mcp.ServerOptions{legacy, nil} {
		t.Run(fmt.Sprintf("legacy=%v", opts != nil), func(t *testing.T) {
			e := newEnv(t)
			f := e.add("work", opts)
			release := make(chan struct{})
			gatedProgressTool(f, release)
			m := e.start()
			waitSource(t, e.catalog, "work", "active", inState(catalog.StateActive))

			// Two clients call the same upstream at once, one with a string
			// token and one with a number, and a third asks for no progress.
			a := &fakeCaller{name: "a", token: "tok-a"}
			b := &fakeCaller{name: "b", token: 7}
			c := &fakeCaller{name: "c"}
			var wg sync.WaitGroup
			results := make([]string, 3)
			for i, caller := range []*fakeCaller{a, b, c} {
				wg.Go(func() {
					res, err := m.Call(WithCaller(context.Background(), caller), "work", "work", []byte(`{"who":"`+caller.name+`"}`))
					if err != nil {
						t.Errorf("%s: %v", caller.name, err)
						return
					}
					results[i] = textOf(res)
				})
			}
			// Both report before the tool finishes: progress arrives while
			// the calls are in flight.
			waitFor(t, "progress for a and b", func() bool {
				pa, _ := a.got()
				pb, _ := b.got()
				return len(pa) == 2 && len(pb) == 2
			})
			close(release)
			wg.Wait()
			pa, _ := a.got()
			pb, _ := b.got()
			pc, _ := c.got()
			if want := "tok-a:1:a tok-a:2:a"; strings.Join(pa, " ") != want {
				t.Errorf("a got %v, want %s", pa, want)
			}
			if want := "7:1:b 7:2:b"; strings.Join(pb, " ") != want {
				t.Errorf("b got %v, want %s", pb, want)
			}
			if len(pc) != 0 {
				t.Errorf("c asked for no progress and got %v", pc)
			}
			if results[0] != "done a" || results[1] != "done b" || results[2] != "done c" {
				t.Errorf("results = %q", results)
			}
		})
	}
}

// askingTool elicits, samples or lists roots, as its "ask" argument says,
// and returns what the client answered.
func askingTool(f *fakeServer) {
	type args struct {
		Ask string `json:"ask"`
	}
	mcp.AddTool(f.Server, &mcp.Tool{Name: "ask"}, func(ctx context.Context, req *mcp.CallToolRequest, a args) (*mcp.CallToolResult, any, error) {
		var answer string
		switch a.Ask {
		case "elicit":
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Your name?", RequestedSchema: &jsonschemaObject})
			if err != nil {
				return nil, nil, err
			}
			answer = fmt.Sprintf("%s %v", res.Action, res.Content["name"])
		case "sample":
			res, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 10, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}})
			if err != nil {
				return nil, nil, err
			}
			answer = res.Content.(*mcp.TextContent).Text
		case "roots":
			res, err := req.Session.ListRoots(ctx, nil)
			if err != nil {
				return nil, nil, err
			}
			answer = res.Roots[0].URI
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: answer}}}, nil, nil
	})
}

var jsonschemaObject = map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}

func TestRequestsDuringACallGoToItsCaller(t *testing.T) {
	e := newEnv(t)
	f := e.add("asker", legacy)
	askingTool(f)
	m := e.start()
	waitSource(t, e.catalog, "asker", "active", inState(catalog.StateActive))

	caller := &fakeCaller{
		name: "client",
		elicit: func(_ context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada (" + p.Message + ")"}}, nil
		},
		sample: func(_ context.Context, p *mcp.CreateMessageWithToolsParams) (*mcp.CreateMessageWithToolsResult, error) {
			return &mcp.CreateMessageWithToolsResult{Role: "assistant", Model: "m", Content: []mcp.Content{&mcp.TextContent{Text: "sampled"}}}, nil
		},
		roots: func(context.Context, *mcp.ListRootsParams) (*mcp.ListRootsResult, error) {
			return &mcp.ListRootsResult{Roots: []*mcp.Root{{URI: "file:///project"}}}, nil
		},
	}
	tests := []struct{ ask, want string }{
		{"elicit", `accept Ada (Server "asker" (through toolsearch) asks: Your name?)`},
		{"sample", "sampled"},
		{"roots", "file:///project"},
	}
	for _, tt := range tests {
		res, err := m.Call(WithCaller(context.Background(), caller), "asker", "ask", []byte(`{"ask":"`+tt.ask+`"}`))
		if err != nil || res.IsError || textOf(res) != tt.want {
			t.Errorf("%s: %q (isError %v), %v; want %q", tt.ask, textOf(res), res != nil && res.IsError, err, tt.want)
		}
	}

	// A caller without the capability gets its error passed on at once:
	// the protocol's method not found.
	bare := &fakeCaller{name: "bare"}
	for _, ask := range []string{"elicit", "sample", "roots"} {
		res, err := m.Call(WithCaller(context.Background(), bare), "asker", "ask", []byte(`{"ask":"`+ask+`"}`))
		if err != nil || !res.IsError || !strings.Contains(textOf(res), "method not found") {
			t.Errorf("%s without the capability: %q, %v", ask, textOf(res), err)
		}
	}
	// A call made for nobody cannot have its requests answered.
	res, err := m.Call(context.Background(), "asker", "ask", []byte(`{"ask":"elicit"}`))
	if err != nil || !res.IsError || !strings.Contains(textOf(res), "method not found") {
		t.Errorf("elicit without a caller: %q, %v", textOf(res), err)
	}
}

func TestARequestTwoClientsMightOwnIsRefused(t *testing.T) {
	e := newEnv(t)
	f := e.add("asker", legacy)
	askingTool(f)
	release := make(chan struct{})
	gatedProgressTool(f, release)
	m := e.start()
	waitSource(t, e.catalog, "asker", "active", inState(catalog.StateActive))

	other := &fakeCaller{name: "other", token: "t"}
	done := make(chan error)
	go func() {
		_, err := m.Call(WithCaller(context.Background(), other), "asker", "work", []byte(`{"who":"other"}`))
		done <- err
	}()
	waitFor(t, "the other call to be in flight", func() bool { p, _ := other.got(); return len(p) > 0 })
	asker := &fakeCaller{name: "asker", elicit: func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		t.Error("an ambiguous request reached a client")
		return nil, errors.New("no")
	}}
	res, err := m.Call(WithCaller(context.Background(), asker), "asker", "ask", []byte(`{"ask":"elicit"}`))
	if err != nil || !res.IsError || !strings.Contains(textOf(res), "requests from several clients are in progress") {
		t.Errorf("ambiguous elicitation: %+v, %v", res, err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Error(err)
	}
}

func TestInputRequiredResultsAreAnsweredByTheCaller(t *testing.T) {
	// A 2026-07-28 server asks for input in its result; toolsearch asks
	// the caller and sends the call again with the answer.
	e := newEnv(t)
	f := e.add("modern", nil)
	f.AddTool(&mcp.Tool{Name: "confirm", InputSchema: map[string]any{"type": "object"}}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if r, ok := req.Params.InputResponses["ok"].(*mcp.ElicitResult); ok && req.Params.RequestState == "state-1" {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "confirmed: " + r.Action}}}, nil
		}
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"ok": &mcp.ElicitParams{Message: "Sure?"}}, RequestState: "state-1"}, nil
	})
	m := e.start()
	waitSource(t, e.catalog, "modern", "active", inState(catalog.StateActive))
	asked := 0
	caller := &fakeCaller{name: "c", elicit: func(_ context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		asked++
		return &mcp.ElicitResult{Action: "accept"}, nil
	}}
	res, err := m.Call(WithCaller(context.Background(), caller), "modern", "confirm", nil)
	if err != nil || textOf(res) != "confirmed: accept" || asked != 1 {
		t.Errorf("Call = %q, %v; asked %d times", textOf(res), err, asked)
	}
}

func TestWaitingForTheClientDoesNotCountAgainstTheTimeout(t *testing.T) {
	e := newEnv(t)
	f := e.add("asker", legacy)
	askingTool(f)
	e.opts.Settings["asker"] = Settings{Timeout: 50 * time.Millisecond}
	m := e.start()
	waitSource(t, e.catalog, "asker", "active", inState(catalog.StateActive))
	slow := &fakeCaller{name: "slow", elicit: func(ctx context.Context, _ *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		// A person takes longer than the server's timeout to answer.
		select {
		case <-time.After(200 * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return &mcp.ElicitResult{Action: "decline"}, nil
	}}
	res, err := m.Call(WithCaller(context.Background(), slow), "asker", "ask", []byte(`{"ask":"elicit"}`))
	if err != nil || textOf(res) != "decline <nil>" {
		t.Errorf("Call = %+v, %v", res, err)
	}
}

func TestLogsGoToCallersInFlightOrElseToWatchers(t *testing.T) {
	e := newEnv(t)
	f := e.add("logger", legacy)
	release := make(chan struct{})
	mcp.AddTool(f.Server, &mcp.Tool{Name: "chatty"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		if err := req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Data: "during"}); err != nil {
			return nil, nil, err
		}
		<-release
		return &mcp.CallToolResult{}, nil, nil
	})
	m := e.start()
	waitSource(t, e.catalog, "logger", "active", inState(catalog.StateActive))
	watched := make(chan string, 8)
	defer m.WatchLogs(func(server string, p *mcp.LoggingMessageParams) { watched <- server + ": " + fmt.Sprint(p.Data) })()
	m.SetLogLevel("debug") // a go-sdk server sends nothing until a level is set
	waitFor(t, "the level to reach the server", func() bool {
		for ss := range f.Sessions() {
			_ = ss.Log(context.Background(), &mcp.LoggingMessageParams{Level: "info", Data: "probe"})
		}
		select {
		case <-watched:
			return true
		default:
			return false
		}
	})

	caller := &fakeCaller{name: "c"}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := m.Call(WithCaller(context.Background(), caller), "logger", "chatty", nil); err != nil {
			t.Error(err)
		}
	}()
	// Probes still on their way may reach the caller too: they arrive while
	// its call is in flight.
	waitFor(t, "the log during the call", func() bool { _, logs := caller.got(); return slices.Contains(logs, "during") })
	close(release)
	<-done
	for ss := range f.Sessions() {
		_ = ss.Log(context.Background(), &mcp.LoggingMessageParams{Level: "warning", Data: "after"})
	}
	for got := ""; got != "logger: after"; {
		got = recv(t, watched, "the log after the call")
	}
	if _, logs := caller.got(); slices.Contains(logs, "after") {
		t.Errorf("the caller got %v, including a log made after its call", logs)
	}
}

// legacy makes a server speak 2025-11-25 only: its requests to the client
// come as requests of their own, which toolsearch ties to the one caller in
// flight.
var legacy = &mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A server that does not cancel its request to the client when its call
// ends kept the caller asked, and the goroutine asking, for up to
// clientAnswerTimeout (ten minutes) after the call: the request is passed
// on only while the call it came during runs.
func TestARequestOutlivingItsCallIsCancelled(t *testing.T) {
	e := newEnv(t)
	f := e.add("asker", legacy)
	asked := make(chan struct{})
	mcp.AddTool(f.Server, &mcp.Tool{Name: "ask_and_go"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		go req.Session.Elicit(context.WithoutCancel(ctx), &mcp.ElicitParams{Message: "Still there?", RequestedSchema: &jsonschemaObject})
		select {
		case <-asked:
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "gone"}}}, nil, nil
	})
	m := e.start()
	waitSource(t, e.catalog, "asker", "active", inState(catalog.StateActive))

	ended, quit := make(chan error, 1), make(chan struct{})
	t.Cleanup(func() { close(quit) }) // before the Manager's Close, which would wait for it
	caller := &fakeCaller{name: "client", elicit: func(ctx context.Context, _ *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		close(asked)
		select { // a person who never answers
		case <-ctx.Done():
			ended <- ctx.Err()
		case <-quit:
		}
		return nil, errors.New("no answer")
	}}
	res, err := m.Call(WithCaller(context.Background(), caller), "asker", "ask_and_go", nil)
	if err != nil || textOf(res) != "gone" {
		t.Fatalf("Call = %q, %v", textOf(res), err)
	}
	recv(t, ended, "the request to the client to end with its call")
}

// A server's log messages and progress messages reached clients with the
// server's secrets in them (a header value it echoes), where everything
// else the package shows, its stderr included, is redacted.
func TestLogAndProgressMessagesAreRedacted(t *testing.T) {
	e := newEnv(t)
	f := e.add("logger", legacy)
	release := make(chan struct{})
	gatedProgressTool(f, release)
	headers := map[string]string{"X-Api-Key": "hdrS3cret", "Authorization": "Bearer bearerT0ken"}
	m := New([]ServerConfig{{Name: "logger", Type: TypeHTTP, URL: "http://logger.example/mcp", Headers: headers}}, e.opts)
	m.Start(context.Background())
	defer m.Close()
	waitSource(t, e.catalog, "logger", "active", inState(catalog.StateActive))

	// Progress first: the log probes below may use up the second's
	// allowance of notifications (notifyRate).
	caller := &fakeCaller{name: "c", token: "mine"}
	done := make(chan error, 1)
	go func() {
		_, err := m.Call(WithCaller(context.Background(), caller), "logger", "work", []byte(`{"who":"sent hdrS3cret"}`))
		done <- err
	}()
	waitFor(t, "the progress", func() bool { p, _ := caller.got(); return len(p) > 0 })
	close(release)
	if err := recv(t, done, "the call"); err != nil {
		t.Fatal(err)
	}
	if p, _ := caller.got(); p[0] != "mine:1:sent REDACTED" {
		t.Errorf("progress passed on as %q", p[0])
	}
	watched := make(chan *mcp.LoggingMessageParams, 64)
	defer m.WatchLogs(func(_ string, p *mcp.LoggingMessageParams) { watched <- p })()
	m.SetLogLevel("debug")
	waitFor(t, "the level to reach the server", func() bool {
		for ss := range f.Sessions() {
			_ = ss.Log(context.Background(), &mcp.LoggingMessageParams{Level: "info", Logger: "hdrS3cret", Data: map[string]any{"auth": "Bearer bearerT0ken", "n": 1}})
		}
		select {
		case p := <-watched:
			shown, _ := json.Marshal(p)
			if strings.Contains(string(shown), "hdrS3cret") || strings.Contains(string(shown), "bearerT0ken") || !strings.Contains(string(shown), `"auth":"REDACTED"`) {
				t.Errorf("log message passed on as %s", shown)
			}
			return true
		default:
			return false
		}
	})
}
