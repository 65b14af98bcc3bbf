package web

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/toolsearch/toolsearch/server"
)

// Serve serves h on ln until ctx ends, then shuts down gracefully: new
// requests are refused, requests in flight get grace to finish, and
// whatever still runs after it (long calls, scripts) is cancelled.
func Serve(ctx context.Context, s *server.Server, ln net.Listener, h http.Handler, grace time.Duration) error {
	base, cancelAll := context.WithCancel(context.Background())
	defer cancelAll()
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return base },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	deadline, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(deadline) }()
	// Idle notification streams would hold Shutdown for the whole grace
	// period: wait only for the requests in flight, then end the sessions.
	for s.InFlight() > 0 && deadline.Err() == nil {
		time.Sleep(20 * time.Millisecond)
	}
	cancelAll()
	s.CloseSessions()
	err := <-shut
	if errors.Is(err, context.DeadlineExceeded) {
		err = srv.Close()
	}
	if e := <-errc; !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	return err
}
