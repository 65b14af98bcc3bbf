package upstream

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/supervise"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// stopGrace is how long a stdio server may take to exit once its stdin is
// closed (and again after SIGTERM) before it is killed.
const stopGrace = 2 * time.Second

// transport makes the transport for one connection attempt, authorized by
// h when it is an HTTP one. For stdio it also returns the server's process,
// which starts when the transport connects, so that the caller can find
// and stop it.
func (u *upstream) transport(ctx context.Context, stderr *stderrTail, h *oauth.Handler) (mcp.Transport, *stdioProcess, error) {
	if dial := u.m.opts.Dial; dial != nil {
		t, err := dial(ctx, u.cfg)
		return t, nil, err
	}
	cfg := u.cfg
	switch cfg.Type {
	case TypeStdio:
		cmd := exec.Command(cfg.Command, cfg.Args...)
		cmd.Dir = cfg.Cwd
		u.setMu.RLock()
		cmd.Env = inheritedEnv(os.Environ(), u.withheld)
		u.setMu.RUnlock()
		for _, k := range slices.Sorted(maps.Keys(cfg.Env)) {
			cmd.Env = append(cmd.Env, k+"="+cfg.Env[k])
		}
		// Last, so that no entry's env unsets it: a toolsearch this
		// server starts, however indirectly, knows it is nested.
		cmd.Env = append(cmd.Env, ParentEnv+"="+strconv.Itoa(os.Getpid()))
		cmd.Stderr = stderr
		// A grandchild that inherited stderr must not keep Wait (and
		// so Close) waiting for ever.
		cmd.WaitDelay = stopGrace
		// What the server starts (npx starts node, go run the built
		// program) is stopped with it: in its process group, and where
		// the system allows (Linux, Windows), even if it left the group
		// and even if toolsearch is killed. On Linux every server runs
		// under one supervisor, whose grace is shorter than stopGrace,
		// so that it has stopped everything before it is told to kill.
		p := &stdioProcess{cmd: cmd, opts: supervise.Options{Grace: stopGrace / 2}}
		return &stdioTransport{p: p, terminate: stopGrace}, p, nil
	case TypeHTTP, TypeSSE:
		return httpTransport(cfg, h), nil, nil
	}
	return nil, nil, fmt.Errorf("unknown transport %q", cfg.Type)
}

// httpTransport is the transport of an HTTP or SSE server, authorized by h:
// the shared connection's and each person's.
func httpTransport(cfg ServerConfig, h *oauth.Handler) mcp.Transport {
	if cfg.Type == TypeSSE {
		return withOAuth(&mcp.SSEClientTransport{Endpoint: cfg.URL, HTTPClient: httpClient(cfg.URL, cfg.Headers)}, h)
	}
	return withOAuth(&mcp.StreamableClientTransport{Endpoint: cfg.URL, HTTPClient: httpClient(cfg.URL, cfg.Headers)}, h)
}

// httpClient returns the client for a server at endpoint: one that adds the
// configured headers to its requests to the endpoint's origin, follows no
// redirect away from that origin, and reads at most maxMessageBytes of a
// response that is not an event stream.
func httpClient(endpoint string, headers map[string]string) *http.Client {
	origin, _ := url.Parse(endpoint) // LoadConfig checked it
	var rt http.RoundTripper = cappedTransport{http.DefaultTransport}
	if len(headers) > 0 {
		rt = &headerTransport{base: rt, origin: origin, headers: headers}
	}
	return &http.Client{Transport: rt, CheckRedirect: stayHome(origin)}
}

// maxRedirects is how many redirects within its origin a request follows,
// as many as Go's client does.
const maxRedirects = 10

// stayHome is the redirect policy of a server's connection: a redirect to
// another origin (scheme, host or port) ends the request. Go's client
// copies Authorization and Cookie to a redirect whose host is the same
// whatever its port, and the SDK sets the OAuth token on the request
// itself, so a 307 to another port received the token, with the bodies:
// following no redirect away keeps every credential (a token, a configured
// header, a cookie) and every message at the configured server, and keeps
// a login from starting for an origin nobody configured.
func stayHome(origin *url.URL) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) >= maxRedirects {
			return fmt.Errorf("stopped after %d redirects", maxRedirects)
		}
		if origin == nil || !oauth.SameOrigin(req.URL, origin) {
			return &RedirectError{To: req.URL.Scheme + "://" + req.URL.Host}
		}
		return nil
	}
}

// RedirectError is the error of a request that a server redirected to
// another origin.
type RedirectError struct {
	To string // the origin redirected to
}

func (e *RedirectError) Error() string {
	return fmt.Sprintf("the server redirected to %s, another origin than the configured one: toolsearch sends a server's requests, "+
		"and the credentials they carry, to the configured origin only; if the server now lives there, put its URL in the configuration", e.To)
}

// maxMessageBytes bounds one message of an HTTP server: the bound the SDK
// puts on a line of a stdio server and on a server-sent event.
const maxMessageBytes = mcp.DefaultMaxLineLength

// cappedTransport bounds the body of every response but an event stream
// (whose events the SDK bounds one by one): the SDK reads a JSON answer,
// or an error's body, whole, and a server could send gigabytes.
type cappedTransport struct{ base http.RoundTripper }

func (t cappedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	if ct, _, _ := strings.Cut(resp.Header.Get("Content-Type"), ";"); !strings.EqualFold(strings.TrimSpace(ct), "text/event-stream") {
		resp.Body = &cappedBody{ReadCloser: resp.Body, left: maxMessageBytes}
	}
	return resp, nil
}

// errMessageTooLarge ends the reading of a response over maxMessageBytes.
var errMessageTooLarge = fmt.Errorf("the server's answer is larger than %d MiB, the most toolsearch reads of one message", maxMessageBytes>>20)

type cappedBody struct {
	io.ReadCloser
	left int64 // bytes that may still be read
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, errMessageTooLarge
	}
	// Read one byte past the bound, to tell a body of exactly the bound
	// from a longer one.
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	if int64(n) > b.left {
		n, b.left = int(b.left), -1
		return n, errMessageTooLarge
	}
	b.left -= int64(n)
	return n, err
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
	if t.origin == nil || !oauth.SameOrigin(req.URL, t.origin) {
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

// ParentEnv is set, to toolsearch's process ID, in the environment of
// every stdio server it starts: a toolsearch that finds it there was
// started by another, through whatever wrapper or shell, and starts no
// stdio server itself (see cmd/toolsearch's nested.go).
const ParentEnv = "TOOLSEARCH_PARENT_PID"

// privateEnv are toolsearch's own secrets, which no server inherits.
var privateEnv = []string{"TOOLSEARCH_TOKEN"}

// commonEnv are variables every program may need, never withheld even when
// an entry names them (as in "${PATH}:/opt/bin"); so are LC_*.
var commonEnv = map[string]bool{
	"PATH": true, "HOME": true, "USER": true, "LOGNAME": true, "SHELL": true, "LANG": true, "TZ": true,
	"TMPDIR": true, "TEMP": true, "TMP": true, "TERM": true, "PWD": true,
	"SYSTEMROOT": true, "WINDIR": true, "COMSPEC": true, "PATHEXT": true, "USERPROFILE": true, "APPDATA": true, "LOCALAPPDATA": true,
}

// withheldEnv returns the variables of toolsearch's environment that the
// server of self must not inherit: toolsearch's secrets, and those the other
// entries name, except those self names itself.
func withheldEnv(self ServerConfig, all []ServerConfig, extra []string) map[string]bool {
	w := map[string]bool{}
	for _, name := range slices.Concat(privateEnv, extra) {
		w[name] = true
	}
	for _, cfg := range all {
		if cfg.Name == self.Name {
			continue
		}
		for _, name := range cfg.Vars {
			if !commonEnv[strings.ToUpper(name)] && !strings.HasPrefix(name, "LC_") {
				w[name] = true
			}
		}
	}
	for _, name := range self.Vars {
		delete(w, name)
	}
	return w
}

// inheritedEnv returns env (KEY=value lines) without the withheld variables.
func inheritedEnv(env []string, withheld map[string]bool) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); !withheld[k] {
			out = append(out, kv)
		}
	}
	return out
}
