package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// serverStates are the states an upstream server can be in, each a
// series of toolsearch_upstream_state, so that a state a server is not in
// reads 0 rather than missing.
var serverStates = []catalog.State{
	catalog.StateConnecting, catalog.StateValidating, catalog.StateActive,
	catalog.StateFailed, catalog.StateDisabled, catalog.StateNeedsAuth,
}

var (
	upstreamStateDesc = prometheus.NewDesc("toolsearch_upstream_state",
		"1 for the state each upstream server is in (connecting, validating, active, failed, disabled, needs_auth), 0 for the others.",
		[]string{"server", "state"}, nil)
	heldDesc = prometheus.NewDesc("toolsearch_held_definitions",
		"Tool and skill definitions waiting for approval, by the source (server or skill folder) they come from.",
		[]string{"source"}, nil)
)

// catalogCollector reports, at each scrape, the servers' states (from
// the catalog) and the definitions held for approval (from Options.Held).
type catalogCollector struct {
	snapshot func() *catalog.Snapshot
	held     func() map[string]int
}

func (c catalogCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- upstreamStateDesc
	ch <- heldDesc
}

func (c catalogCollector) Collect(ch chan<- prometheus.Metric) {
	var snap *catalog.Snapshot
	if c.snapshot != nil {
		snap = c.snapshot()
	}
	held := map[string]int{}
	if c.held != nil {
		held = c.held()
	}
	// Every server and skill folder reads 0 when nothing of it waits.
	counted := map[string]bool{}
	if snap != nil {
		for _, src := range snap.Sources {
			if src.Kind != catalog.SourceServer && src.Kind != catalog.SourceSkills {
				continue
			}
			if src.Kind == catalog.SourceServer {
				for _, st := range serverStates {
					v := 0.0
					if src.State == st {
						v = 1
					}
					ch <- prometheus.MustNewConstMetric(upstreamStateDesc, prometheus.GaugeValue, v, src.Name, string(st))
				}
			}
			if c.held != nil && !counted[src.Name] {
				counted[src.Name] = true
				ch <- prometheus.MustNewConstMetric(heldDesc, prometheus.GaugeValue, float64(held[src.Name]), src.Name)
			}
		}
	}
	for source, n := range held {
		if !counted[source] {
			ch <- prometheus.MustNewConstMetric(heldDesc, prometheus.GaugeValue, float64(n), source)
		}
	}
}
