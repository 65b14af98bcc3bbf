package web

import "net/http"

// A check is one condition a request must meet before it reaches an
// endpoint. A check that fails answers the request itself and returns
// false; one that passes may adjust the request (the body limit wraps its
// body).
type check func(w http.ResponseWriter, r *http.Request) bool

// guard puts every check in front of every endpoint, in order: the Host
// header (DNS rebinding), the Origin (pages of other sites), the bearer
// token, what a profile's token may reach, the body's size, and what may
// change state (pages of other origins, bodies a page sends unasked).
// /healthz and /readyz stay open so that liveness and readiness probes
// need no secret and no particular name; they answer "ok", or ready or
// not, and reveal nothing more (/readyz runs the checks itself before it
// shows details: readiness).
type guard struct {
	next   http.Handler
	checks []check
}

func newGuard(next http.Handler, o Options) *guard {
	return &guard{next: next, checks: append(whoChecks(o), limitBody(o), checkStateChange(o))}
}

// whoChecks are the guard's checks of who a request is: the Host, the
// Origin, the token and what its profile may reach. /readyz runs them too
// before it shows details (readiness).
func whoChecks(o Options) []check {
	return []check{checkHost(o), checkOrigin(o), checkToken(o), checkScope}
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/healthz" && r.URL.Path != "/readyz" {
		for _, c := range g.checks {
			if !c(w, r) {
				return
			}
		}
	}
	g.next.ServeHTTP(w, r)
}
