package upstream

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// rawServer answers MCP over an in-memory transport from canned pages, as a
// server of protocol 2025-06-18 does, so that its listings take the way of
// listingTransport (the SDK's own servers speak 2026-07-28).
func rawServer(t *testing.T, pages []string) func(context.Context, ServerConfig) (mcp.Transport, error) {
	return func(ctx context.Context, _ ServerConfig) (mcp.Transport, error) {
		serverT, clientT := mcp.NewInMemoryTransports()
		conn, err := serverT.Connect(ctx)
		if err != nil {
			return nil, err
		}
		go func() {
			defer conn.Close()
			for {
				msg, err := conn.Read(context.Background())
				if err != nil {
					return
				}
				req, ok := msg.(*jsonrpc.Request)
				if !ok || !req.ID.IsValid() {
					continue
				}
				result := `{}`
				switch req.Method {
				case "initialize":
					result = `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"1"}}`
				case "tools/list":
					var p struct{ Cursor string }
					json.Unmarshal(req.Params, &p)
					n, _ := strconv.Atoi(p.Cursor)
					result = pages[n]
				}
				if conn.Write(context.Background(), &jsonrpc.Response{ID: req.ID, Result: json.RawMessage(result)}) != nil {
					return
				}
			}
		}()
		return clientT, nil
	}
}

// Pages read before the client keep their schemas as the server wrote them
// (the client would decode them into maps and sort their keys), and come
// out otherwise as the client gives them: null tools left out, tools with a
// bad x-mcp-header annotation refused.
func TestListingReadAsWritten(t *testing.T) {
	pages := []string{
		`{"tools":[{"name":"b_first","description":"Keys as written.","inputSchema":{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"number","default":1.50}}}},null],"nextCursor":"1"}`,
		`{"tools":[{"name":"headers","inputSchema":{"type":"object","properties":{"x":{"type":"object","x-mcp-header":"X-Bad"}}}},{"name":"fine","inputSchema":{"type":"object"}}],"nextCursor":"2"}`,
		`{"tools":[{"name":"last","inputSchema":{ "type" : "object" },"outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}]}`,
	}
	e := newEnv(t)
	e.add("raw", nil)
	e.opts.Dial = rawServer(t, pages)
	e.start()
	src := waitSource(t, e.catalog, "raw", "active", inState(catalog.StateActive))
	if got := entryNames(src); !slices.Equal(got, []string{"raw__b_first", "raw__fine", "raw__last"}) {
		t.Fatalf("entries = %v, want the null tool and the bad header left out", got)
	}
	schemas := map[string]string{}
	for _, en := range src.Entries {
		raw, ok := en.Tool.InputSchema.(json.RawMessage)
		if !ok {
			t.Fatalf("%s: schema is %T, want JSON", en.Name, en.Tool.InputSchema)
		}
		schemas[en.Name] = string(raw)
	}
	want := map[string]string{
		"raw__b_first": `{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"number","default":1.50}}}`,
		"raw__fine":    `{"type":"object"}`,
		"raw__last":    `{"type":"object"}`,
	}
	for name, w := range want {
		if schemas[name] != w {
			t.Errorf("%s: schema %s, want %s", name, schemas[name], w)
		}
	}
	last := src.Entries[2]
	if last.Tool.Annotations == nil || !last.Tool.Annotations.ReadOnlyHint || fmt.Sprint(last.Tool.OutputSchema) == "<nil>" {
		t.Errorf("last tool lost fields: %+v", last.Tool)
	}
}

// A streamable HTTP server of a protocol before 2026-07-28 gets, after
// initialization, the protocol version on every request and a GET that
// opens the stream its own requests and notifications travel on. A
// connection wrapped to read listings hid both from the SDK.
func TestStreamableSessionReachesTheClient(t *testing.T) {
	var (
		mu       sync.Mutex
		versions = map[string]string{} // method: MCP-Protocol-Version sent with it
		opened   = make(chan struct{})
		once     sync.Once
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet:
			once.Do(func() { close(opened) })
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		case http.MethodDelete:
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		versions[req.Method] = r.Header.Get("Mcp-Protocol-Version")
		mu.Unlock()
		w.Header().Set("Mcp-Session-Id", "s1")
		if req.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		result := `{}`
		switch req.Method {
		case "initialize":
			result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"old","version":"1"}}`
		case "tools/list":
			result = `{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}`
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
	}))
	defer srv.Close()

	m := New([]ServerConfig{{Name: "old", Type: TypeHTTP, URL: srv.URL}}, Options{Catalog: catalog.New(), CacheDir: t.TempDir(), Logger: testLogger(t)})
	m.Start(context.Background())
	defer m.Close()
	waitSource(t, m.opts.Catalog, "old", "active", inState(catalog.StateActive))
	select {
	case <-opened:
	case <-time.After(10 * time.Second):
		t.Error("the client never opened the stream for the server's own messages (GET)")
	}
	mu.Lock()
	defer mu.Unlock()
	if v := versions["tools/list"]; v != "2025-11-25" {
		t.Errorf("tools/list sent MCP-Protocol-Version %q, want the negotiated 2025-11-25", v)
	}
}

// A server that pages on without listing anything, or names the page it
// just gave, is not paged forever: it fails, saying why. A few empty pages
// in a row, as a server that filters its pages may give, are read through.
func TestListingEndsAtEmptyOrRepeatedPages(t *testing.T) {
	first := `{"tools":[{"name":"first","inputSchema":{"type":"object"}}],"nextCursor":"1"}`
	tests := []struct {
		name    string
		page    func(n int) string
		wantErr string // "" for active with first and last
	}{
		{"empty pages without end", func(n int) string {
			if n == 0 {
				return first
			}
			return fmt.Sprintf(`{"tools":[],"nextCursor":"%d"}`, n%999+1) // 1 to 999, round and round
		}, "pages of no tools in a row"},
		{"the same page again", func(n int) string {
			return `{"tools":[{"name":"first","inputSchema":{"type":"object"}}],"nextCursor":"0"}`
		}, "named the page of tools it had just given"},
		{"a few empty pages", func(n int) string {
			switch {
			case n == 0:
				return first
			case n < 5:
				return fmt.Sprintf(`{"tools":[],"nextCursor":"%d"}`, n+1)
			}
			return `{"tools":[{"name":"last","inputSchema":{"type":"object"}}]}`
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pages := make([]string, 1000)
			for i := range pages {
				pages[i] = tt.page(i)
			}
			e := newEnv(t)
			e.add("raw", nil)
			e.opts.Dial = rawServer(t, pages)
			e.start()
			if tt.wantErr != "" {
				src := waitSource(t, e.catalog, "raw", "failed", inState(catalog.StateFailed))
				if !strings.Contains(src.LastError, tt.wantErr) {
					t.Errorf("LastError = %q, want it to say %q", src.LastError, tt.wantErr)
				}
				return
			}
			src := waitSource(t, e.catalog, "raw", "active", inState(catalog.StateActive))
			if got := entryNames(src); !slices.Equal(got, []string{"raw__first", "raw__last"}) {
				t.Errorf("entries = %v, want first and last", got)
			}
		})
	}
}
