// Package admission lets work in until a graceful shutdown begins: work
// that began before it runs to its end (or the shutdown's deadline), and
// none begins after. The runner's scripts and the upstream manager's calls
// are admitted through it.
package admission

import "sync"

// A Gate admits work until it is closed, and tells when the work it
// admitted has all ended. The zero value is open.
type Gate struct {
	mu      sync.Mutex
	closing bool
	closed  chan struct{} // made on first use, closed by Close
	work    sync.WaitGroup
}

// Admit counts a new piece of work in, unless Close has been called. Work
// admitted must call Done when it ends.
func (g *Gate) Admit() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closing {
		return false
	}
	g.work.Add(1)
	return true
}

// Done counts a piece of admitted work out.
func (g *Gate) Done() { g.work.Done() }

// Closing returns a channel closed once Close has been called, for
// admitted work that is still waiting its turn and should give it up.
func (g *Gate) Closing() <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.closedLocked()
}

func (g *Gate) closedLocked() chan struct{} {
	if g.closed == nil {
		g.closed = make(chan struct{})
	}
	return g.closed
}

// Close stops admitting work and returns a channel closed once the work
// admitted before has all ended. It may be called more than once.
func (g *Gate) Close() <-chan struct{} {
	g.mu.Lock()
	if !g.closing {
		g.closing = true
		close(g.closedLocked())
	}
	g.mu.Unlock()
	drained := make(chan struct{})
	go func() {
		g.work.Wait()
		close(drained)
	}()
	return drained
}
