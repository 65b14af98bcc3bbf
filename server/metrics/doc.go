// Package metrics is toolsearch's Prometheus metrics: what its calls,
// searches, upstream servers, approvals and logins do, served as
// /metrics in the text format (package server/web mounts Handler behind
// the operator's token).
//
// One [Metrics] owns one prometheus.Registry, never the global one, so
// that tests and several servers in one process each count alone. Its
// methods are safe on a nil *Metrics, which counts nothing: the hooks in
// package server and the upstream manager call them unconditionally.
//
// # Bounded labels
//
// A label value is a series of its own, kept for the life of the process,
// so none comes from what a client sends. Calls are labelled by the
// catalog's server and tool names, which the server resolves before it
// counts; a name the catalog does not list is counted under [UnknownTool].
// Even so, a hostile upstream could list 100,000 tools: past MaxToolLabels
// distinct (server, tool) pairs, further tools count under [OtherTool].
// Server names come from the configuration.
//
// # What is counted
//
//   - toolsearch_calls_total{server,tool,outcome} and
//     toolsearch_call_duration_seconds{server,tool}: every tools/call but
//     tool_search, as the client saw it (ok, tool_error, error).
//   - toolsearch_searches_total{outcome}, toolsearch_search_duration_seconds.
//   - toolsearch_upstream_state{server,state}: 1 for a server's state, 0
//     for the others; toolsearch_held_definitions{source}: definitions
//     waiting for approval. Both are read from the catalog at each scrape.
//   - toolsearch_tokens_saved_total: per session that received the
//     listing, what loading every entry up front would have cost less what
//     the listing and toolsearch's own results cost, counted as the session
//     ends.
//   - toolsearch_logins_total{server,outcome}.
//   - toolsearch_call_waits_total{server}, toolsearch_call_refusals_total{server}:
//     what a server's maxConcurrent caused.
//   - the Go runtime's and the process's own metrics (go_*, process_*).
package metrics
