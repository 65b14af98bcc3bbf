package upstream

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// waitLimit bounds every wait; it is generous because nothing in the tests
// depends on timing, only on order.
const waitLimit = 20 * time.Second

// fakeServer is an in-process upstream reached over in-memory transports.
type fakeServer struct {
	*mcp.Server

	mu       sync.Mutex
	dials    int
	sessions []*mcp.ServerSession
	listGate chan struct{} // when set, tools/list waits until it is closed
	dialErr  error         // when set, dialling fails
	initGate chan struct{} // when set, connecting waits until it is closed
	pingGate chan struct{} // when set, pings wait until it is closed
}

func newFakeServer(opts *mcp.ServerOptions) *fakeServer {
	f := &fakeServer{Server: mcp.NewServer(&mcp.Implementation{Name: "fake", Version: "v1"}, opts)}
	f.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			f.mu.Lock()
			var gate chan struct{}
			switch method {
			case "tools/list":
				gate = f.listGate
			case "initialize", "server/discover":
				gate = f.initGate
			case "ping":
				gate = f.pingGate
			}
			f.mu.Unlock()
			if gate != nil {
				select {
				case <-gate:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			return next(ctx, method, req)
		}
	})
	return f
}

func (f *fakeServer) dial(ctx context.Context) (mcp.Transport, error) {
	f.mu.Lock()
	err := f.dialErr
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, err := f.Connect(ctx, serverT, nil)
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.dials++
	f.sessions = append(f.sessions, ss)
	return clientT, nil
}

func (f *fakeServer) dialCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.dials
}

// crash closes the server end of the latest connection.
func (f *fakeServer) crash() {
	f.mu.Lock()
	ss := f.sessions[len(f.sessions)-1]
	f.mu.Unlock()
	ss.Close()
}

func (f *fakeServer) gateList(gate chan struct{}) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.listGate = gate
}

func (f *fakeServer) gatePing(gate chan struct{}) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pingGate = gate
}

// addEcho adds a tool that answers with its name and arguments.
func (f *fakeServer) addEcho(name, desc string) {
	f.AddTool(&mcp.Tool{Name: name, Description: desc, InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%s %s", name, req.Params.Arguments)}}}, nil
		})
}

type testEnv struct {
	t       *testing.T
	catalog *catalog.Catalog
	opts    Options
	fakes   map[string]*fakeServer
}

func newEnv(t *testing.T) *testEnv {
	e := &testEnv{t: t, catalog: catalog.New(), fakes: map[string]*fakeServer{}}
	e.opts = Options{
		Catalog:  e.catalog,
		Settings: map[string]Settings{},
		CacheDir: t.TempDir(),
		Logger:   testLogger(t),
		Dial: func(ctx context.Context, cfg ServerConfig) (mcp.Transport, error) {
			f, ok := e.fakes[cfg.Name]
			if !ok {
				return nil, fmt.Errorf("no fake server %q", cfg.Name)
			}
			return f.dial(ctx)
		},
	}
	return e
}

func testLogger(t *testing.T) *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug})).With("test", t.Name())
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// add configures a fake server named name.
func (e *testEnv) add(name string, opts *mcp.ServerOptions) *fakeServer {
	f := newFakeServer(opts)
	e.fakes[name] = f
	return f
}

func (e *testEnv) configs() []ServerConfig {
	var out []ServerConfig
	for name := range e.fakes {
		out = append(out, ServerConfig{Name: name, Type: TypeStdio, Command: "fake-" + name})
	}
	return out
}

// start makes and starts a Manager over the fake servers, closed at the
// end of the test.
func (e *testEnv) start() *Manager {
	m := New(e.configs(), e.opts)
	m.firstBackoff = time.Millisecond
	m.Start(context.Background())
	e.t.Cleanup(func() { m.Close() })
	return m
}

// waitSource waits until the named source satisfies cond and returns it.
func waitSource(t *testing.T, c *catalog.Catalog, name, what string, cond func(*catalog.Source) bool) *catalog.Source {
	t.Helper()
	found := make(chan *catalog.Source, 1)
	check := func(s *catalog.Snapshot) {
		if src, ok := s.Source(name); ok && cond(src) {
			select {
			case found <- src:
			default:
			}
		}
	}
	defer c.Subscribe(func(_, s *catalog.Snapshot) { check(s) })()
	check(c.Snapshot())
	select {
	case src := <-found:
		return src
	case <-time.After(waitLimit):
		src, _ := c.Snapshot().Source(name)
		t.Fatalf("%s: gave up waiting for %s; source is %+v", name, what, src)
		return nil
	}
}

func inState(st catalog.State) func(*catalog.Source) bool {
	return func(s *catalog.Source) bool { return s.State == st }
}

func entryNames(src *catalog.Source) []string {
	var names []string
	for _, e := range src.Entries {
		names = append(names, e.Name)
	}
	return names
}

func textOf(res *mcp.CallToolResult) string {
	var s string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			s += tc.Text
		}
	}
	return s
}

// recv waits for a value on c.
func recv[T any](t *testing.T, c <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(waitLimit):
		t.Fatalf("gave up waiting for %s", what)
		var zero T
		return zero
	}
}
