package metrics

import (
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// Fixed label values.
const (
	// UnknownTool is the tool label of a call to a name the catalog does
	// not list: the name is the client's, and may be anything.
	UnknownTool = "(unknown)"
	// OtherTool is the tool label of calls to tools beyond MaxToolLabels.
	OtherTool = "(other)"
)

// Outcomes of a call or a search, as the client saw it.
const (
	OutcomeOK        = "ok"
	OutcomeToolError = "tool_error" // a result with isError
	OutcomeError     = "error"      // a protocol error
)

// DefaultMaxToolLabels bounds the (server, tool) pairs that get series of
// their own when Options.MaxToolLabels is zero: with a dozen histogram
// buckets each, some 15,000 series at most.
const DefaultMaxToolLabels = 1000

// Options configure Metrics.
type Options struct {
	// Snapshot returns the catalog, whose servers' states are read from
	// it at each scrape; nil reports none.
	Snapshot func() *catalog.Snapshot
	// Held returns the definitions waiting for approval (held tools,
	// withheld skills) by the source they come from, at each scrape; nil
	// reports none.
	Held func() map[string]int
	// MaxToolLabels bounds the distinct (server, tool) label pairs of
	// calls (DefaultMaxToolLabels when 0).
	MaxToolLabels int
}

// Metrics holds one server's metrics in a registry of its own.
type Metrics struct {
	reg *prometheus.Registry

	calls         *prometheus.CounterVec
	callSeconds   *prometheus.HistogramVec
	searches      *prometheus.CounterVec
	searchSeconds prometheus.Histogram
	tokensSaved   prometheus.Counter
	logins        *prometheus.CounterVec
	waits         *prometheus.CounterVec
	refusals      *prometheus.CounterVec

	maxTools int
	mu       sync.Mutex
	tools    map[toolKey]bool // the (server, tool) pairs with series
}

type toolKey struct{ server, tool string }

// Buckets of the latency histograms, in seconds: an upstream call takes
// from milliseconds to its timeout (60 s by default), a search from well
// under a millisecond to a second on a very large catalog.
var (
	callBuckets   = []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}
	searchBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1}
)

// New makes the metrics and their registry.
func New(o Options) *Metrics {
	if o.MaxToolLabels <= 0 {
		o.MaxToolLabels = DefaultMaxToolLabels
	}
	m := &Metrics{
		reg:      prometheus.NewRegistry(),
		maxTools: o.MaxToolLabels,
		tools:    map[toolKey]bool{},
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolsearch_calls_total",
			Help: "Tool calls (every tools/call but tool_search), by the server and tool they went to and their outcome as the client saw it: ok, tool_error (a result with isError: refusals by toolsearch included) or error (a protocol error).",
		}, []string{"server", "tool", "outcome"}),
		callSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "toolsearch_call_duration_seconds",
			Help:    "How long tool calls took to answer, waits for a busy or starting server included, by server and tool.",
			Buckets: callBuckets,
		}, []string{"server", "tool"}),
		searches: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolsearch_searches_total",
			Help: "tool_search calls, by outcome: ok, tool_error (a query refused) or error.",
		}, []string{"outcome"}),
		searchSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "toolsearch_search_duration_seconds",
			Help:    "How long tool_search calls took to answer.",
			Buckets: searchBuckets,
		}),
		tokensSaved: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "toolsearch_tokens_saved_total",
			Help: "Tokens saved against loading every entry up front: per session that received the listing, the eager cost less the listing's and toolsearch's own results', counted as the session ends.",
		}),
		logins: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolsearch_logins_total",
			Help: "OAuth logins to upstream servers, by outcome: ok, not_needed, canceled or failed.",
		}, []string{"server", "outcome"}),
		waits: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolsearch_call_waits_total",
			Help: "Calls that found their server at its maxConcurrent and waited for a call to end.",
		}, []string{"server"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolsearch_call_refusals_total",
			Help: "Calls refused because their server stayed at its maxConcurrent for as long as they could wait.",
		}, []string{"server"}),
	}
	m.reg.MustRegister(m.calls, m.callSeconds, m.searches, m.searchSeconds, m.tokensSaved, m.logins, m.waits, m.refusals,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if o.Snapshot != nil || o.Held != nil {
		m.reg.MustRegister(catalogCollector{o.Snapshot, o.Held})
	}
	return m
}

// Registry is where the metrics are registered.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the metrics in the Prometheus text format (or another
// format the scraper asks for). It is not guarded: mount it behind the
// operator's token.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		// A scrape is cheap, but nobody needs many at once.
		MaxRequestsInFlight: 4,
		Timeout:             10 * time.Second,
	})
}

// ObserveCall counts a tool call to server's tool, which the caller has
// resolved in the catalog (UnknownTool for a name it does not list).
func (m *Metrics) ObserveCall(server, tool, outcome string, took time.Duration) {
	if m == nil {
		return
	}
	tool = m.toolLabel(server, tool)
	m.calls.WithLabelValues(server, tool, outcome).Inc()
	m.callSeconds.WithLabelValues(server, tool).Observe(took.Seconds())
}

// toolLabel is tool, or OtherTool once MaxToolLabels pairs have series.
func (m *Metrics) toolLabel(server, tool string) string {
	k := toolKey{server, tool}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tools[k] {
		return tool
	}
	if len(m.tools) >= m.maxTools {
		return OtherTool
	}
	m.tools[k] = true
	return tool
}

// ObserveSearch counts a tool_search call.
func (m *Metrics) ObserveSearch(outcome string, took time.Duration) {
	if m == nil {
		return
	}
	m.searches.WithLabelValues(outcome).Inc()
	m.searchSeconds.Observe(took.Seconds())
}

// AddTokensSaved counts the tokens a session saved; what is not a saving
// (a session that cost more than loading everything) adds nothing.
func (m *Metrics) AddTokensSaved(tokens int) {
	if m == nil || tokens <= 0 {
		return
	}
	m.tokensSaved.Add(float64(tokens))
}

// CallWaited counts a call that waited for a slot under server's
// maxConcurrent (upstream.Observer).
func (m *Metrics) CallWaited(server string) {
	if m != nil {
		m.waits.WithLabelValues(server).Inc()
	}
}

// CallRefused counts a call refused by server's maxConcurrent
// (upstream.Observer).
func (m *Metrics) CallRefused(server string) {
	if m != nil {
		m.refusals.WithLabelValues(server).Inc()
	}
}

// LoginDone counts a login's outcome (upstream.Observer).
func (m *Metrics) LoginDone(server, outcome string) {
	if m != nil {
		m.logins.WithLabelValues(server, outcome).Inc()
	}
}
