package metrics

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// scrape returns what /metrics would serve, in the text format.
func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 {
		t.Fatalf("scrape: %d %s", rec.Code, rec.Body)
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Errorf("Content-Type %q, want the text format", ct)
	}
	return rec.Body.String()
}

// hasLines checks that every line of want is a line of the scrape.
func hasLines(t *testing.T, got string, want ...string) {
	t.Helper()
	lines := map[string]bool{}
	for _, l := range strings.Split(got, "\n") {
		lines[l] = true
	}
	for _, w := range want {
		if !lines[w] {
			t.Errorf("no line %q in:\n%s", w, grepToolsearch(got))
		}
	}
}

func grepToolsearch(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "toolsearch_") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// Each method counts what it is told, under the labels given.
func TestMetricValues(t *testing.T) {
	m := New(Options{})
	m.ObserveCall("weather", "weather_forecast", OutcomeOK, 30*time.Millisecond)
	m.ObserveCall("weather", "weather_forecast", OutcomeOK, 2*time.Second)
	m.ObserveCall("weather", "weather_forecast", OutcomeToolError, time.Millisecond)
	m.ObserveCall("toolsearch", UnknownTool, OutcomeToolError, time.Millisecond)
	m.ObserveSearch(OutcomeOK, 2*time.Millisecond)
	m.ObserveSearch(OutcomeToolError, time.Microsecond)
	m.AddTokensSaved(1200)
	m.AddTokensSaved(-50) // a session that cost more saves nothing
	m.CallWaited("weather")
	m.CallWaited("weather")
	m.CallRefused("weather")
	m.LoginDone("tasks", "ok")
	m.LoginDone("tasks", "failed")
	hasLines(t, scrape(t, m),
		`toolsearch_calls_total{outcome="ok",server="weather",tool="weather_forecast"} 2`,
		`toolsearch_calls_total{outcome="tool_error",server="weather",tool="weather_forecast"} 1`,
		`toolsearch_calls_total{outcome="tool_error",server="toolsearch",tool="(unknown)"} 1`,
		`toolsearch_call_duration_seconds_bucket{server="weather",tool="weather_forecast",le="0.05"} 2`,
		`toolsearch_call_duration_seconds_bucket{server="weather",tool="weather_forecast",le="2.5"} 3`,
		`toolsearch_call_duration_seconds_count{server="weather",tool="weather_forecast"} 3`,
		`toolsearch_searches_total{outcome="ok"} 1`,
		`toolsearch_searches_total{outcome="tool_error"} 1`,
		`toolsearch_search_duration_seconds_bucket{le="0.0025"} 2`,
		`toolsearch_search_duration_seconds_count 2`,
		`toolsearch_tokens_saved_total 1200`,
		`toolsearch_call_waits_total{server="weather"} 2`,
		`toolsearch_call_refusals_total{server="weather"} 1`,
		`toolsearch_logins_total{outcome="ok",server="tasks"} 1`,
		`toolsearch_logins_total{outcome="failed",server="tasks"} 1`,
	)
}

// Past MaxToolLabels (server, tool) pairs, further tools count under
// OtherTool; the pairs that have series keep them.
func TestToolLabelsCapped(t *testing.T) {
	m := New(Options{MaxToolLabels: 2})
	for i := range 5 {
		m.ObserveCall("s", fmt.Sprintf("tool%d", i), OutcomeOK, time.Millisecond)
	}
	m.ObserveCall("s", "tool0", OutcomeOK, time.Millisecond)
	got := scrape(t, m)
	hasLines(t, got,
		`toolsearch_calls_total{outcome="ok",server="s",tool="tool0"} 2`,
		`toolsearch_calls_total{outcome="ok",server="s",tool="tool1"} 1`,
		`toolsearch_calls_total{outcome="ok",server="s",tool="(other)"} 3`,
	)
	if strings.Contains(got, `tool="tool2"`) {
		t.Errorf("a tool past the cap has series of its own:\n%s", grepToolsearch(got))
	}
}

// The servers' states and the held definitions are read at each scrape:
// every state of a server is a series, 1 for the one it is in.
func TestCatalogGauges(t *testing.T) {
	c := catalog.New()
	c.Put(&catalog.Source{Name: "weather", Kind: catalog.SourceServer, State: catalog.StateActive})
	c.Put(&catalog.Source{Name: "tasks", Kind: catalog.SourceServer, State: catalog.StateNeedsAuth})
	c.Put(&catalog.Source{Name: "skills", Kind: catalog.SourceSkills})
	c.Put(&catalog.Source{Name: "static", Kind: catalog.SourceTools})
	held := map[string]int{"weather": 2}
	m := New(Options{Snapshot: c.Snapshot, Held: func() map[string]int { return held }})
	got := scrape(t, m)
	hasLines(t, got,
		`toolsearch_upstream_state{server="weather",state="active"} 1`,
		`toolsearch_upstream_state{server="weather",state="failed"} 0`,
		`toolsearch_upstream_state{server="tasks",state="needs_auth"} 1`,
		`toolsearch_upstream_state{server="tasks",state="active"} 0`,
		`toolsearch_held_definitions{source="weather"} 2`,
		`toolsearch_held_definitions{source="tasks"} 0`,
		`toolsearch_held_definitions{source="skills"} 0`,
	)
	if strings.Contains(got, `"static"`) {
		t.Errorf("a static tool file has state or held series:\n%s", grepToolsearch(got))
	}
	c.Put(&catalog.Source{Name: "weather", Kind: catalog.SourceServer, State: catalog.StateFailed})
	held = map[string]int{}
	hasLines(t, scrape(t, m),
		`toolsearch_upstream_state{server="weather",state="active"} 0`,
		`toolsearch_upstream_state{server="weather",state="failed"} 1`,
		`toolsearch_held_definitions{source="weather"} 0`,
	)
}

// Each Metrics counts alone (no global registry), and a nil one counts
// nothing without failing: the hooks call it unconditionally.
func TestInstancesApart(t *testing.T) {
	a, b := New(Options{}), New(Options{})
	a.ObserveSearch(OutcomeOK, time.Millisecond)
	hasLines(t, scrape(t, a), `toolsearch_searches_total{outcome="ok"} 1`)
	if got := scrape(t, b); strings.Contains(got, "toolsearch_searches_total{") {
		t.Errorf("a search counted in one Metrics shows in another:\n%s", grepToolsearch(got))
	}
	var none *Metrics
	none.ObserveCall("s", "t", OutcomeOK, 0)
	none.ObserveSearch(OutcomeOK, 0)
	none.AddTokensSaved(1)
	none.CallWaited("s")
	none.CallRefused("s")
	none.LoginDone("s", "ok")
}

// Debian's promtool accepts what /metrics serves, every kind of series
// present. CI installs it (the prometheus package) and sets
// TOOLSEARCH_REQUIRE_PROMTOOL; elsewhere, without it, the test says so and
// skips.
func TestPromtoolCheckMetrics(t *testing.T) {
	promtool := promtoolForTest(t)
	c := catalog.New()
	c.Put(&catalog.Source{Name: "weather", Kind: catalog.SourceServer, State: catalog.StateActive})
	c.Put(&catalog.Source{Name: "skills", Kind: catalog.SourceSkills})
	m := New(Options{Snapshot: c.Snapshot, Held: func() map[string]int { return map[string]int{"skills": 1} }})
	m.ObserveCall("weather", "weather_forecast", OutcomeOK, 30*time.Millisecond)
	m.ObserveCall("toolsearch", UnknownTool, OutcomeToolError, time.Millisecond)
	m.ObserveSearch(OutcomeOK, time.Millisecond)
	m.AddTokensSaved(100)
	m.CallWaited("weather")
	m.CallRefused("weather")
	m.LoginDone("weather", "ok")
	out := scrape(t, m)
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = strings.NewReader(out)
	// promtool prints its lint findings on stdout and exits 3.
	var said bytes.Buffer
	cmd.Stdout, cmd.Stderr = &said, &said
	if err := cmd.Run(); err != nil || said.Len() > 0 {
		t.Errorf("promtool check metrics: %v\n%s\non:\n%s", err, said.String(), grepToolsearch(out))
	}
}

// promtoolForTest returns the path of promtool (Debian's prometheus
// package). Without it the test is skipped, or fails when
// TOOLSEARCH_REQUIRE_PROMTOOL is set, as CI sets it, so that the check is
// never skipped there. (cmd/toolsearch's end-to-end test has its twin.)
func promtoolForTest(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("promtool")
	switch {
	case err == nil:
		return path
	case os.Getenv("TOOLSEARCH_REQUIRE_PROMTOOL") != "":
		t.Fatal("promtool is not on PATH and TOOLSEARCH_REQUIRE_PROMTOOL is set: apt-get install prometheus")
	default:
		t.Skip("promtool is not on PATH: apt-get install prometheus (Debian) to check the metrics' format")
	}
	return ""
}
