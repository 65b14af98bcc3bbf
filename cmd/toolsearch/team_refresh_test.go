//go:build team && linux

package main

import (
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestTeamRefreshLostToKill kills a replica, every time, between the
// authorization server's answer to a refresh of a person's token and its
// storing the tokens: the server has rotated the refresh token the
// database still holds, so that login is gone, whatever any replica does.
// What follows must be what the person can act on: another replica tells
// the model to have them log in again (auth_required), rather than
// failing otherwise or retrying forever; the suite counts the refusal as
// lost to the kill, not as a racing refresh; and a new login works at
// once. TestTeamCluster meets the same when its kill -9 lands on a
// refresh.
func TestTeamRefreshLostToKill(t *testing.T) {
	const ttl = 2 * time.Second
	tm := startTeam(t, teamOptions{tokenTTL: ttl, replicas: 3})
	r1, r2 := tm.replicas[0], tm.replicas[1] // and a third, as examples/deploy runs
	log := &callLog{}
	if out, err := tm.cli([]string{"BROWSER=" + mustExecutable(t), browserEnv + "=1"}, "auth", "login", "mine"); err != nil {
		t.Fatalf("auth login mine: %v\n%s", err, out)
	}
	for _, r := range tm.replicas {
		tm.waitListed(r, "mine__stamp", "after the operator's login")
	}
	if err := tm.loginAs(teamAliceToken, "mine"); err != nil {
		t.Fatalf("alice's login to mine: %v", err)
	}
	first := fmt.Sprintf("login-%d", tm.up.auth.lineagesIssued())
	if !tm.waitCall(log, "alice", teamAliceToken, "mine__stamp") {
		t.FailNow()
	}

	// Alice calls replica-1 alone until her token falls due: it asks for
	// a refresh, and dies before the answer reaches it.
	killed := make(chan time.Time, 1)
	tm.up.auth.setOnRefresh(func(lineage string) {
		if lineage != first {
			return
		}
		tm.up.auth.setOnRefresh(nil)
		r1.signal(syscall.SIGKILL)
		<-r1.exited()
		killed <- time.Now()
	})
	var killedAt time.Time
	for deadline := time.Now().Add(4 * ttl); killedAt.IsZero(); time.Sleep(100 * time.Millisecond) {
		select {
		case killedAt = <-killed:
			continue
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica-1 never refreshed alice's token in %s", 4*ttl)
		}
		modernCall(context.Background(), r1.base(), teamAliceToken, "call_tool", map[string]any{"name": "mine__stamp", "arguments": map[string]any{"id": log.newID("alice-r1")}})
	}

	// Replica-2 spends the refresh token the database holds, which the
	// server retired: alice must log in again, and the model is told so.
	id := log.newID("alice-r2")
	text, o := modernCall(context.Background(), r2.base(), teamAliceToken, "call_tool", map[string]any{"name": "mine__stamp", "arguments": map[string]any{"id": id}})
	if o != refused || !strings.Contains(text, "auth_required") || !strings.Contains(text, "Tell the user") {
		t.Errorf("alice's call through replica-2 after the lost refresh: %s, %s; want an auth_required refusal that says what to tell her", o, text)
	}
	if n, _ := tm.up.count(id); n != 0 {
		t.Errorf("the upstream received %s, which was refused", id)
	}
	_, refusals := tm.up.auth.refreshStats()
	if len(refusals) != 1 || !tm.up.auth.lostToKill(refusals[0], []time.Time{killedAt}) {
		t.Errorf("the server's refusals %+v: want one, of the refresh token the killed replica spent", refusals)
	}

	// Replica-1 back: it reads the same refusal, and a new login works
	// on every replica.
	r1.start()
	if r1.waitReady(60*time.Second) == 0 {
		t.Fatalf("replica-1 never became ready after its restart:\n%s", r1.logTail())
	}
	text, o = modernCall(context.Background(), r1.base(), teamAliceToken, "call_tool", map[string]any{"name": "mine__stamp", "arguments": map[string]any{"id": log.newID("alice-r1")}})
	if o != refused || !strings.Contains(text, "auth_required") {
		t.Errorf("alice's call through the restarted replica-1: %s, %s; want auth_required", o, text)
	}
	if err := tm.loginAs(teamAliceToken, "mine"); err != nil {
		t.Fatalf("alice's second login: %v", err)
	}
	second := fmt.Sprintf("login-%d", tm.up.auth.lineagesIssued())
	for _, r := range tm.replicas {
		id := log.newID("alice-after")
		text, o := modernCall(context.Background(), r.base(), teamAliceToken, "call_tool", map[string]any{"name": "mine__stamp", "arguments": map[string]any{"id": id}})
		if _, lineage := tm.up.count(id); o != succeeded || lineage != second {
			t.Errorf("alice's call through %s after her second login: %s (carried %q, want %s): %s", r.name, o, lineage, second, text)
		}
	}
}
