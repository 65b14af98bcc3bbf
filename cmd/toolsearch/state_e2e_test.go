package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/toolsearch/toolsearch/internal/state/pgstate"
	"github.com/toolsearch/toolsearch/internal/state/pgstate/pgtest"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
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

// TestStatePostgresAuthCommands holds `toolsearch auth` to the state
// toolsearch.yaml names: with postgres, a login stored in the database
// (by a replica, or by `auth login` on another machine) is the one `auth
// status` reports, from a HOME that holds no token file. auth read and
// wrote the files under the user's folder instead, so a CLI login never
// reached the replicas.
func TestStatePostgresAuthCommands(t *testing.T) {
	dsn := pgtest.DSN(t)
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "state.key")
	if err := pgstate.WriteKeyFile(keyFile); err != nil {
		t.Fatal(err)
	}
	const url = "http://127.0.0.1:9/mcp" // never dialled: --offline
	writeFile(t, dir, ".mcp.json", `{"mcpServers": {"tasks": {"type": "http", "url": "`+url+`"}}}`)
	writeFile(t, dir, "toolsearch.yaml", "state:\n  backend: postgres\n  dsn: \"${TOOLSEARCH_TEST_STATE_DSN}\"\n  keyFile: "+keyFile+"\n")
	key, err := pgstate.ReadKeyFile(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := pgstate.Open(ctx, dsn, key, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	k := oauth.GrantKey{Server: "tasks", Resource: url}
	g := &oauth.Grant{Server: "tasks", Resource: url, Issuer: "http://127.0.0.1:9", TokenURL: "http://127.0.0.1:9/token", ClientID: "c",
		Scopes: []string{"tasks"}, Token: &oauth2.Token{AccessToken: "at", RefreshToken: "rt", Expiry: time.Now().Add(time.Hour)}, Obtained: time.Now()}
	if _, err := db.Grants().SaveGrant(ctx, k, g); err != nil {
		t.Fatal(err)
	}

	cmd := toolsearch(ctx, "auth", "status", "--offline", "--config", filepath.Join(dir, "toolsearch.yaml"))
	home := t.TempDir()
	cmd.Env = append(cmd.Env, "TOOLSEARCH_TEST_STATE_DSN="+dsn, "HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_CACHE_HOME="+home)
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), "authorized") {
		t.Errorf("auth status --offline with the login in the database: %v\n%s", err, out)
	}
}
