package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// Every index is called once, whether the work is split or not.
func TestFor(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, n := range []int{0, 1, minPerGoroutine - 1, 2 * minPerGoroutine, 10*minPerGoroutine + 7} {
		calls := make([]atomic.Int32, n)
		For(n, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if c := calls[i].Load(); c != 1 {
				t.Fatalf("n=%d: index %d called %d times", n, i, c)
			}
		}
	}
}
