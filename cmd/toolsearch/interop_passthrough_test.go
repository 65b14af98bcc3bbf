//go:build interop

package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// everythingClient is a client of toolsearch that answers and records what
// server-everything asks and reports through it.
type everythingClient struct {
	mu       sync.Mutex
	progress []string
	logs     []string
	updates  []string
	asked    []string // sampling and elicitation requests received
}

func (c *everythingClient) note(list *[]string, s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	*list = append(*list, s)
}

func (c *everythingClient) seen(list *[]string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(*list)
}

// client returns an MCP client; capable ones answer sampling and
// elicitation.
func (c *everythingClient) client(capable bool) *mcp.Client {
	opts := &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{},
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			c.note(&c.progress, fmt.Sprintf("%v:%v/%v", req.Params.ProgressToken, req.Params.Progress, req.Params.Total))
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			c.note(&c.logs, fmt.Sprintf("%s %s %v", req.Params.Level, req.Params.Logger, req.Params.Data))
		},
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			c.note(&c.updates, req.Params.URI)
		},
	}
	if capable {
		opts.CreateMessageHandler = func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			c.note(&c.asked, "sampling")
			return &mcp.CreateMessageResult{Role: "assistant", Model: "interop-model", Content: &mcp.TextContent{Text: "the test client's model answers"}}, nil
		}
		opts.ElicitationHandler = func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			c.note(&c.asked, "elicitation: "+req.Params.Message)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada Lovelace", "check": true}}, nil
		}
	}
	return mcp.NewClient(&mcp.Implementation{Name: "interop-everything"}, opts)
}

// serveEverything starts toolsearch over HTTP in front of one
// server-everything and returns its /mcp endpoint.
func serveEverything(t *testing.T) string {
	t.Helper()
	cfg := mcpConfig(t, map[string]any{"everything": map[string]any{"command": ciBin(t, "mcp-server-everything")}})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	serve := toolsearch(ctx, "serve", "--http", addr, "--mcp-config", cfg, "--skills", t.TempDir())
	serve.Env = append(serve.Env, "XDG_CACHE_HOME="+t.TempDir())
	serve.Stderr = &testLog{t: t}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		serve.Process.Signal(os.Interrupt)
		serve.Wait()
		cancel()
	})
	waitHTTP(t, "http://"+addr+"/healthz")
	return "http://" + addr + "/mcp"
}

func connectHTTP(t *testing.T, endpoint string, client *mcp.Client, version string) *mcp.ClientSession {
	t.Helper()
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: http.DefaultClient}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// eventually retries check until it passes or the limit runs out.
func eventually(t *testing.T, what string, limit time.Duration, check func() error) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %v", what, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func callTool(ctx context.Context, cs *mcp.ClientSession, name string, args map[string]any, token any) (string, *mcp.CallToolResult, error) {
	params := &mcp.CallToolParams{Name: "call_tool", Arguments: map[string]any{"name": name, "arguments": args}}
	if token != nil {
		params.SetProgressToken(token)
	}
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		return "", nil, err
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res, nil
}

func TestInteropServerEverythingPromptsAndResources(t *testing.T) {
	endpoint := serveEverything(t)
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(era, func(t *testing.T) {
			cs := connectHTTP(t, endpoint, (&everythingClient{}).client(true), era)
			ctx := context.Background()

			// Prompts are listed under everything__, with their arguments.
			eventually(t, "prompts listed", 60*time.Second, func() error {
				var names []string
				for p, err := range cs.Prompts(ctx, nil) {
					if err != nil {
						return err
					}
					names = append(names, p.Name)
				}
				for _, want := range []string{"everything__simple-prompt", "everything__args-prompt", "everything__completable-prompt"} {
					if !slices.Contains(names, want) {
						return fmt.Errorf("%s not in %v", want, names)
					}
				}
				return nil
			})
			var pr *mcp.GetPromptResult
			eventually(t, "prompts/get", 60*time.Second, func() (err error) {
				pr, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "everything__args-prompt", Arguments: map[string]string{"city": "Lisbon", "state": "Estremadura"}})
				return err
			})
			if text := pr.Messages[0].Content.(*mcp.TextContent).Text; text != "What's weather in Lisbon, Estremadura?" {
				t.Errorf("args-prompt = %q", text)
			}
			comp, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "everything__completable-prompt"}, Argument: mcp.CompleteParamsArgument{Name: "department", Value: "Eng"}})
			if err != nil || !slices.Equal(comp.Completion.Values, []string{"Engineering"}) {
				t.Errorf("prompt completion = %+v, %v", comp, err)
			}

			// Resources keep their URIs; text and blob read back.
			var docs []string
			for r, err := range cs.Resources(ctx, nil) {
				if err != nil {
					t.Fatal(err)
				}
				if strings.HasPrefix(r.URI, "demo://resource/static/document/") {
					docs = append(docs, r.URI)
				}
			}
			if len(docs) == 0 {
				t.Fatal("no static document listed")
			}
			rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: docs[0]})
			if err != nil || rr.Contents[0].Text == "" {
				t.Errorf("reading %s: %+v, %v", docs[0], rr, err)
			}
			rr, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "demo://resource/dynamic/blob/7"})
			if err != nil || !strings.Contains(string(rr.Contents[0].Blob), "Resource 7: This is a base64 blob") {
				t.Errorf("reading a blob: %+v, %v", rr, err)
			}
			rr, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "demo://resource/dynamic/text/3"})
			if err != nil || !strings.Contains(rr.Contents[0].Text, "Resource 3: This is a plaintext resource") {
				t.Errorf("reading a text template: %+v, %v", rr, err)
			}
			var templates []string
			for tm, err := range cs.ResourceTemplates(ctx, nil) {
				if err != nil {
					t.Fatal(err)
				}
				templates = append(templates, tm.URITemplate)
			}
			if !slices.Contains(templates, "demo://resource/dynamic/text/{resourceId}") {
				t.Errorf("templates = %v", templates)
			}
			comp, err = cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: "demo://resource/dynamic/text/{resourceId}"}, Argument: mcp.CompleteParamsArgument{Name: "resourceId", Value: "42"}})
			if err != nil || !slices.Equal(comp.Completion.Values, []string{"42"}) {
				t.Errorf("template completion = %+v, %v", comp, err)
			}

			// tool_search finds them too.
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "tool_search", Arguments: map[string]any{"query": "prompt with two arguments city state", "kind": "prompt"}})
			if err != nil || res.IsError || !strings.Contains(fmt.Sprint(res.Content[0].(*mcp.TextContent).Text), "everything__args-prompt") {
				t.Errorf("tool_search for the prompt: %+v, %v", res, err)
			}
		})
	}
}

func TestInteropServerEverythingRequestsDuringCalls(t *testing.T) {
	endpoint := serveEverything(t)
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(era, func(t *testing.T) {
			rec := &everythingClient{}
			cs := connectHTTP(t, endpoint, rec.client(true), era)
			ctx := context.Background()

			// Sampling: the tool's request reaches this client's handler.
			var text string
			eventually(t, "the sampling tool", 60*time.Second, func() error {
				var res *mcp.CallToolResult
				var err error
				text, res, err = callTool(ctx, cs, "everything__trigger-sampling-request", map[string]any{"prompt": "Say hello", "maxTokens": 20}, nil)
				if err != nil {
					return err
				}
				if res.IsError {
					return fmt.Errorf("%s", text)
				}
				return nil
			})
			if !strings.Contains(text, "the test client's model answers") || !strings.Contains(text, "interop-model") {
				t.Errorf("sampling result: %s", text)
			}
			// Elicitation: the form reaches this client, its answer the server.
			text, res, err := callTool(ctx, cs, "everything__trigger-elicitation-request", map[string]any{}, nil)
			if err != nil || res.IsError || !strings.Contains(text, "Name: Ada Lovelace") {
				t.Errorf("elicitation result: %q, %v", text, err)
			}
			if asked := rec.seen(&rec.asked); len(asked) != 2 {
				t.Errorf("the client was asked %v", asked)
			}
			// Progress comes under this client's own token.
			text, res, err = callTool(ctx, cs, "everything__trigger-long-running-operation", map[string]any{"duration": 1, "steps": 2}, "interop-token")
			if err != nil || res.IsError || !strings.Contains(text, "Long running operation completed") {
				t.Errorf("long-running operation: %q, %v", text, err)
			}
			// The client may handle the last notification after the result.
			eventually(t, "progress", 5*time.Second, func() error {
				if got := rec.seen(&rec.progress); !slices.Equal(got, []string{"interop-token:1/2", "interop-token:2/2"}) {
					return fmt.Errorf("progress = %v", got)
				}
				return nil
			})
		})
	}
}

func TestInteropServerEverythingLoggingSubscriptionsAndMissingCapabilities(t *testing.T) {
	endpoint := serveEverything(t)
	rec := &everythingClient{}
	cs := connectHTTP(t, endpoint, rec.client(true), "2025-11-25")
	ctx := context.Background()
	eventually(t, "server-everything active", 60*time.Second, func() error {
		_, res, err := callTool(ctx, cs, "everything__echo", map[string]any{"message": "up?"}, nil)
		if err == nil && res.IsError {
			err = fmt.Errorf("%v", res.Content)
		}
		return err
	})

	// Logging: the level set here reaches the server; its messages this
	// client.
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Fatal(err)
	}
	if _, res, err := callTool(ctx, cs, "everything__toggle-simulated-logging", map[string]any{}, nil); err != nil || res.IsError {
		t.Fatalf("toggle logging: %+v, %v", res, err)
	}
	eventually(t, "a log message", 20*time.Second, func() error {
		for _, l := range rec.seen(&rec.logs) {
			if strings.Contains(l, "-level message") || strings.Contains(l, "level-message") {
				return nil
			}
		}
		return fmt.Errorf("logs so far: %v", rec.seen(&rec.logs))
	})
	if logs := rec.seen(&rec.logs); !strings.Contains(strings.Join(logs, "\n"), " everything") {
		t.Errorf("logs do not name the server: %v", logs)
	}

	// A subscription gets the updates of its resource.
	const uri = "demo://resource/dynamic/text/1"
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	if _, res, err := callTool(ctx, cs, "everything__toggle-subscriber-updates", map[string]any{}, nil); err != nil || res.IsError {
		t.Fatalf("toggle updates: %+v, %v", res, err)
	}
	eventually(t, "a resource update", 20*time.Second, func() error {
		if slices.Contains(rec.seen(&rec.updates), uri) {
			return nil
		}
		return fmt.Errorf("updates so far: %v", rec.seen(&rec.updates))
	})

	// A client without sampling or elicitation: the server's request fails
	// at once with the protocol's error, and so does the call.
	bare := connectHTTP(t, endpoint, (&everythingClient{}).client(false), "2025-11-25")
	for _, tool := range []string{"everything__trigger-sampling-request", "everything__trigger-elicitation-request"} {
		start := time.Now()
		text, res, err := callTool(ctx, bare, tool, map[string]any{"prompt": "hi"}, nil)
		took := time.Since(start)
		if err != nil || !res.IsError || !strings.Contains(strings.ToLower(text), "does not support") && !strings.Contains(text, "-32601") && !strings.Contains(strings.ToLower(text), "method not found") {
			t.Errorf("%s without the capability: %q, %v", tool, text, err)
		}
		if took > 10*time.Second {
			t.Errorf("%s without the capability took %v: it must fail at once", tool, took)
		}
	}
	if got := rec.seen(&rec.asked); len(got) != 0 {
		t.Errorf("the capable client was asked on the bare client's behalf: %v", got)
	}
}
