package main

import (
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync/atomic"

	"github.com/toolsearch/toolsearch/loader/upstream"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
	"github.com/toolsearch/toolsearch/server/web"
)

// peopleURL is where people reach `serve --http`, once it serves: the
// sentence that tells a person how to log in names its /login page.
var peopleURL atomic.Pointer[string]

// checkPublicURL checks http.publicURL: an http or https address with a
// host and nothing after it, to which /login and the callback are added.
func checkPublicURL(s string) error {
	if s == "" {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.Trim(u.Path, "/") != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return fmt.Errorf("http.publicURL: %q is not an address people reach the server at, such as https://toolsearch.example.com (scheme and host, nothing after)", s)
	}
	return nil
}

// publicURL is where people reach the HTTP server: http.publicURL, else
// the address it listens on, unless that is every address (0.0.0.0),
// which names no host a browser can open ("" then).
func (a *app) publicURL(ln net.Listener) string {
	if u := strings.TrimSuffix(a.cfg.HTTP.PublicURL, "/"); u != "" {
		return u
	}
	tcp, ok := ln.Addr().(*net.TCPAddr)
	if !ok || tcp.IP.IsUnspecified() {
		return ""
	}
	return "http://" + tcp.String()
}

// servePeople lets each principal log in as themselves to the servers with
// identity: user: their page (/login), the callback that completes their
// logins on this replica whichever began them, and URL-mode elicitation
// in their sessions.
func (a *app) servePeople(o *web.Options, ln net.Listener) {
	ul := a.upstreams.UserLogins()
	if ul == nil || o.Callbacks == nil {
		return
	}
	public := a.publicURL(ln)
	o.People = &web.People{
		Servers: a.upstreams.PerUserServers, Needed: a.upstreams.PersonLoginNeeded, Begin: a.upstreams.BeginPersonLogin,
		PublicURL: a.cfg.HTTP.PublicURL,
	}
	o.Callbacks.SetUserLogins(ul, func(l *oauth.PendingLogin, err error) {
		if a.metrics != nil {
			a.metrics.LoginDone(l.Server, personLoginOutcome(err))
		}
	})
	if public == "" {
		a.log.Warn("people's own logins (identity: user) are offered at /login, but the address people reach this server at is unknown: set http.publicURL so that clients can take people through them and refusals can say where", "listen", ln.Addr().String())
		return
	}
	peopleURL.Store(&public)
	a.server.SetPersonLoginRedirect(public + web.CallbackPath)
	for _, ps := range o.Profiles {
		ps.SetPersonLoginRedirect(public + web.CallbackPath)
	}
}

func personLoginOutcome(err error) string {
	if err != nil {
		return upstream.LoginFailed
	}
	return upstream.LoginOK
}

// userLoginHint is the sentence that tells a person how to log in to a
// server as themselves; "" leaves the general one.
func userLoginHint(server, who string) string {
	u := peopleURL.Load()
	if u == nil {
		return ""
	}
	return fmt.Sprintf("Log in to %s as %s: open %s%s in a browser, give it your own toolsearch token, and press \"Log in to %s\"; "+
		"or use a client that opens login pages (URL-mode elicitation) and call again. The login is yours alone: no one else's calls use it.",
		server, who, *u, web.LoginPagePath, server)
}
