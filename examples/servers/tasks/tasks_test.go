package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestRefusesWithoutToken: a request without a token gets 401 with the
// challenge that leads a client to the metadata, which names the
// authorization server.
func TestRefusesWithoutToken(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	never := func(context.Context, string, *http.Request) (*auth.TokenInfo, error) {
		return nil, auth.ErrInvalidToken
	}
	mux.Handle("/", handler(newServer(slog.New(slog.DiscardHandler)), srv.URL, "http://as.example", never))

	resp, err := http.Post(srv.URL+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	challenge := resp.Header.Get("WWW-Authenticate")
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(challenge, `resource_metadata="`+srv.URL+`/.well-known/oauth-protected-resource/mcp"`) || !strings.Contains(challenge, `scope="tasks"`) {
		t.Errorf("%s, WWW-Authenticate %q", resp.Status, challenge)
	}
	resp, err = http.Get(srv.URL + "/.well-known/oauth-protected-resource/mcp")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `"authorization_servers":["http://as.example"]`) || !strings.Contains(string(body), `"resource":"`+srv.URL+`/mcp"`) {
		t.Errorf("metadata %s", body)
	}
}

func TestTools(t *testing.T) {
	ctx := context.Background()
	serverT, clientT := mcp.NewInMemoryTransports()
	if _, err := newServer(slog.New(slog.DiscardHandler)).Connect(ctx, serverT, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, clientT, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(name string, args map[string]any) string {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, c := range res.Content {
			b.WriteString(c.(*mcp.TextContent).Text)
		}
		return b.String()
	}
	call("add_task", map[string]any{"title": "water the plants"})
	call("add_task", map[string]any{"title": "file the taxes"})
	if got := call("complete_task", map[string]any{"id": 1}); got != "Done: 1. water the plants" {
		t.Errorf("complete_task: %q", got)
	}
	if got := call("list_tasks", map[string]any{"open": true}); got != "[ ] 2. file the taxes" {
		t.Errorf("list_tasks open: %q", got)
	}
	if got := call("complete_task", map[string]any{"id": 9}); !strings.Contains(got, "there is no task 9") {
		t.Errorf("complete_task of a missing task: %q", got)
	}
}
