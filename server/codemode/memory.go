package codemode

import (
	"runtime/metrics"
	"time"
)

// memorySample is how often a running script's heap growth is looked at:
// often enough that doubling a string each step is stopped within a few
// doublings of the bound.
const memorySample = 5 * time.Millisecond

// heapMetric is the bytes of heap objects, live or not yet swept: what a
// script's values occupy, read without stopping the world.
const heapMetric = "/memory/classes/heap/objects:bytes"

// watchMemory calls over once the process's heap has grown by more than
// max bytes since it was called, until the returned stop is called. The
// heap is the process's: the bound is a backstop for what the other
// bounds let through, set well above what a script needs.
func watchMemory(max int64, over func()) (stop func()) {
	sample := []metrics.Sample{{Name: heapMetric}}
	heap := func() int64 {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return int64(sample[0].Value.Uint64())
	}
	base := heap()
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(memorySample)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if heap()-base > max {
					over()
					return
				}
			}
		}
	}()
	return func() { close(done) }
}
