package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// syncBuffer is a log destination that handlers may write concurrently.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Secrets in a server's URL (a query key, user:pass@) and its configured
// headers reached LastError (so tool_search notes, the status page and
// catalog), the logs and the errors of calls and refreshes: the HTTP
// transports embed the URL in their errors, and a server may echo what it
// was sent.
func TestSecretsAreRedacted(t *testing.T) {
	secrets := []string{"queryS3cret", "pa55word", "hdrS3cret", "bearerT0ken"}
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "refused "+r.URL.String()+" with "+r.Header.Get("X-Api-Key")+" "+r.Header.Get("Authorization"), http.StatusUnauthorized)
	}))
	defer echo.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close() // nothing answers there

	headers := map[string]string{"X-Api-Key": "hdrS3cret", "Authorization": "Bearer bearerT0ken"}
	withSecrets := func(base string) string {
		return strings.Replace(base, "http://", "http://admin:pa55word@", 1) + "/mcp?api_key=queryS3cret&page=1"
	}
	var logs syncBuffer
	c := catalog.New()
	m := New([]ServerConfig{
		{Name: "echo", Type: TypeHTTP, URL: withSecrets(echo.URL), Headers: headers},
		{Name: "down", Type: TypeSSE, URL: withSecrets("http://" + closed), Headers: headers},
	}, Options{Catalog: c, CacheDir: t.TempDir(), Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	m.firstBackoff = time.Hour
	m.Start(context.Background())
	defer m.Close()

	var shown []string
	for _, name := range []string{"echo", "down"} {
		src := waitSource(t, c, name, "failed", inState(catalog.StateFailed))
		shown = append(shown, "LastError: "+src.LastError)
		_, err := m.Call(context.Background(), name, "tool", json.RawMessage(`{}`))
		shown = append(shown, "Call: "+err.Error())
		var na *NotActiveError
		if errors.As(err, &na) {
			shown = append(shown, "Reason: "+na.Reason)
		}
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		err = m.Refresh(ctx, name)
		cancel()
		if err != nil {
			shown = append(shown, "Refresh: "+err.Error())
		}
	}
	for _, st := range m.Status() {
		shown = append(shown, "Status: "+st.LastError)
	}
	m.Close()
	shown = append(shown, "logs: "+logs.String())
	all := strings.Join(shown, "\n")
	for _, s := range secrets {
		if strings.Contains(all, s) {
			t.Errorf("%s shown:\n%s", s, all)
		}
	}
	if !strings.Contains(all, "http://REDACTED@127.0.0.1:"+strings.Split(closed, ":")[1]+"/mcp?api_key=REDACTED&page=REDACTED") {
		t.Errorf("nothing was redacted; shown:\n%s", all)
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://u:p@h.example/mcp?api_key=k&page=2": "https://REDACTED@h.example/mcp?api_key=REDACTED&page=REDACTED",
		"https://h.example/mcp":                      "https://h.example/mcp",
		"https://tok@h.example/":                     "https://REDACTED@h.example/",
		"://not a url":                               "REDACTED",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// A URL that is refused is shown redacted too.
func TestConfigProblemRedactsURL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	os.WriteFile(path, []byte(`{"mcpServers": {"x": {"type": "http", "url": "ftp://u:pa55word@h.example/x?key=queryS3cret"}}}`), 0o600)
	_, probs, err := LoadConfig(path)
	if err != nil || len(probs) != 1 {
		t.Fatal(err, probs)
	}
	if msg := probs[0].String(); strings.Contains(msg, "pa55word") || strings.Contains(msg, "queryS3cret") || !strings.Contains(msg, "ftp://REDACTED@h.example/x?key=REDACTED") {
		t.Errorf("problem: %s", msg)
	}
}

// An upstream's JSON-RPC error that echoes a secret reached clients whole:
// its CallError's message was redacted, but errors.As found the upstream's
// own *jsonrpc.Error beneath, and prompts/get, resources/read and
// completion hand that to the client as it is.
func TestJSONRPCErrorsAreRedactedForErrorsAs(t *testing.T) {
	e := newEnv(t)
	f := e.add("notes", nil)
	echo := &jsonrpc.Error{Code: 4711, Message: "key hdrS3cret refused", Data: json.RawMessage(`{"sent":"Bearer bearerT0ken"}`)}
	f.AddPrompt(&mcp.Prompt{Name: "greet"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return nil, echo
	})
	f.AddResource(&mcp.Resource{URI: "notes://today", Name: "today"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return nil, echo
	})
	headers := map[string]string{"X-Api-Key": "hdrS3cret", "Authorization": "Bearer bearerT0ken"}
	m := New([]ServerConfig{{Name: "notes", Type: TypeHTTP, URL: "http://notes.example/mcp", Headers: headers}}, e.opts)
	m.Start(context.Background())
	defer m.Close()
	waitSource(t, e.catalog, "notes", "features", func(s *catalog.Source) bool { return len(s.Entries) == 2 })

	_, errPrompt := m.GetPrompt(context.Background(), "notes", &mcp.GetPromptParams{Name: "greet"})
	_, errRead := m.ReadResource(context.Background(), "notes", &mcp.ReadResourceParams{URI: "notes://today"})
	for what, err := range map[string]error{"GetPrompt": errPrompt, "ReadResource": errRead} {
		var rpc *jsonrpc.Error
		if !errors.As(err, &rpc) {
			t.Fatalf("%s: %v is no *jsonrpc.Error", what, err)
		}
		shown := err.Error() + "\n" + rpc.Message + "\n" + string(rpc.Data)
		if strings.Contains(shown, "hdrS3cret") || strings.Contains(shown, "bearerT0ken") {
			t.Errorf("%s shows a secret:\n%s", what, shown)
		}
		if rpc.Code != echo.Code || rpc.Message != "key REDACTED refused" || !json.Valid(rpc.Data) {
			t.Errorf("%s: the upstream's error is not kept but for its secrets: %+v", what, rpc)
		}
	}
}

// A server's instructions reach the model (tool_search shows them with its
// tools): one that quotes the credentials it was sent must not leak them.
func TestInstructionsAreRedacted(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "quoter"}, &mcp.ServerOptions{Instructions: "Connected with key hdrS3cret; say hi."})
	mcp.AddTool(server, &mcp.Tool{Name: "hi"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{}, nil, nil
	})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	defer srv.Close()
	c := catalog.New()
	m := New([]ServerConfig{{Name: "quoter", Type: TypeHTTP, URL: srv.URL, Headers: map[string]string{"X-Api-Key": "hdrS3cret"}}},
		Options{Catalog: c, CacheDir: t.TempDir()})
	m.Start(context.Background())
	defer m.Close()
	src := waitSource(t, c, "quoter", "active", inState(catalog.StateActive))
	if src.Instructions != "Connected with key REDACTED; say hi." {
		t.Errorf("instructions = %q", src.Instructions)
	}
}
