package upstream

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/supervise"
)

// stopGrace is how long a stdio server may take to exit once its stdin is
// closed (and again after SIGTERM) before it is killed.
const stopGrace = 2 * time.Second

// transport makes the transport for one connection attempt. For stdio it
// also returns the command, which is not started yet, so that the caller
// can find and stop its process.
func (u *upstream) transport(ctx context.Context, stderr *stderrTail) (mcp.Transport, *exec.Cmd, error) {
	if dial := u.m.opts.Dial; dial != nil {
		t, err := dial(ctx, u.cfg)
		return t, nil, err
	}
	cfg := u.cfg
	switch cfg.Type {
	case TypeStdio:
		cmd := exec.Command(cfg.Command, cfg.Args...)
		cmd.Dir = cfg.Cwd
		cmd.Env = os.Environ()
		for _, k := range slices.Sorted(maps.Keys(cfg.Env)) {
			cmd.Env = append(cmd.Env, k+"="+cfg.Env[k])
		}
		cmd.Stderr = stderr
		// A grandchild that inherited stderr must not keep Wait (and
		// so Close) waiting for ever.
		cmd.WaitDelay = stopGrace
		ownProcessGroup(cmd)
		// Where it can, a supervisor runs the server, so that what it
		// starts ends with it even if it left the process group, and it
		// ends even if toolsearch is killed. The supervisor's grace is
		// shorter than stopGrace, so that it has stopped everything
		// before the transport would kill it.
		if _, err := supervise.Wrap(cmd, supervise.Options{Grace: stopGrace / 2}); err != nil {
			return nil, nil, err
		}
		return &mcp.CommandTransport{Command: cmd, TerminateDuration: stopGrace}, cmd, nil
	case TypeHTTP:
		return &mcp.StreamableClientTransport{Endpoint: cfg.URL, HTTPClient: httpClient(cfg.Headers)}, nil, nil
	case TypeSSE:
		return &mcp.SSEClientTransport{Endpoint: cfg.URL, HTTPClient: httpClient(cfg.Headers)}, nil, nil
	}
	return nil, nil, fmt.Errorf("unknown transport %q", cfg.Type)
}

func httpClient(headers map[string]string) *http.Client {
	if len(headers) == 0 {
		return nil // http.DefaultClient
	}
	return &http.Client{Transport: &headerTransport{base: http.DefaultTransport, headers: headers}}
}

// headerTransport adds the configured headers (an Authorization token,
// usually) to every request. Headers the SDK sets itself win: they carry
// the protocol (session id, accepted content types).
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context()) // a RoundTripper must not modify the request
	for k, v := range t.headers {
		if req.Header.Get(k) == "" {
			req.Header.Set(k, v)
		}
	}
	return t.base.RoundTrip(req)
}
