package web

import (
	"fmt"
	"net/http"
	"time"
)

// limitBody bounds what a request body may cost: its size, and the time it
// takes to arrive. A Content-Length over the limit is refused before
// anything is read; a body that grows past it while streaming fails when
// read, which the MCP handler answers with 413 too.
//
// The time limit is a read deadline on the connection, set per request
// here rather than as http.Server's ReadTimeout, so that it holds wherever
// the handler is served. net/http lifts it once the body has been read to
// its end, when it starts reading in the background to notice a client
// that goes away: requests meant to last (an event stream, a long tool
// call answered over SSE) are not cut, which
// TestBodyTimeoutSparesLongRequests holds it to. A body not read to its
// end keeps the deadline, which then also bounds net/http's draining of
// the rest.
func limitBody(o Options) check {
	return func(w http.ResponseWriter, r *http.Request) bool {
		if r.ContentLength > o.MaxBodyBytes {
			http.Error(w, fmt.Sprintf("Request Entity Too Large: bodies are limited to %d bytes", o.MaxBodyBytes), http.StatusRequestEntityTooLarge)
			return false
		}
		if r.Body == nil || r.Body == http.NoBody {
			return true
		}
		r.Body = http.MaxBytesReader(w, r.Body, o.MaxBodyBytes)
		// Not every ResponseWriter supports deadlines (a test recorder);
		// the size limit holds regardless.
		_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(o.BodyTimeout))
		return true
	}
}
