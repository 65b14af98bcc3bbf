package web

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// CallbackPath is where the HTTP server receives the authorization
// server's redirects back, for logins started from the status page or
// from a session: the redirect URI is http://HOST/oauth/callback.
const CallbackPath = "/oauth/callback"

// loginStart bounds how long the status page waits for a login to reach
// its authorization page (discovery and registration come first).
const loginStart = 30 * time.Second

// logins serves the status page's "Log in" buttons: POST /oauth/login
// starts a login and answers with the authorization page's URL, which
// the page opens; the authorization server then sends the browser back to
// CallbackPath on this server, and the login finishes in the background
// (the page sees the server become active).
type logins struct {
	o       Options
	log     *slog.Logger
	running sync.Map // server name -> struct{}: one login per server at a time
}

// addLogin serves the login routes when o allows logins, and reports
// whether the status page offers the shared ones: the callback, POST
// /oauth/login, and with o.People each person's own page (loginperson.go).
func addLogin(mux *http.ServeMux, o Options, log *slog.Logger) bool {
	if o.Callbacks == nil || (o.Login == nil && o.People == nil) {
		return false
	}
	l := &logins{o: o, log: log}
	mux.Handle("GET "+CallbackPath, o.Callbacks)
	mux.HandleFunc("POST /oauth/login", l.start)
	if o.People != nil {
		mux.HandleFunc("GET "+LoginPagePath, l.servePage)
		mux.HandleFunc("GET /login.json", l.serveMine)
	}
	return o.Login != nil
}

func (l *logins) start(w http.ResponseWriter, r *http.Request) {
	req, ok := decodeLoginRequest(w, r)
	if !ok {
		return
	}
	// Without a token the server listens on loopback only: a request
	// naming another host came through a rebound DNS name.
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		host = r.Host
	}
	if l.o.Token == "" && !isLoopbackHost(host) {
		http.Error(w, "Forbidden: logins start from a loopback address", http.StatusForbidden)
		return
	}
	switch {
	case req.Person && l.o.People != nil:
		l.startPerson(w, r, req.Server)
		return
	case req.Person:
		writeJSON(w, map[string]string{"error": "this server takes no person's own login"})
		return
	case !fullAccess(r):
		http.Error(w, "Forbidden: this token may start only its own logins (\"person\": true); the shared ones are the operator's", http.StatusForbidden)
		return
	case l.o.Login == nil:
		writeJSON(w, map[string]string{"error": "this server takes no shared login"})
		return
	}
	if _, busy := l.running.LoadOrStore(req.Server, struct{}{}); busy {
		writeJSON(w, map[string]string{"error": "a login to " + req.Server + " is already under way: finish it in the page it opened"})
		return
	}
	shown := make(chan string, 1)
	p := &oauth.Prompter{
		RedirectURL: "http://" + r.Host + CallbackPath,
		Callbacks:   l.o.Callbacks,
		Show: func(_ context.Context, _, authURL string) error {
			shown <- authURL
			return nil
		},
	}
	failed := make(chan error, 1)
	go func() {
		defer l.running.Delete(req.Server)
		// The login outlives this request: it ends when the browser comes
		// back, or when the prompter stops waiting.
		ctx, cancel := context.WithTimeout(context.Background(), oauth.DefaultWait+time.Minute)
		defer cancel()
		if err := l.o.Login(ctx, req.Server, p); err != nil {
			l.log.Warn("login from the status page failed", "server", req.Server, "err", err)
			failed <- err
		}
	}()
	select {
	case u := <-shown:
		writeJSON(w, map[string]string{"url": u})
	case err := <-failed:
		writeJSON(w, map[string]string{"error": err.Error()})
	case <-time.After(loginStart):
		writeJSON(w, map[string]string{"error": "the authorization server did not answer in time"})
	case <-r.Context().Done():
	}
}

// tokenExempt reports whether a request is served without the bearer
// token: the authorization server's redirect to the callback cannot carry
// it, and the callback takes nothing but a code for a login this server
// started. The other checks still apply.
// The page of a person's own logins is served without it too: it holds
// nothing of anybody, and asks for the token its data is fetched with.
func tokenExempt(r *http.Request) bool {
	return r.Method == http.MethodGet && (r.URL.Path == CallbackPath || r.URL.Path == LoginPagePath)
}
