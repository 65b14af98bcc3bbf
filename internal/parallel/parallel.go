// Package parallel spreads work over the machine's cores.
package parallel

import (
	"runtime"
	"sync"
)

// minPerGoroutine is the fewest items For gives a goroutine of its own:
// below it, starting one costs more than it saves.
const minPerGoroutine = 256

// For calls f(i) for every i in [0, n), on up to GOMAXPROCS goroutines,
// each taking a run of consecutive indexes, and returns when every call
// has. f must be safe to call concurrently for different i.
func For(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n/minPerGoroutine)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				f(i)
			}
		})
	}
	wg.Wait()
}
