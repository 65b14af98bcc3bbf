package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/toolsearch/toolsearch/examples/servers/authserver"
)

// browserEnv makes the test binary act as a browser (see TestMain): it
// fetches the URL it is given and follows the redirects, which is what a
// person approving a login amounts to with the test authorization server.
const browserEnv = "TOOLSEARCH_TEST_BROWSER"

// runBrowser is the test binary acting as $BROWSER.
func runBrowser(url string) int {
	resp, err := http.Get(url)
	if err != nil {
		fmt.Fprintln(os.Stderr, "browser:", err)
		return 1
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte("You may close this page")) {
		fmt.Fprintf(os.Stderr, "browser: %s: %s\n", resp.Status, body)
		return 1
	}
	return 0
}

// secrets collects every secret an OAuth exchange carried, as the
// authorization server saw them: codes, verifiers, tokens, client secrets.
type secrets struct {
	mu   sync.Mutex
	seen map[string]bool
}

var secretField = regexp.MustCompile(`"(access_token|refresh_token|client_secret)":"([^"]+)"`)

func (s *secrets) add(v string) {
	if v == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen[v] = true
}

func (s *secrets) list() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for v := range s.seen {
		out = append(out, v)
	}
	return out
}

// record wraps the authorization server, noting the secrets in its
// requests and answers.
func (s *secrets) record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			form, _ := url.ParseQuery(string(body))
			for _, k := range []string{"code", "code_verifier", "refresh_token", "client_secret", "token"} {
				s.add(form.Get(k))
			}
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		for _, m := range secretField.FindAllStringSubmatch(rec.Body.String(), -1) {
			s.add(m[2])
		}
		if loc, err := url.Parse(rec.Header().Get("Location")); err == nil {
			s.add(loc.Query().Get("code"))
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
	})
}

// oauthWorld is an MCP server behind OAuth, its authorization server, and
// the files and environment of a toolsearch user.
type oauthWorld struct {
	t       *testing.T
	as      *authserver.Server
	secrets *secrets
	dir     string // the user's project: .mcp.json, toolsearch.yaml
	env     []string
	logs    bytes.Buffer // stderr of every toolsearch run
	logsMu  sync.Mutex
}

func newOAuthWorld(t *testing.T) *oauthWorld {
	w := &oauthWorld{t: t, secrets: &secrets{seen: map[string]bool{}}, dir: t.TempDir()}
	w.as = authserver.New(authserver.Options{Scopes: []string{"tasks"}})
	asSrv := httptest.NewServer(w.secrets.record(w.as))
	t.Cleanup(asSrv.Close)
	w.as.SetIssuer(asSrv.URL)

	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	server := mcp.NewServer(&mcp.Implementation{Name: "remote", Version: "v1"}, nil)
	server.AddTool(&mcp.Tool{Name: "echo", Description: "Echo a message back.", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo " + string(req.Params.Arguments)}}}, nil
		})
	const prm = "/.well-known/oauth-protected-resource/mcp"
	mux.Handle(prm, auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource: srv.URL + "/mcp", AuthorizationServers: []string{asSrv.URL}, ScopesSupported: []string{"tasks"},
	}))
	mux.Handle("/mcp", auth.RequireBearerToken(w.as.Verifier(srv.URL+"/mcp"), &auth.RequireBearerTokenOptions{ResourceMetadataURL: srv.URL + prm, Scopes: []string{"tasks"}})(
		mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)))

	writeFile(t, w.dir, ".mcp.json", fmt.Sprintf(`{"mcpServers": {"remote": {"type": "http", "url": %q}}}`, srv.URL+"/mcp"))
	writeFile(t, w.dir, "toolsearch.yaml", "logLevel: debug\nservers:\n  remote:\n    oauth:\n      scopes: [tasks]\n")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	w.env = []string{
		"XDG_CONFIG_HOME=" + filepath.Join(w.dir, "config"), "XDG_CACHE_HOME=" + filepath.Join(w.dir, "cache"),
		"BROWSER=" + self, browserEnv + "=1",
	}
	return w
}

// command makes a toolsearch command run in the project, as the user.
func (w *oauthWorld) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := toolsearch(ctx, args...)
	cmd.Dir = w.dir
	cmd.Env = append(cmd.Env, w.env...)
	return cmd
}

// run runs a toolsearch command in the project and returns its stdout.
func (w *oauthWorld) run(args ...string) (string, error) {
	w.t.Helper()
	cmd := w.command(context.Background(), args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	w.logsMu.Lock()
	w.logs.Write(stderr.Bytes())
	w.logsMu.Unlock()
	w.t.Logf("toolsearch %s\n%s%s", strings.Join(args, " "), stdout.String(), stderr.String())
	return stdout.String(), err
}

func (w *oauthWorld) tokenFiles() []string {
	files, _ := filepath.Glob(filepath.Join(w.dir, "config", "toolsearch", "oauth", "*.json"))
	return files
}

// TestOAuthEndToEnd takes a person through everything: the login from the
// command line, calls from another process with the stored tokens, the
// status, a revocation that moves the server to needs_auth while serving,
// the login again from the status page, and the logout. Nothing any of it
// prints, logs, traces or serves holds a token, secret, code or verifier.
func TestOAuthEndToEnd(t *testing.T) {
	w := newOAuthWorld(t)
	var served []string // what the HTTP server served, for the secrets check

	out, err := w.run("auth", "status")
	if err != nil || !regexp.MustCompile(`remote\s+needs login`).MatchString(out) || !strings.Contains(out, "log in with: toolsearch auth login remote --config ") {
		t.Fatalf("status before login: %v\n%s", err, out)
	}
	// Its tools are not known yet; a search says why, and what to run.
	out, err = w.run("search", "echo")
	if err != nil || !strings.Contains(out, "server remote needs a login, so its tools are not known") || !strings.Contains(out, "run toolsearch auth login remote --config "+filepath.Join(w.dir, "toolsearch.yaml")) {
		t.Fatalf("search before login: %v\n%s", err, out)
	}

	out, err = w.run("auth", "login", "remote")
	if err != nil || !strings.Contains(out, "Logged in to remote.") || !strings.Contains(out, "scopes: tasks") {
		t.Fatalf("login: %v\n%s", err, out)
	}
	files := w.tokenFiles()
	if len(files) != 1 {
		t.Fatalf("token files %q, want one", files)
	}
	if info, err := os.Stat(files[0]); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("token file %s: %v, mode %v; want 0600", files[0], err, info.Mode().Perm())
	}

	// A remote server's first listing waits for a person.
	if out, err := w.run("approve", "remote", "--connect"); err != nil || !strings.Contains(out, "approved remote__echo@") {
		t.Fatalf("approve after login: %v\n%s", err, out)
	}
	// Another process, the stored tokens.
	out, err = w.run("call", "remote__echo", "--args", `{"message": "hi"}`)
	if err != nil || !strings.Contains(out, `echo {"message":"hi"}`) {
		t.Fatalf("call after login: %v\n%s", err, out)
	}
	out, err = w.run("auth", "status")
	if err != nil || !regexp.MustCompile(`remote\s+authorized\s+\d{4}-`).MatchString(out) || !strings.Contains(out, w.as.Issuer()) {
		t.Fatalf("status after login: %v\n%s", err, out)
	}
	out, err = w.run("catalog", "--json")
	if err != nil || !strings.Contains(out, `"remote__echo"`) {
		t.Fatalf("catalog: %v\n%s", err, out)
	}
	served = append(served, out)

	// Serving over HTTP, with a trace.
	addr := freeAddr(t)
	trace := filepath.Join(w.dir, "trace.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	serve := w.command(ctx, "serve", "--config", "toolsearch.yaml", "--http", addr, "--trace", trace, "--trace-args")
	serveLog := &lockedBuffer{}
	serve.Stderr = io.MultiWriter(serveLog, &testLog{t: t})
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		serve.Process.Signal(os.Interrupt)
		serve.Wait()
	}()
	base := "http://" + addr
	get := func(path string) string {
		t.Helper()
		resp, err := http.Get(base + path)
		if err != nil {
			return "" // not listening yet
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		served = append(served, string(body))
		return string(body)
	}
	waitFor(t, "the server active", func() bool { return strings.Contains(get("/readyz"), `"remote":"active"`) })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp"}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func() string {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "call_tool", Arguments: map[string]any{"name": "remote__echo", "arguments": map[string]any{"message": "served"}}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	if got := call(); got != `echo {"message":"served"}` {
		t.Fatalf("served call: %q", got)
	}

	// The authorization server revokes everything: the server needs a
	// login, says so, and keeps its tools.
	w.as.RevokeAll()
	if got := call(); !strings.HasPrefix(got, "auth_required: server remote needs a login") {
		t.Fatalf("call after revocation: %q", got)
	}
	waitFor(t, "needs_auth", func() bool { return strings.Contains(get("/readyz"), `"remote":"needs_auth"`) })
	var st struct {
		Catalog struct {
			Sources []struct{ Name, State, LastError string }
			Entries []struct{ Name string }
		}
		Logins []string
	}
	json.Unmarshal([]byte(get("/status.json")), &st)
	if len(st.Logins) != 1 || st.Logins[0] != "remote" || len(st.Catalog.Entries) == 0 {
		t.Fatalf("status page data after revocation: %+v", st)
	}

	// The status page's "Log in": the authorization page comes back to
	// this server, which then serves the tools again.
	req, _ := http.NewRequest(http.MethodPost, base+"/oauth/login", strings.NewReader(`{"server":"remote"}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var started struct{ URL, Error string }
	json.NewDecoder(resp.Body).Decode(&started)
	resp.Body.Close()
	if started.URL == "" {
		t.Fatalf("POST /oauth/login: %+v", started)
	}
	if code := runBrowser(started.URL); code != 0 {
		t.Fatal("the authorization page did not come back to the server's callback")
	}
	waitFor(t, "active after the login", func() bool { return strings.Contains(get("/readyz"), `"remote":"active"`) })
	if got := call(); got != `echo {"message":"served"}` {
		t.Fatalf("call after logging in again: %q", got)
	}
	get("/")
	serve.Process.Signal(os.Interrupt)
	serve.Wait()

	out, err = w.run("auth", "logout", "remote")
	if err != nil || !strings.Contains(out, "Logged out of remote: its tokens were revoked at "+w.as.Issuer()+"/revoke and forgotten.") {
		t.Fatalf("logout: %v\n%s", err, out)
	}
	if files := w.tokenFiles(); len(files) != 0 || w.as.Stats().Revocations == 0 {
		t.Errorf("after logout: files %q, %d revocations", files, w.as.Stats().Revocations)
	}
	out, err = w.run("auth", "status", "--offline")
	if err != nil || !regexp.MustCompile(`remote\s+no login stored`).MatchString(out) {
		t.Errorf("status after logout: %v\n%s", err, out)
	}

	// Nothing printed, logged, traced or served holds a secret.
	traced, _ := os.ReadFile(trace)
	w.logsMu.Lock()
	logs := w.logs.String()
	w.logsMu.Unlock()
	outputs := map[string]string{"command logs": logs, "serve log": serveLog.String(), "trace": string(traced), "HTTP answers": strings.Join(served, "\n")}
	found := w.secrets.list()
	if len(found) < 8 {
		t.Fatalf("only %d secrets recorded: the check would prove little", len(found))
	}
	if !strings.Contains(serveLog.String(), "level=DEBUG") || len(traced) == 0 {
		t.Fatalf("no debug log or trace to check")
	}
	for name, text := range outputs {
		for _, s := range found {
			if strings.Contains(text, s) {
				t.Errorf("%s holds a secret (%d characters)", name, len(s))
			}
		}
	}
}

// TestOAuthLoginErrors: the login command's refusals name what to do.
func TestOAuthLoginErrors(t *testing.T) {
	w := newOAuthWorld(t)
	writeFile(t, w.dir, ".mcp.json", `{"mcpServers": {"local": {"command": "true"}, "remote": {"type": "http", "url": "http://127.0.0.1:1/mcp"}}}`)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"auth", "login", "nope"}, `no server "nope" in ` + filepath.Join(w.dir, ".mcp.json") + `: its HTTP and SSE servers are remote`},
		{[]string{"auth", "login", "local"}, "local is a stdio server"},
		{[]string{"auth", "login"}, "Usage: toolsearch auth login SERVER"},
	} {
		out, err := w.command(context.Background(), tc.args...).CombinedOutput()
		if err == nil || !strings.Contains(string(out), tc.want) {
			t.Errorf("toolsearch %s: %v\n%s\nwant %q", strings.Join(tc.args, " "), err, out, tc.want)
		}
	}
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
