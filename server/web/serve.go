package web

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// Serve serves h on ln until ctx ends, then shuts down within grace: /readyz
// turns not ready at once (Handler.Drain), and after the handler's
// DrainDelay, serving all the while, new connections are refused,
// requests in flight get the grace to
// finish, and whatever still runs after it (long calls, scripts, event
// streams) is cancelled and its connection closed. Serve returns by then
// even if a handler ignores the cancellation.
func Serve(ctx context.Context, ln net.Listener, h *Handler, grace time.Duration) error {
	base, cancelAll := context.WithCancel(context.Background())
	defer cancelAll()
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		// A connection kept open between requests holds a descriptor:
		// close one left idle, as clients reconnect at once.
		IdleTimeout: 2 * time.Minute,
		BaseContext: func(net.Listener) context.Context { return base },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	h.Drain()
	if h.drainDelay > 0 {
		t := time.NewTimer(h.drainDelay)
		select {
		case <-t.C:
		case err := <-errc:
			t.Stop()
			return err
		}
	}
	deadline, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(deadline) }()
	// Event streams and idle sessions would hold Shutdown for the whole
	// grace: wait only for the requests in flight, then end the rest.
	for h.inflight() > 0 && deadline.Err() == nil {
		time.Sleep(20 * time.Millisecond)
	}
	cancelAll()
	h.Close()
	var err error
	select {
	case err = <-shut:
	case <-deadline.Done():
		// Connections whose handlers still run after their requests
		// were cancelled: close them, and do not wait for the handlers.
		err = srv.Close()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		err = srv.Close()
	}
	if e := <-errc; !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	return err
}
