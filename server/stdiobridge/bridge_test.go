package stdiobridge

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// upstreamServer is a stand-in stdio server: a tool that reports
// progress, logs and asks the client; a prompt; a resource.
func upstreamServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "weatherish", Version: "1.2.3"}, &mcp.ServerOptions{Instructions: "Ask me about the weather."})
	mcp.AddTool(s, &mcp.Tool{Name: "forecast", Description: "Forecast for a city."}, func(ctx context.Context, req *mcp.CallToolRequest, in struct {
		City string `json:"city"`
	}) (*mcp.CallToolResult, any, error) {
		if tok := req.Params.GetProgressToken(); tok != nil {
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: 1, Total: 1, Message: "halfway"})
		}
		_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Data: "forecasting " + in.City})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "sunny in " + in.City}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "ask"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Which city?", RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}}})
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "asked: " + res.Action + " " + res.Content["city"].(string)}}}, nil, nil
	})
	s.AddPrompt(&mcp.Prompt{Name: "plan", Description: "Plan a trip."}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "plan it"}}}}, nil
	})
	s.AddResource(&mcp.Resource{Name: "cities", URI: "weather://cities"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "weather://cities", Text: "Paris, Oslo"}}}, nil
	})
	return s
}

// bridged starts a bridge in front of up, served over HTTP, and returns
// the bridge and its URL.
func bridged(t *testing.T, up *mcp.Server) (*Bridge, string) {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := up.Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	b, err := Connect(context.Background(), ct, Options{})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(b.MCP())
	t.Cleanup(func() { hs.Close(); b.Close() })
	return b, hs.URL
}

type clientRecord struct {
	mu       sync.Mutex
	progress []string
	logs     []string
	changed  chan struct{}
}

func connect(t *testing.T, url string, rec *clientRecord) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "replica"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"city": "Oslo"}}, nil
		},
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			rec.mu.Lock()
			defer rec.mu.Unlock()
			rec.progress = append(rec.progress, req.Params.Message+" under "+req.Params.ProgressToken.(string))
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			rec.mu.Lock()
			defer rec.mu.Unlock()
			rec.logs = append(rec.logs, req.Params.Data.(string))
		},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case rec.changed <- struct{}{}:
			default:
			}
		},
	})
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func text(r *mcp.CallToolResult) string {
	var out []string
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			out = append(out, tc.Text)
		}
	}
	return strings.Join(out, "\n")
}

// TestBridgeServesTheServer: a client of the bridge sees the server's
// name, instructions, tools, prompts and resources, and calls reach it,
// with progress under the client's own token, its logs, and its
// elicitation answered by the client.
func TestBridgeServesTheServer(t *testing.T) {
	up := upstreamServer()
	_, url := bridged(t, up)
	rec := &clientRecord{changed: make(chan struct{}, 1)}
	cs := connect(t, url, rec)
	ctx := context.Background()

	init := cs.InitializeResult()
	if init.ServerInfo.Name != "weatherish" || init.Instructions != "Ask me about the weather." {
		t.Errorf("initialize: server %+v, instructions %q: want the server's own", init.ServerInfo, init.Instructions)
	}
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 2 {
		t.Fatalf("tools/list: %v %+v", err, tools)
	}

	cases := []struct {
		name, tool string
		args       map[string]any
		want       string
	}{
		{"a call", "forecast", map[string]any{"city": "Paris"}, "sunny in Paris"},
		{"an elicitation answered by the client", "ask", map[string]any{}, "asked: accept Oslo"},
	}
	for _, c := range cases {
		p := &mcp.CallToolParams{Name: c.tool, Arguments: c.args}
		p.SetProgressToken("mine")
		res, err := cs.CallTool(ctx, p)
		if err != nil || res.IsError || text(res) != c.want {
			t.Errorf("%s: %v %q, want %q", c.name, err, text(res), c.want)
		}
	}
	waitFor(t, "progress and log", func() bool {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		return len(rec.progress) == 1 && len(rec.logs) == 1
	}, rec)
	if rec.progress[0] != "halfway under mine" || rec.logs[0] != "forecasting Paris" {
		t.Errorf("progress %q, logs %q: want the call's, under the client's token", rec.progress, rec.logs)
	}

	prompt, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "plan"})
	if err != nil || len(prompt.Messages) != 1 {
		t.Errorf("prompts/get: %v %+v", err, prompt)
	}
	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "weather://cities"})
	if err != nil || len(read.Contents) != 1 || read.Contents[0].Text != "Paris, Oslo" {
		t.Errorf("resources/read: %v %+v", err, read)
	}

	// A tool added upstream: the client is told its list changed.
	up.AddTool(&mcp.Tool{Name: "alerts", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	})
	select {
	case <-rec.changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no tools/list_changed reached the client")
	}
	tools, err = cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 3 {
		t.Errorf("tools/list after the change: %v, %d tools, want 3", err, len(tools.Tools))
	}
}

// TestBridgeSharesOneServer: two clients reach one server session; each
// gets its own progress and nothing of the other's.
func TestBridgeSharesOneServer(t *testing.T) {
	up := upstreamServer()
	_, url := bridged(t, up)
	recs := []*clientRecord{{changed: make(chan struct{}, 1)}, {changed: make(chan struct{}, 1)}}
	for i, rec := range recs {
		cs := connect(t, url, rec)
		p := &mcp.CallToolParams{Name: "forecast", Arguments: map[string]any{"city": "Paris"}}
		p.SetProgressToken([]string{"a", "b"}[i])
		if _, err := cs.CallTool(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "progress", func() bool {
		for _, rec := range recs {
			rec.mu.Lock()
			n := len(rec.progress)
			rec.mu.Unlock()
			if n == 0 {
				return false
			}
		}
		return true
	})
	if got := recs[0].progress[0] + ", " + recs[1].progress[0]; got != "halfway under a, halfway under b" {
		t.Errorf("progress: %s", got)
	}
	n := 0
	for range up.Sessions() {
		n++
	}
	if n != 1 {
		t.Errorf("the server has %d sessions, want 1 shared by both clients", n)
	}
}

func waitFor(t *testing.T, what string, ok func() bool, recs ...*clientRecord) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !ok(); {
		if time.Now().After(deadline) {
			for _, r := range recs {
				t.Logf("progress %q, logs %q", r.progress, r.logs)
			}
			t.Fatalf("no %s within 10s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
