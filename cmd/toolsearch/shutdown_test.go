package main

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

// TestAfterDelayOutlivesItsParentByTheDrain: the app's work stops once the
// server has drained, not when it is asked to stop, so that what reaches
// a draining replica is served in full.
func TestAfterDelayOutlivesItsParentByTheDrain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, stop := context.WithCancel(context.Background())
		drained, cancel := afterDelay(ctx, 3*time.Second)
		defer cancel()
		stop()
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if drained.Err() != nil {
			t.Fatal("ended 2 s into a drain of 3")
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if drained.Err() == nil {
			t.Fatal("still going 4 s into a drain of 3")
		}
		// Without a drain, it ends with its parent.
		now, stopNow := context.WithCancel(context.Background())
		at, cancelAt := afterDelay(now, 0)
		defer cancelAt()
		stopNow()
		synctest.Wait()
		if at.Err() == nil {
			t.Error("without a drain, still going after its parent ended")
		}
	})
}
