package oauth

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/toolsearch/toolsearch/internal/utf8cut"
)

// Callbacks receives the authorization server's redirects back to
// toolsearch (the redirect URI of a login) and hands each to the login
// waiting for it, by its state. A redirect nobody waits for is refused: a
// state is good for one redirect only.
//
// Callbacks is an http.Handler. A login started with a Prompter without a
// RedirectURL serves it on a loopback port of its own; `serve --http`
// mounts it on its own address instead.
type Callbacks struct {
	mu      sync.Mutex
	pending map[string]*pendingLogin
	// users completes the logins of people, kept in the shared state: a
	// redirect no login of this process waits for may be one of those,
	// begun here or on another replica.
	users     *UserLogins
	usersDone func(l *PendingLogin, err error)
}

// SetUserLogins makes the callback complete people's logins (see
// UserLogins.Complete) besides the logins this process waits for; done,
// when set, is told of each that was found, and how it ended. Call it
// before serving.
func (c *Callbacks) SetUserLogins(u *UserLogins, done func(l *PendingLogin, err error)) {
	c.users, c.usersDone = u, done
}

type pendingLogin struct {
	server string
	done   chan callbackResult // buffered: the handler never blocks
}

type callbackResult struct {
	res *auth.AuthorizationResult
	err error
}

// NewCallbacks returns a Callbacks with no login waiting.
func NewCallbacks() *Callbacks {
	return &Callbacks{pending: map[string]*pendingLogin{}}
}

// expect registers a login waiting for the redirect carrying state; stop
// unregisters it.
func (c *Callbacks) expect(state, server string) (done <-chan callbackResult, stop func()) {
	p := &pendingLogin{server: server, done: make(chan callbackResult, 1)}
	c.mu.Lock()
	c.pending[state] = p
	c.mu.Unlock()
	return p.done, func() {
		c.mu.Lock()
		if c.pending[state] == p {
			delete(c.pending, state)
		}
		c.mu.Unlock()
	}
}

// ServeHTTP answers a redirect from the authorization server: it passes
// the code (or the error) to the login waiting for its state, and tells
// the person they may close the page. Nothing of the request is logged or
// echoed: its URL carries the authorization code.
func (c *Callbacks) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	h.Set("X-Frame-Options", "DENY")
	if r.Method != http.MethodGet {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	q := r.URL.Query()
	state := q.Get("state")
	c.mu.Lock()
	p := c.pending[state]
	delete(c.pending, state)
	c.mu.Unlock()
	if p == nil && state != "" && c.users != nil {
		c.completeUser(w, r)
		return
	}
	if p == nil || state == "" {
		page(w, http.StatusBadRequest, "Login link not expected",
			"toolsearch is not waiting for this login: it may have been finished already, or timed out. Run the login again.")
		return
	}
	if e := q.Get("error"); e != "" {
		msg := e
		if d := q.Get("error_description"); d != "" {
			msg += ": " + d
		}
		if len(msg) > 300 {
			msg = utf8cut.Prefix(msg, 300) + "…"
		}
		p.done <- callbackResult{err: fmt.Errorf("the authorization server refused the login: %s", msg)}
		page(w, http.StatusOK, "Login to "+p.server+" failed",
			"The authorization server said: "+msg+". You may close this page; toolsearch reports the failure.")
		return
	}
	p.done <- callbackResult{res: &auth.AuthorizationResult{Code: q.Get("code"), State: state, Iss: q.Get("iss")}}
	page(w, http.StatusOK, "Logged in to "+p.server,
		"toolsearch received the authorization. You may close this page.")
}

// userLoginWait bounds a person's login's completion: the code exchange
// and storing the grant.
const userLoginWait = 30 * time.Second

// completeUser completes a person's login from the redirect back.
func (c *Callbacks) completeUser(w http.ResponseWriter, r *http.Request) {
	nonce := ""
	if ck, err := r.Cookie(LoginCookie); err == nil {
		nonce = ck.Value
	}
	ctx, cancel := context.WithTimeout(r.Context(), userLoginWait)
	defer cancel()
	l, err := c.users.Complete(ctx, r.URL.Query(), nonce)
	if l == nil {
		if c.users.Log != nil && !errors.Is(err, ErrNoPendingLogin) {
			c.users.Log.Warn("a login's redirect could not be completed", "err", err)
		}
		page(w, http.StatusBadRequest, "Login link not expected",
			"toolsearch is not waiting for this login: it may have been finished already, or timed out. Log in again.")
		return
	}
	if c.usersDone != nil {
		c.usersDone(l, err)
	}
	if err != nil {
		if c.users.Log != nil {
			c.users.Log.Warn("a person's login failed", "principal", l.Principal, "server", l.Server, "err", err)
		}
		page(w, http.StatusOK, "Login to "+l.Server+" failed", err.Error()+". You may close this page.")
		return
	}
	if c.users.Log != nil {
		c.users.Log.Info("a person logged in", "principal", l.Principal, "server", l.Server)
	}
	page(w, http.StatusOK, "Logged in to "+l.Server+" as "+l.Principal,
		"toolsearch received the authorization; calls to "+l.Server+" made as "+l.Principal+" use it, and no one else's. You may close this page.")
}

var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}} · toolsearch</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36em;margin:4em auto;padding:0 1em;color:#222}</style>
</head><body><h1>{{.Title}}</h1><p>{{.Text}}</p></body></html>
`))

func page(w http.ResponseWriter, status int, title, text string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_ = pageTemplate.Execute(w, struct{ Title, Text string }{title, text})
}

// listenLoopback serves cb at http://127.0.0.1:PORT/callback (port 0: a
// free one) until stop. Requests naming another host are refused, so that
// a web page cannot reach the callback through a rebound DNS name.
func listenLoopback(port int, cb *Callbacks) (redirectURL string, stop func(), err error) {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return "", nil, fmt.Errorf("listening for the login callback on 127.0.0.1:%d: %w", port, err)
	}
	addr := ln.Addr().(*net.TCPAddr)
	hostOK := map[string]bool{
		fmt.Sprintf("127.0.0.1:%d", addr.Port): true,
		fmt.Sprintf("localhost:%d", addr.Port): true,
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/callback", func(w http.ResponseWriter, r *http.Request) {
		if !hostOK[r.Host] {
			http.Error(w, "wrong host", http.StatusForbidden)
			return
		}
		cb.ServeHTTP(w, r)
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	stop = func() {
		// Let the page of the last redirect finish before closing.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}
	return fmt.Sprintf("http://127.0.0.1:%d/callback", addr.Port), stop, nil
}
