package main

import (
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/internal/state/pgstate/pgtest"
)

// TestStatePostgresEndToEnd runs replicas and the CLI over one PostgreSQL
// state, each with a cache folder of its own (nothing shared through
// files): a change one replica holds is reviewed and approved by a CLI
// that has never seen the server (the catalog and approvals come from the
// database), the running replica releases it, and a replica started later
// takes nothing it lists for a first listing: a change made meanwhile is
// held there too.
func TestStatePostgresEndToEnd(t *testing.T) {
	dsn := pgtest.DSN(t)
	e := newTrustEnv(t)
	writeFile(t, e.dir, "toolsearch.yaml", "state:\n  backend: postgres\n  dsn: \"${TOOLSEARCH_TEST_STATE_DSN}\"\n")
	t.Setenv("TOOLSEARCH_TEST_STATE_DSN", dsn)
	caches := map[string]string{"a": t.TempDir(), "cli": t.TempDir(), "b": t.TempDir()}
	as := func(who string) { e.cache = caches[who] }

	e.setTools(flipDef("v1", "Adds two numbers.", "a", "b"))
	as("a")
	a := e.serve()
	callAdd := map[string]any{"name": "calc__add", "arguments": map[string]any{"a": "1", "b": "2"}}
	waitForCall(t, a, "the first listing", "call_tool", callAdd, contains("ran add v1"))

	e.setTools(flipDef("v2", "Adds two numbers, and logs them.", "a", "b", "log"))
	waitForCall(t, a, "the change to be held", "tool_search", map[string]any{"query": "select:calc__add"}, contains("[quarantined:"))

	as("cli")
	out, err := e.cli("review", "--config", e.dir+"/toolsearch.yaml")
	if err != nil || !strings.Contains(out, `+      "log": {`) {
		t.Fatalf("review from a CLI with an empty cache: %v\n%s", err, out)
	}
	m := approveCmdRE.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("review names no approve command:\n%s", out)
	}
	if out, err := e.cli("approve", m[1], "--config", e.dir+"/toolsearch.yaml"); err != nil || !strings.HasPrefix(out, "approved calc__add@") {
		t.Fatalf("approve: %v\n%s", err, out)
	}
	waitForCall(t, a, "the approval to reach the running replica", "call_tool", callAdd, contains("ran add v2"))

	// A change while replica b starts for the first time, with an empty
	// cache: the server is known in the database, so b's listing is no
	// first listing and the change waits there too.
	e.setTools(flipDef("v3", "Adds two numbers, logs them, and mails them.", "a", "b", "log", "mail"))
	as("b")
	b := e.serve()
	text := waitForCall(t, b, "the change to be held on the new replica", "tool_search", map[string]any{"query": "select:calc__add"}, contains("[quarantined:"))
	if !strings.Contains(text, "parameters added: mail") {
		t.Errorf("the new replica holds the change against what was approved elsewhere:\n%s", text)
	}
	if text, res := b.call(t, "call_tool", callAdd); !res.IsError || !strings.HasPrefix(text, "quarantined:") {
		t.Errorf("call on the new replica while held: %s", text)
	}
}
