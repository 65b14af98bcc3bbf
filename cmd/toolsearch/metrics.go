package main

import (
	"github.com/toolsearch/toolsearch/loader"
	"github.com/toolsearch/toolsearch/server/metrics"
)

// newMetrics makes the metrics serve --http serves as /metrics; other
// commands (and stdio) have nowhere to serve them, and get none.
func (a *app) newMetrics() *metrics.Metrics {
	if a.cfg.HTTP.Addr == "" {
		return nil
	}
	return metrics.New(metrics.Options{Snapshot: a.catalog.Snapshot, Held: a.heldBySource})
}

// heldBySource counts what waits for approval by the source it comes
// from: held tools by server, withheld skills under the skills' source.
func (a *app) heldBySource() map[string]int {
	held := map[string]int{}
	for _, p := range a.collectPending(false) {
		if p.skill != nil {
			held[loader.SkillsSourceName]++
		} else {
			held[p.server]++
		}
	}
	return held
}
