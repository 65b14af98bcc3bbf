package main

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"time"
)

// defaultShutdownGrace is how long work in flight (running scripts,
// upstream calls, requests) gets to finish once a shutdown signal
// (shutdownSignals) asks toolsearch to stop, unless http.shutdownGrace
// says otherwise.
const defaultShutdownGrace = 10 * time.Second

// configuredGrace is http.shutdownGrace once serve has read it; 0 until
// then. Atomic: a signal may arrive while serve starts.
var configuredGrace atomic.Int64

// shutdownGrace is the grace in force.
func shutdownGrace() time.Duration {
	if g := configuredGrace.Load(); g > 0 {
		return time.Duration(g)
	}
	return defaultShutdownGrace
}

// hurry is closed by a second shutdown signal: the grace is cut short and
// work still in flight is stopped at once.
var hurry = make(chan struct{})

// notifyShutdown returns a context that ends at the first shutdown signal;
// a second one closes hurry, and a third ends the process at once
// (the default action), for when even stopping hangs.
func notifyShutdown() context.Context {
	ctx, stop := context.WithCancel(context.Background())
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, shutdownSignals...)
	go func() {
		sig := <-signals
		// A warning, so that one-shot commands, which log only those,
		// say why they have not stopped yet.
		slog.Warn("stopping: work in flight gets the grace to finish; interrupt again to stop it now", "signal", sig, "grace", shutdownGrace())
		stop()
		<-signals
		close(hurry)
		signal.Reset(shutdownSignals...)
	}()
	return ctx
}

// afterGrace returns a context for work that should outlive ctx by the
// grace: it ends shutdownGrace after ctx ends, when hurry is closed, or
// when cancel is called.
func afterGrace(ctx context.Context) (work context.Context, cancel context.CancelFunc) {
	work, cancel = context.WithCancel(context.WithoutCancel(ctx))
	go func() {
		select {
		case <-ctx.Done():
		case <-work.Done():
			return
		}
		grace := time.NewTimer(shutdownGrace())
		defer grace.Stop()
		select {
		case <-grace.C:
		case <-hurry:
		case <-work.Done():
		}
		cancel()
	}()
	return work, cancel
}

// defaultReplicaDrain is http.drainDelay's default for a replica of
// several (a shared state): two of a load balancer's usual check intervals,
// so that it sees the replica turn not ready before its address closes.
const defaultReplicaDrain = 2 * time.Second

// drainDelay is how long serve --http goes on serving once asked to stop
// (http.drainDelay; by default none for a server alone, and
// defaultReplicaDrain for a replica of several); 0 over stdio.
func (a *app) drainDelay() time.Duration {
	switch {
	case a.cfg.HTTP.Addr == "":
		return 0
	case a.cfg.HTTP.DrainDelay != nil:
		return time.Duration(*a.cfg.HTTP.DrainDelay)
	case a.cfg.State.Backend == statePostgres:
		return defaultReplicaDrain
	}
	return 0
}

// shutdown stops the app's work gracefully: no new script or upstream call
// starts, and those in flight get until ctx ends; then scripts are stopped
// with every process they started, upstream calls are ended and upstream
// servers stopped. It returns once all of that has ended; later calls wait
// for the same end.
func (a *app) shutdown(ctx context.Context) {
	a.stopOnce.Do(func() {
		var wg sync.WaitGroup
		if a.scripts != nil {
			wg.Go(func() { a.scripts.Shutdown(ctx) })
		}
		if a.upstreams != nil {
			wg.Go(func() { a.upstreams.Shutdown(ctx) })
		}
		wg.Wait()
	})
}

// close ends the app once its command is done: what may still be in flight
// gets the rest of the grace (counted from the first signal, or from now),
// then everything is stopped and the files are closed.
func (a *app) close(ctx context.Context) {
	work, cancel := afterGrace(ctx)
	defer cancel()
	grace, cancelGrace := context.WithTimeout(work, shutdownGrace())
	defer cancelGrace()
	a.shutdown(grace)
	a.closeProfiles()
	if a.server != nil {
		a.server.Close()
	}
	for _, c := range a.closers {
		c.Close()
	}
}
