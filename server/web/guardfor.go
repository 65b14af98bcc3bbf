package web

import "net/http"

// Guard puts the guard of `serve --http` in front of next (Host, Origin,
// bearer token, body size and time, no framing), for another of
// toolsearch's HTTP faces: `toolsearch bridge`. Of o it reads Token,
// AllowedOrigins, AllowedHosts, MaxBodyBytes and BodyTimeout (their
// defaults when zero). Serve it on an address CheckBind accepts.
func Guard(next http.Handler, o Options) http.Handler {
	if o.MaxBodyBytes == 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.BodyTimeout == 0 {
		o.BodyTimeout = DefaultBodyTimeout
	}
	return refuseFraming(newGuard(next, o))
}
