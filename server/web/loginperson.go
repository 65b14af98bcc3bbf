package web

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// People let each principal log in as themselves to the servers whose
// logins are each person's own (oauth.identity: user): GET /login is the
// page, GET /login.json what it shows (the caller's own logins, and no one
// else's), POST /oauth/login with "person": true begins the caller's
// login. Every principal reaches these, whatever their token's profile;
// the login is bound to the principal the request's token names, and the
// grant is stored under that principal's key alone.
type People struct {
	// Servers names the servers with identity: user.
	Servers func() []string
	// Needed says why principal cannot call server under their own login,
	// "" when they can.
	Needed func(server, principal string) string
	// Begin starts principal's login to server and returns the
	// authorization page; the redirect comes back to redirectURL, and
	// nonce binds it to the browser that holds it (oauth.LoginCookie).
	Begin func(ctx context.Context, server, principal, redirectURL, nonce string) (string, error)
	// PublicURL, when set, is the address people reach this server at
	// (scheme://host[:port], behind a load balancer say), for the redirect
	// back; otherwise the request's own host, over http.
	PublicURL string
}

// LoginPagePath is the page where a person logs in as themselves.
const LoginPagePath = "/login"

//go:embed loginperson.html
var loginPage []byte

// personalPath reports whether every principal may reach path: their own
// logins' page, its data and the start of a login (which starts only the
// caller's own unless their token may reach everything).
func personalPath(path string) bool {
	return path == LoginPagePath || path == "/login.json" || path == "/oauth/login"
}

// fullAccess reports whether the request's token reaches everything (the
// operator's, or a token of http.tokens without a profile): it may start
// the shared logins.
func fullAccess(r *http.Request) bool {
	id := callerOf(r)
	return id.profile == "" && !id.person
}

// personLogin is one server on a person's page.
type personLogin struct {
	Server string `json:"server"`
	// Needed says why the person cannot call it yet, "" when they can.
	Needed string `json:"needed,omitempty"`
}

// servePage serves the page, which holds nothing of anybody: it reads the
// person's token from its address's fragment (never sent to a server) or
// asks for it, and sends it as a bearer token.
func (l *logins) servePage(w http.ResponseWriter, _ *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	w.Write(loginPage)
}

// serveMine answers with the caller's own logins.
func (l *logins) serveMine(w http.ResponseWriter, r *http.Request) {
	who := callerOf(r).principal
	out := struct {
		Principal string        `json:"principal"`
		Logins    []personLogin `json:"logins"`
	}{Principal: who, Logins: []personLogin{}}
	for _, s := range l.o.People.Servers() {
		out.Logins = append(out.Logins, personLogin{Server: s, Needed: l.o.People.Needed(s, who)})
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, out)
}

// startPerson begins the caller's own login to a server with identity:
// user, binds it to this browser with a cookie, and answers with the
// authorization page.
func (l *logins) startPerson(w http.ResponseWriter, r *http.Request, server string) {
	who := callerOf(r).principal
	nonce := ""
	if c, err := r.Cookie(oauth.LoginCookie); err == nil && len(c.Value) >= 16 && len(c.Value) <= 64 {
		nonce = c.Value // one per browser: its logins under way share it
	} else {
		nonce = rand.Text()
	}
	ctx, cancel := context.WithTimeout(r.Context(), loginStart)
	defer cancel()
	u, err := l.o.People.Begin(ctx, server, who, l.redirectURL(r), nonce)
	if err != nil {
		l.log.Warn("a person's login could not begin", "principal", who, "server", server, "err", err)
		writeJSON(w, map[string]string{"error": err.Error()})
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: oauth.LoginCookie, Value: nonce, Path: "/oauth/", MaxAge: int((oauth.LoginLife + time.Minute).Seconds()),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: strings.HasPrefix(l.o.People.PublicURL, "https:") || r.TLS != nil,
	})
	writeJSON(w, map[string]string{"url": u})
}

// redirectURL is where a person's login comes back.
func (l *logins) redirectURL(r *http.Request) string {
	if p := strings.TrimSuffix(l.o.People.PublicURL, "/"); p != "" {
		return p + CallbackPath
	}
	return "http://" + r.Host + CallbackPath
}

// loginRequest is the body of POST /oauth/login.
type loginRequest struct {
	Server string `json:"server"`
	// Person asks for the caller's own login (identity: user) rather than
	// the server's shared one.
	Person bool `json:"person"`
}

func decodeLoginRequest(w http.ResponseWriter, r *http.Request) (loginRequest, bool) {
	var req loginRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<10)).Decode(&req); err != nil || req.Server == "" {
		http.Error(w, `want {"server": NAME} (and "person": true for your own login)`, http.StatusBadRequest)
		return req, false
	}
	return req, true
}
