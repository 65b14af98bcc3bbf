package web

import (
	"net/http"
	"strings"
)

// refuseFraming wraps every response of the handler, errors included, so
// that no page of this server can be shown inside a frame: a page on
// another loopback port framed the status page, and one click of the
// user's on what looked like its own button approved a held tool, the
// request coming from the status page's own origin. Browsers honour
// Content-Security-Policy's frame-ancestors; X-Frame-Options DENY is for
// those that predate it.
//
// The headers are fixed when the response's header is written, not only
// set before the handler runs: a handler that sets a policy of its own
// (the status page does) gets frame-ancestors 'none' merged into it
// rather than losing it.
func refuseFraming(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fw := &framelessWriter{ResponseWriter: w}
		fw.seal()
		next.ServeHTTP(fw, r)
	})
}

// framelessWriter seals the frame headers once more when the handler
// writes its header, whatever the handler set.
type framelessWriter struct {
	http.ResponseWriter
	wrote bool
}

// frameAncestors is the directive that refuses every framing page.
const frameAncestors = "frame-ancestors 'none'"

func (w *framelessWriter) seal() {
	h := w.ResponseWriter.Header()
	h.Set("X-Frame-Options", "DENY")
	policies := h.Values("Content-Security-Policy")
	if len(policies) == 0 {
		h.Set("Content-Security-Policy", frameAncestors)
		return
	}
	h.Del("Content-Security-Policy")
	for _, p := range policies {
		h.Add("Content-Security-Policy", withoutFraming(p))
	}
}

// withoutFraming returns a policy with its frame-ancestors directive, if
// any, replaced by frame-ancestors 'none'.
func withoutFraming(policy string) string {
	var kept []string
	for d := range strings.SplitSeq(policy, ";") {
		d = strings.TrimSpace(d)
		name, _, _ := strings.Cut(d, " ")
		if d == "" || strings.EqualFold(name, "frame-ancestors") {
			continue
		}
		kept = append(kept, d)
	}
	return strings.Join(append(kept, frameAncestors), "; ")
}

func (w *framelessWriter) WriteHeader(code int) {
	if !w.wrote {
		w.wrote = true
		w.seal()
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *framelessWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Flush serves the event streams (the status page's, MCP's SSE), which
// assert http.Flusher or go through http.ResponseController.
func (w *framelessWriter) Flush() {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the connection (read
// deadlines, flushing).
func (w *framelessWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
