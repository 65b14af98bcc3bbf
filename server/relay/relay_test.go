package relay

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/ownership"
	"github.com/toolsearch/toolsearch/internal/principal"
)

// eras are the protocol versions a client may follow.
var eras = []string{"2025-11-25", "2026-07-28"}

// serve makes a server whose tool "t" runs do through the relay, and
// connects client to it in the given protocol version.
func serve(t *testing.T, r *Relay, client *mcp.Client, version string, do func(context.Context, Caller) (*mcp.CallToolResult, error)) *mcp.ClientSession {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "relay-test"}, nil)
	s.AddTool(&mcp.Tool{Name: "t", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return Run(r, ctx, Request{Session: req.Session, Meta: req.Params.Meta, InputResponses: req.Params.InputResponses, RequestState: req.Params.RequestState}, do,
			func(m mcp.InputRequestMap, state string) *mcp.CallToolResult {
				return &mcp.CallToolResult{InputRequests: m, RequestState: state}
			})
	})
	ct, st := mcp.NewInMemoryTransports()
	if _, err := s.Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := client.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if got := cs.InitializeResult().ProtocolVersion; got != version {
		t.Fatalf("negotiated %s, want %s", got, version)
	}
	return cs
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// answering is a client that answers every kind of request.
func answering() *mcp.Client {
	var n atomic.Int32
	return mcp.NewClient(&mcp.Implementation{Name: "client"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{RootsV2: &mcp.RootCapabilities{}},
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"n": fmt.Sprint(n.Add(1)), "asked": req.Params.Message}}, nil
		},
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Role: "assistant", Model: "test", Content: &mcp.TextContent{Text: "sampled " + req.Params.SystemPrompt}}, nil
		},
	})
}

func TestRequestsReachTheClientOnBothEras(t *testing.T) {
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			r := New()
			// Two elicitations one after the other, then sampling and roots:
			// each round trip of a 2026-07-28 client is one retry.
			cs := serve(t, r, answering(), era, func(ctx context.Context, c Caller) (*mcp.CallToolResult, error) {
				var got []string
				for _, q := range []string{"first?", "second?"} {
					res, err := c.Elicit(ctx, &mcp.ElicitParams{Message: q})
					if err != nil {
						return nil, err
					}
					got = append(got, fmt.Sprintf("%s=%v", res.Content["asked"], res.Content["n"]))
				}
				msg, err := c.CreateMessage(ctx, &mcp.CreateMessageWithToolsParams{SystemPrompt: "sys", MaxTokens: 5, Messages: []*mcp.SamplingMessageV2{{Role: "user", Content: []mcp.Content{&mcp.TextContent{Text: "hi"}}}}})
				if err != nil {
					return nil, err
				}
				got = append(got, msg.Content[0].(*mcp.TextContent).Text)
				roots, err := c.ListRoots(ctx, nil)
				if err != nil {
					return nil, err
				}
				got = append(got, fmt.Sprintf("%d roots", len(roots.Roots)))
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(got, ", ")}}}, nil
			})
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "t"})
			if err != nil {
				t.Fatal(err)
			}
			if want := "first?=1, second?=2, sampled sys, 0 roots"; text(res) != want {
				t.Errorf("result %q, want %q", text(res), want)
			}
			if n := r.Parked(); n != 0 {
				t.Errorf("%d calls still parked", n)
			}
		})
	}
}

func TestAClientWithoutTheCapabilityFailsTheRequestAtOnce(t *testing.T) {
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			bare := mcp.NewClient(&mcp.Implementation{Name: "bare"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
			cs := serve(t, New(), bare, era, func(ctx context.Context, c Caller) (*mcp.CallToolResult, error) {
				var errs []string
				_, err := c.Elicit(ctx, &mcp.ElicitParams{Message: "?"})
				errs = append(errs, codeOf(err))
				_, err = c.CreateMessage(ctx, &mcp.CreateMessageWithToolsParams{})
				errs = append(errs, codeOf(err))
				_, err = c.ListRoots(ctx, nil)
				errs = append(errs, codeOf(err))
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(errs, " ")}}}, nil
			})
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "t"})
			if err != nil {
				t.Fatal(err)
			}
			if want := "-32601 -32601 -32601"; text(res) != want {
				t.Errorf("errors %q, want %q", text(res), want)
			}
		})
	}
}

func codeOf(err error) string {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return fmt.Sprint(je.Code)
	}
	return fmt.Sprint(err)
}

func TestSubCapabilitiesAreChecked(t *testing.T) {
	tests := []struct {
		caps *mcp.ClientCapabilities
		err  func(*mcp.ClientCapabilities) error
		want string // "" for allowed
	}{
		{&mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{}}, func(c *mcp.ClientCapabilities) error { return checkElicit(c, &mcp.ElicitParams{}) }, ""},
		{&mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{}}, func(c *mcp.ClientCapabilities) error { return checkElicit(c, &mcp.ElicitParams{Mode: "url"}) }, "url elicitation"},
		{&mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}}, func(c *mcp.ClientCapabilities) error { return checkElicit(c, &mcp.ElicitParams{}) }, "form elicitation"},
		{&mcp.ClientCapabilities{Sampling: &mcp.SamplingCapabilities{}}, func(c *mcp.ClientCapabilities) error {
			return checkSampling(c, &mcp.CreateMessageWithToolsParams{Tools: []*mcp.Tool{{Name: "x"}}})
		}, "sampling with tools"},
		{&mcp.ClientCapabilities{Sampling: &mcp.SamplingCapabilities{}}, func(c *mcp.ClientCapabilities) error {
			return checkSampling(c, &mcp.CreateMessageWithToolsParams{IncludeContext: "allServers"})
		}, "sampling with context"},
		{&mcp.ClientCapabilities{Sampling: &mcp.SamplingCapabilities{Context: &mcp.SamplingContextCapabilities{}}}, func(c *mcp.ClientCapabilities) error {
			return checkSampling(c, &mcp.CreateMessageWithToolsParams{IncludeContext: "thisServer"})
		}, ""},
	}
	for i, tt := range tests {
		err := tt.err(tt.caps)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%d: %v, want none", i, err)
		case tt.want != "" && (err == nil || !strings.HasSuffix(err.Error(), "does not support "+tt.want)):
			t.Errorf("%d: %v, want one about %s", i, err, tt.want)
		}
	}
}

// modernRequest is a 2026-07-28 request of a client that supports
// elicitation.
func modernRequest() Request {
	return Request{Meta: mcp.Meta{
		mcp.MetaKeyProtocolVersion:    "2026-07-28",
		mcp.MetaKeyClientCapabilities: map[string]any{"elicitation": map[string]any{}},
	}}
}

func TestParkedCallsAreBounded(t *testing.T) {
	r := New()
	r.maxParked = 1
	r.parkTimeout = time.Hour
	ctx := context.Background()
	upstreamErr := make(chan error, 2)
	asking := func(ctx context.Context, c Caller) (string, error) {
		_, err := c.Elicit(ctx, &mcp.ElicitParams{Message: "?"})
		upstreamErr <- err
		return "done", nil
	}
	needs := func(m mcp.InputRequestMap, state string) string { return "input " + state }
	req := modernRequest()
	// The caps of a modern request come from its session; without one,
	// its _meta alone says nothing of capabilities: use a caller that
	// supports elicitation.
	first, err := runWithCaps(r, ctx, req, asking, needs)
	if err != nil || !strings.HasPrefix(first, "input ") {
		t.Fatalf("first = %q, %v", first, err)
	}
	if r.Parked() != 1 {
		t.Fatalf("parked = %d", r.Parked())
	}
	// A second call asking for input while the first waits gets an error
	// upstream at once, and its own result.
	second, err := runWithCaps(r, ctx, req, asking, needs)
	if err != nil || second != "done" {
		t.Errorf("second = %q, %v", second, err)
	}
	if err := <-upstreamErr; err == nil || !strings.Contains(err.Error(), "the most toolsearch keeps") {
		t.Errorf("the second upstream got %v", err)
	}
	// A retry naming no call is refused.
	bad := req
	bad.RequestState = "nonsense"
	if _, err := runWithCaps(r, ctx, bad, asking, needs); err == nil || !strings.Contains(err.Error(), "names no call waiting for input") {
		t.Errorf("unknown state: %v", err)
	}
	// A retry without the answer fails the upstream's request, and the
	// call goes on to its result.
	retry := req
	retry.RequestState = strings.TrimPrefix(first, "input ")
	res, err := runWithCaps(r, ctx, retry, asking, needs)
	if err != nil || res != "done" {
		t.Errorf("retry = %q, %v", res, err)
	}
	if err := <-upstreamErr; err == nil || !strings.Contains(err.Error(), "did not answer input request") {
		t.Errorf("the first upstream got %v", err)
	}
}

func TestAParkedCallExpires(t *testing.T) {
	r := New()
	r.parkTimeout = 10 * time.Millisecond
	upstreamErr := make(chan error, 1)
	ended := make(chan struct{})
	asking := func(ctx context.Context, c Caller) (string, error) {
		_, err := c.Elicit(ctx, &mcp.ElicitParams{Message: "?"})
		upstreamErr <- err
		<-ctx.Done() // the call is cancelled upstream
		close(ended)
		return "", ctx.Err()
	}
	res, err := runWithCaps(r, context.Background(), modernRequest(), asking, func(_ mcp.InputRequestMap, s string) string { return "input" })
	if err != nil || res != "input" {
		t.Fatalf("Run = %q, %v", res, err)
	}
	select {
	case err := <-upstreamErr:
		if err == nil || !strings.Contains(err.Error(), "did not come back") {
			t.Errorf("upstream got %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the parked call never expired")
	}
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the expired call was not cancelled")
	}
	if r.Parked() != 0 {
		t.Errorf("parked = %d", r.Parked())
	}
}

// runWithCaps runs a modern request whose client supports elicitation,
// standing in for the session a real request would bring its
// capabilities in.
func runWithCaps(r *Relay, ctx context.Context, req Request, do func(context.Context, Caller) (string, error), needs func(mcp.InputRequestMap, string) string) (string, error) {
	wrapped := func(ctx context.Context, c Caller) (string, error) {
		if pc, ok := c.(*parkedCaller); ok {
			pc.caps = &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{}}
		}
		return do(ctx, c)
	}
	return Run(r, ctx, req, wrapped, needs)
}

// A parked call's request state names this replica and the caller when the
// client request carries a Sealer, so that a retry reaching another replica
// is forwarded here, and nobody else's retry is.
func TestARequestStateNamesItsReplicaAndCaller(t *testing.T) {
	r := New()
	s := ownership.New([]byte("0123456789abcdef0123456789abcdef"), "replica-1")
	ctx := principal.With(ownership.With(context.Background(), s), "alice")
	asking := func(ctx context.Context, c Caller) (string, error) {
		_, err := c.Elicit(ctx, &mcp.ElicitParams{Message: "?"})
		return "done", err
	}
	needs := func(_ mcp.InputRequestMap, state string) string { return state }
	state, err := runWithCaps(r, ctx, modernRequest(), asking, needs)
	if err != nil {
		t.Fatal(err)
	}
	if owner, _, err := s.Open(ownership.RequestState, "alice", state); err != nil || owner != "replica-1" {
		t.Errorf("the state %q opens as %q, %v; want replica-1's, for alice", state, owner, err)
	}
	if _, _, err := s.Open(ownership.RequestState, "bob", state); err == nil {
		t.Errorf("the state %q opens for bob", state)
	}
	retry := modernRequest()
	retry.RequestState = state
	retry.InputResponses = mcp.InputResponseMap{}
	// Bob, who learned alice's state, cannot resume her call, even at the
	// replica holding it.
	bob := principal.With(ownership.With(context.Background(), s), "bob")
	if _, err := runWithCaps(r, bob, retry, asking, needs); err == nil || !strings.Contains(err.Error(), "not issued to this caller") {
		t.Errorf("bob's retry with alice's state: %v", err)
	}
	if r.Parked() != 1 {
		t.Errorf("bob's retry took alice's call: parked = %d", r.Parked())
	}
	if _, err := runWithCaps(r, ctx, retry, asking, needs); err != nil && !strings.Contains(err.Error(), "did not answer") {
		t.Errorf("the retry: %v", err)
	}
}
