package upstream

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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
		return &mcp.CommandTransport{Command: cmd, TerminateDuration: stopGrace}, cmd, nil
	case TypeHTTP:
		return &mcp.StreamableClientTransport{Endpoint: cfg.URL, HTTPClient: httpClient(cfg.URL, cfg.Headers)}, nil, nil
	case TypeSSE:
		return &mcp.SSEClientTransport{Endpoint: cfg.URL, HTTPClient: httpClient(cfg.URL, cfg.Headers)}, nil, nil
	}
	return nil, nil, fmt.Errorf("unknown transport %q", cfg.Type)
}

// httpClient returns the client for a server at endpoint: one that adds the
// configured headers to its requests to the endpoint's origin.
func httpClient(endpoint string, headers map[string]string) *http.Client {
	if len(headers) == 0 {
		return nil // http.DefaultClient
	}
	origin, _ := url.Parse(endpoint) // LoadConfig checked it
	return &http.Client{Transport: &headerTransport{base: http.DefaultTransport, origin: origin, headers: headers}}
}

// headerTransport adds the configured headers (an Authorization token,
// usually) to every request to the configured origin, and to no other:
// a redirect, or an SSE server naming its message endpoint, may send
// requests anywhere, and the headers are credentials for the configured
// server only. (Go's client drops Authorization on a redirect to another
// host by itself, but the transport adds headers after it has decided.)
// Headers the SDK sets itself win: they carry the protocol (session id,
// accepted content types).
type headerTransport struct {
	base    http.RoundTripper
	origin  *url.URL
	headers map[string]string
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.origin == nil || !sameOrigin(req.URL, t.origin) {
		return t.base.RoundTrip(req)
	}
	req = req.Clone(req.Context()) // a RoundTripper must not modify the request
	for k, v := range t.headers {
		if req.Header.Get(k) == "" {
			req.Header.Set(k, v)
		}
	}
	return t.base.RoundTrip(req)
}

// sameOrigin reports whether two URLs have the same scheme, host and port,
// a missing port being the scheme's default.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}
