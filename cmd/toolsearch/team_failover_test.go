//go:build team && linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// teamTokenTTL is the example authorization server's access tokens' life
// in the suite: short, so that every login's token expires, and is
// refreshed, several times during the run.
const teamTokenTTL = 6 * time.Second

// teamApprovalBound is how soon an approval must take effect on every
// live replica: the "within a second", with room for a machine
// the suite shares with other work.
const teamApprovalBound = 2 * time.Second

// TestTeamCluster runs three replicas over one PostgreSQL behind HAProxy
// under clients of both protocol eras that search and write, and breaks
// things on the way: one replica killed with SIGKILL, another stopped
// with SIGTERM, PostgreSQL restarted, a changed tool approved through one
// replica and then through the CLI, the example OAuth server's tokens
// expiring throughout. Then: every write the upstream received matches a
// success its client saw (or a call cut by the kill), none twice; every
// approval reached every live replica within teamApprovalBound; each
// login's token was refreshed once per expiry, never by two replicas at
// once; each person's calls carried their own login; no process is left.
func TestTeamCluster(t *testing.T) {
	tm := startTeam(t, teamOptions{tokenTTL: teamTokenTTL, replicas: 3})
	log := &callLog{}

	// The shared login, once, by the operator's CLI (its own callback on
	// loopback, the grant stored in the database for every replica).
	if out, err := tm.cli([]string{"BROWSER=" + mustExecutable(t), browserEnv + "=1"}, "auth", "login", "shared"); err != nil {
		t.Fatalf("auth login shared: %v\n%s", err, out)
	}
	sharedLogin := fmt.Sprintf("login-%d", tm.up.auth.lineagesIssued())
	// mine takes each person's own login for calls; its listing (the
	// tools search shows) comes from the operator's shared login, as
	// docs/teams.md ("People") says.
	if out, err := tm.cli([]string{"BROWSER=" + mustExecutable(t), browserEnv + "=1"}, "auth", "login", "mine"); err != nil {
		t.Fatalf("auth login mine: %v\n%s", err, out)
	}
	tm.waitCall(log, "operator", teamOperatorToken, "shared__stamp")
	// Every replica has read the operator's logins (each looks for a new
	// one every 2 s): until then a replica still lists mine as needing a
	// login, and a person's first calls through it are refused.
	for _, r := range tm.replicas {
		tm.waitListed(r, "mine__stamp", "after the operator's login")
	}

	// Each person logs in through the load balancer: the login starts on
	// one replica and its callback may reach another.
	logins := map[string]string{} // principal -> lineage
	people := map[string]string{"alice": teamAliceToken, "bob": teamBobToken}
	for _, p := range []string{"alice", "bob"} {
		if err := tm.loginAs(people[p], "mine"); err != nil {
			t.Errorf("%s's login to mine through the load balancer: %v", p, err)
			continue
		}
		logins[p] = fmt.Sprintf("login-%d", tm.up.auth.lineagesIssued())
		if !tm.waitCall(log, p, people[p], "mine__stamp") {
			delete(logins, p)
		}
	}

	// The load: two session clients (2025-11-25) and two sessionless ones
	// (2026-07-28) writing to ledger, the operator through the shared
	// login, each person through their own.
	ctx, stopLoad := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	run := func(name, principal string, c caller, target string, pause time.Duration) {
		wg.Add(1)
		go func() { defer wg.Done(); writeLoop(ctx, log, name, principal, c, target, pause) }()
	}
	sessions := []*sessionClient{{base: tm.lb.base(), token: teamOperatorToken}, {base: tm.lb.base(), token: teamOperatorToken}}
	run("session-1", "operator", sessions[0], "ledger__record", 0)
	run("session-2", "operator", sessions[1], "ledger__record", 0)
	run("modern-1", "operator", modernClient{tm.lb.base(), teamOperatorToken}, "ledger__record", 0)
	run("modern-2", "operator", modernClient{tm.lb.base(), teamOperatorToken}, "ledger__record", 0)
	run("shared", "operator", modernClient{tm.lb.base(), teamOperatorToken}, "shared__stamp", 100*time.Millisecond)
	for p := range logins {
		run(p, p, modernClient{tm.lb.base(), people[p]}, "mine__stamp", 100*time.Millisecond)
	}
	loadStart := time.Now()
	time.Sleep(3 * time.Second)

	// kill -9 one replica, then start it again.
	r1, r2, r3 := tm.replicas[0], tm.replicas[1], tm.replicas[2]
	killedAt := time.Now()
	t.Logf("%s: kill -9 %s", killedAt.Format("15:04:05.000"), r1.name)
	r1.signal(syscall.SIGKILL)
	<-r1.exited()
	time.Sleep(2 * time.Second)
	r1.start()
	took := r1.waitReady(60 * time.Second)
	windows := []window{{killedAt, time.Now().Add(2 * time.Second)}}
	if took == 0 {
		t.Errorf("%s never became ready after its restart:\n%s", r1.name, r1.logTail())
	} else {
		t.Logf("kill -9: %s ready again %s after its restart", r1.name, took.Round(time.Millisecond))
	}
	// The kill comes when the people's first tokens fall due: killed
	// between the authorization server's answer to a refresh and storing
	// it, a replica takes that login with it (the server retired the
	// refresh token the database still holds). The person is told to log
	// in again, does, and goes on.
	relogins, relogged := map[string]string{}, map[string]window{}
	for p, l := range logins {
		if !tm.up.auth.lostLineage(l, []time.Time{killedAt}) {
			continue
		}
		t.Logf("%s's login (%s) was lost with %s: %s logs in again", p, l, r1.name, p)
		if err := tm.loginAs(people[p], "mine"); err != nil {
			t.Errorf("%s's second login to mine: %v", p, err)
			continue
		}
		relogins[p] = fmt.Sprintf("login-%d", tm.up.auth.lineagesIssued())
		tm.waitCall(log, p, people[p], "mine__stamp")
		relogged[p] = window{killedAt, time.Now().Add(3 * time.Second)}
	}

	// A changed tool approved through one replica's HTTP (the status
	// page's POST /approve).
	tm.up.setNote("v2")
	tm.waitHeld("v2")
	tm.approveHTTP(r3, "ledger__note")
	tm.checkReleased("v2", "approved on "+r3.name)

	// SIGTERM another: it turns not-ready, drains, stops; HAProxy sends
	// the clients elsewhere meanwhile.
	termAt := time.Now()
	t.Logf("%s: SIGTERM %s", termAt.Format("15:04:05.000"), r2.name)
	r2.signal(syscall.SIGTERM)
	notReadyAt := time.Duration(0)
	for deadline := time.Now().Add(40 * time.Second); r2.running() && time.Now().Before(deadline); {
		if notReadyAt == 0 && r2.readyStatus() == http.StatusServiceUnavailable {
			notReadyAt = time.Since(termAt)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if r2.running() {
		t.Errorf("%s still runs 40 s after SIGTERM", r2.name)
		r2.stop(syscall.SIGKILL, 10*time.Second)
	}
	t.Logf("SIGTERM: %s not ready after %s, stopped after %s", r2.name, notReadyAt.Round(time.Millisecond), time.Since(termAt).Round(time.Millisecond))
	if notReadyAt == 0 {
		t.Errorf("%s never answered /readyz 503 between its SIGTERM and its exit: a load balancer kept sending it requests", r2.name)
	}
	// Restarted, and PostgreSQL restarted under the replicas as soon as
	// it serves, before it is ready: its first reads of the state (the
	// approvals, its servers' logins, the people's) may meet the
	// restart. It is not ready until it has read them, turns ready by
	// itself once the database is back, and then serves every server
	// and person, asking nobody to log in again.
	r2.start()
	r2.waitLog("serving Streamable HTTP", 60*time.Second)
	pgAt := time.Now()
	t.Logf("%s: PostgreSQL stopped (%s serving, ready: %v)", pgAt.Format("15:04:05.000"), r2.name, r2.ready())
	tm.pg.restart(2 * time.Second)
	t.Logf("PostgreSQL restarted (%s down)", time.Since(pgAt).Round(time.Millisecond))
	// Until every replica has read the state again (it polls every
	// second while it cannot listen), with room for a loaded machine.
	pgDown := window{pgAt, time.Now().Add(5 * time.Second)}
	if took := r2.waitReady(60 * time.Second); took == 0 {
		t.Errorf("%s never became ready after its restart and PostgreSQL's:\n%s", r2.name, r2.logTail())
	} else {
		t.Logf("%s ready %s after its restart, %s after PostgreSQL's", r2.name, took.Round(time.Millisecond), time.Since(pgAt).Round(time.Millisecond))
	}
	windows = append(windows, window{termAt, time.Now().Add(2 * time.Second)})
	for _, tool := range []string{"ledger__note", "shared__stamp", "mine__stamp"} {
		tm.waitListed(r2, tool, "after its restart and PostgreSQL's")
	}
	time.Sleep(2 * time.Second)

	// A changed tool approved through the CLI.
	tm.up.setNote("v3")
	tm.waitHeld("v3")
	tm.approveCLI("ledger__note")
	tm.checkReleased("v3", "approved by the CLI")

	// Long enough for every login's token to expire several times.
	if rest := 4*teamTokenTTL - time.Since(loadStart); rest > 0 {
		time.Sleep(rest)
	}
	stopLoad()
	wg.Wait()
	for _, s := range sessions {
		s.close()
	}
	loadEnd := time.Now()

	tm.checkWrites(log, killedAt)
	checkSessionsKept(t, log, windows)
	checkRefusalsAllowed(t, log, pgDown, relogged)
	checkSessionlessKept(t, log, killedAt)
	tm.checkPrincipals(log, sharedLogin, logins, relogins)
	tm.checkRefreshes(loadStart, loadEnd, []time.Time{killedAt})
}

// waitListed waits until the replica lists tool from its server's own
// listing (neither a last known one marked "[server … is failed]" nor
// none, "no tool named …", of a server that needs a login), for up to
// 30 s.
func (tm *team) waitListed(r *teamReplica, tool, when string) {
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		text, _ := modernCall(context.Background(), r.base(), teamOperatorToken, "tool_search", map[string]any{"query": "select:" + tool})
		if strings.Contains(text, tool) && !strings.Contains(text, "[server ") && !strings.Contains(text, "no tool named") {
			return
		}
		if time.Now().After(deadline) {
			tm.t.Errorf("%s never listed %s %s:\n%s", r.name, tool, when, text)
			return
		}
	}
}

func mustExecutable(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// waitCall makes one write call as principal until it succeeds (a login
// just made reaches every replica), and reports whether one did.
func (tm *team) waitCall(log *callLog, principal, token, target string) bool {
	t := tm.t
	deadline := time.Now().Add(30 * time.Second)
	var last string
	for time.Now().Before(deadline) {
		id := log.newID("probe-" + principal)
		start := time.Now()
		text, o := modernCall(context.Background(), tm.lb.base(), token, "call_tool", map[string]any{"name": target, "arguments": map[string]any{"id": id}})
		if o == succeeded && !strings.Contains(text, "recorded "+id) {
			o = refused
		}
		log.add(callRecord{id: id, client: "probe-" + principal, principal: principal, outcome: o, detail: text, at: start, took: time.Since(start)})
		if o == succeeded {
			return true
		}
		last = text
		time.Sleep(200 * time.Millisecond)
	}
	t.Errorf("%s's call to %s never succeeded; last: %s", principal, target, last)
	return false
}

// loginAs logs in to server as the principal whose token it is, as that
// person's /login page does, through the load balancer: POST /oauth/login
// with "person": true and their token, in a browser (a cookie jar) that
// keeps the HttpOnly cookie the login is bound to, follows the
// authorization server's redirect back to /oauth/callback (which HAProxy
// may send to another replica than the one the login began on) and shows
// the page it answers.
func (tm *team) loginAs(token, server string) error {
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	req, _ := http.NewRequest(http.MethodPost, tm.lb.base()+"/oauth/login", strings.NewReader(`{"server":"`+server+`","person":true}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := browser.Do(req)
	if err != nil {
		return err
	}
	data, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var started struct{ URL, Error string }
	if res.StatusCode != http.StatusOK || json.Unmarshal(data, &started) != nil || started.URL == "" {
		return fmt.Errorf("POST /oauth/login: %s: %s", res.Status, bytes.TrimSpace(data))
	}
	res, err = browser.Get(started.URL) // the authorization server approves at once and sends the browser back
	if err != nil {
		return err
	}
	data, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !bytes.Contains(data, []byte("Logged in to "+server+" as ")) {
		return fmt.Errorf("the callback answered %s: %s", res.Status, bytes.TrimSpace(data))
	}
	return nil
}

// noteOn asks one replica directly what tool_search shows of ledger__note.
func noteOn(r *teamReplica) string {
	text, _ := modernCall(context.Background(), r.base(), teamOperatorToken, "tool_search", map[string]any{"query": "select:ledger__note"})
	return text
}

// waitHeld waits until every live replica holds the note's new edition.
func (tm *team) waitHeld(version string) {
	t := tm.t
	for _, r := range tm.live() {
		deadline := time.Now().Add(20 * time.Second)
		for {
			text := noteOn(r)
			if strings.Contains(text, "[quarantined:") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s never held the note's edition %s; it shows:\n%s", r.name, version, text)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// checkReleased checks that every live replica serves the approved
// edition within teamApprovalBound, and logs how soon each did.
func (tm *team) checkReleased(version, how string) {
	t := tm.t
	approved := time.Now()
	for _, r := range tm.live() {
		for {
			text := noteOn(r)
			if strings.Contains(text, "edition "+version) && !strings.Contains(text, "[quarantined:") {
				took := time.Since(approved)
				t.Logf("%s: %s serves edition %s after %s", how, r.name, version, took.Round(time.Millisecond))
				if took > teamApprovalBound {
					t.Errorf("%s: %s took %s to serve the approved edition %s, more than %s", how, r.name, took.Round(time.Millisecond), version, teamApprovalBound)
				}
				break
			}
			if time.Since(approved) > 20*time.Second {
				t.Errorf("%s: %s never served the approved edition %s; it shows:\n%s", how, r.name, version, text)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// approveHTTP approves name's pending definition through r's status page
// API, with the digest its status.json shows.
func (tm *team) approveHTTP(r *teamReplica, name string) {
	t := tm.t
	req, _ := http.NewRequest(http.MethodGet, r.base()+"/status.json", nil)
	req.Header.Set("Authorization", "Bearer "+teamOperatorToken)
	res, err := teamHTTP.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var status struct {
		Pending []struct{ Name, Digest string } `json:"pending"`
	}
	err = json.NewDecoder(res.Body).Decode(&status)
	res.Body.Close()
	if err != nil {
		t.Fatalf("status.json of %s: %v", r.name, err)
	}
	digest := ""
	for _, p := range status.Pending {
		if p.Name == name {
			digest = p.Digest
		}
	}
	if digest == "" {
		t.Fatalf("%s's status.json shows no pending %s: %+v", r.name, name, status.Pending)
	}
	body, _ := json.Marshal(map[string]string{"name": name, "digest": digest})
	req, _ = http.NewRequest(http.MethodPost, r.base()+"/approve", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+teamOperatorToken)
	res, err = teamHTTP.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("POST /approve on %s: %s: %s", r.name, res.Status, data)
	}
}

var teamApproveRE = regexp.MustCompile(`toolsearch approve (ledger__note@[0-9a-f]+)`)

// approveCLI approves name as an operator would from a machine of their
// own: review, then the approve command it names.
func (tm *team) approveCLI(name string) {
	t := tm.t
	out, err := tm.cli(nil, "review", "ledger")
	m := teamApproveRE.FindStringSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("review ledger: %v\n%s", err, out)
	}
	if out, err := tm.cli(nil, "approve", m[1]); err != nil || !strings.HasPrefix(out, "approved "+name+"@") {
		t.Fatalf("approve %s: %v\n%s", m[1], err, out)
	}
}

// checkWrites holds every write to what its client saw: a success was
// received once, a refusal never, a call cut by a replica's death at most
// once; and it logs the counts.
func (tm *team) checkWrites(log *callLog, killedAt time.Time) {
	t := tm.t
	calls := log.all()
	seen := map[string]bool{}
	counts := map[outcome]int{}
	cutDone := 0
	for _, c := range calls {
		seen[c.id] = true
		counts[c.outcome]++
		n, _ := tm.up.count(c.id)
		switch {
		case n > 1:
			t.Errorf("%s (%s): the upstream received it %d times", c.id, c.outcome, n)
		case c.outcome == succeeded && n != 1:
			t.Errorf("%s: the client saw a success the upstream never received", c.id)
		case c.outcome == refused && n != 0:
			t.Errorf("%s: the client was told it failed (%s), but the upstream received it", c.id, c.detail)
		case c.outcome == cut && n == 1:
			cutDone++
		}
	}
	for id, n := range tm.up.received() {
		if !seen[id] {
			t.Errorf("the upstream received %s (%d times), which no client sent", id, n)
		}
	}
	t.Logf("write calls: %d succeeded, %d refused, %d cut (%d of them done upstream, the client never told)",
		counts[succeeded], counts[refused], counts[cut], cutDone)
	if counts[succeeded] == 0 {
		t.Error("no write call succeeded")
	}
	// Refusals are allowed (a lost session, a replica going away), but
	// the run must recover: every client succeeds again after the kill.
	last := map[string]time.Time{}
	for _, c := range calls {
		if c.outcome == succeeded && c.at.After(last[c.client]) {
			last[c.client] = c.at
		}
	}
	for client, at := range last {
		if strings.HasPrefix(client, "probe-") {
			continue
		}
		if at.Before(killedAt) {
			t.Errorf("%s never succeeded after the kill -9", client)
		}
	}
	reasons := map[string]int{}
	for _, c := range calls {
		if c.outcome != succeeded {
			reasons[c.outcome.String()+": "+firstLine(c.detail)]++
		}
	}
	keys := make([]string, 0, len(reasons))
	for k := range reasons {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("  %4d × %s", reasons[k], k)
	}
	if testing.Verbose() {
		for _, c := range calls {
			if c.outcome != succeeded {
				t.Logf("  %s %s %s (%s, took %s): %s", c.at.Format("15:04:05.000"), c.id, c.outcome, c.principal, c.took.Round(time.Millisecond), firstLine(c.detail))
			}
		}
	}
}

// sessionIDs are left out of the reasons counted, so that one reason is
// one line.
var sessionIDs = regexp.MustCompile(`\(session ID: [^)]*\)`)

// window is a time a replica was gone: from its kill or SIGTERM until it
// was ready again (and a moment for HAProxy to notice).
type window struct{ from, to time.Time }

// during reports whether the call was under way at some time of w: a
// call sent just before a kill -9 was in flight at it.
func (c callRecord) during(w window) bool {
	return !c.at.Add(c.took).Before(w.from) && c.at.Before(w.to)
}

// checkRefusalsAllowed checks that toolsearch refused no write call but
// those the issue allows, each a sentence the client can act on: a lost
// session (checkSessionsKept), a probe waiting for a login just made to
// reach every replica, and, while PostgreSQL restarted, what a replica
// could not do without it (a token that expired and could not be
// refreshed under the grant's lock), and, for a person whose login a
// replica killed with SIGKILL took with it, being told to log in again
// until they have (relogged). Anything else (a login said to be missing,
// a login not read yet, which a replica reads before it is ready, a tool
// unknown) is a fault.
func checkRefusalsAllowed(t *testing.T, log *callLog, pgDown window, relogged map[string]window) {
	for _, c := range log.all() {
		w, lost := relogged[c.principal]
		switch {
		case c.outcome != refused, strings.HasPrefix(c.client, "probe-"):
		case strings.Contains(c.detail, "session not found"):
		case c.during(pgDown) && strings.Contains(c.detail, "cannot be refreshed while the shared state (the database) cannot be reached"):
		case lost && c.during(w) && strings.Contains(c.detail, "auth_required") && strings.Contains(c.detail, "the authorization server refused to refresh its token"):
		default:
			t.Errorf("%s refused at %s: %s", c.id, c.at.Format("15:04:05.000"), firstLine(c.detail))
		}
	}
}

// checkSessionsKept checks that a session was lost only while a replica
// was gone: at any other time, a request of a session that reaches
// another replica than its owner is forwarded to it.
func checkSessionsKept(t *testing.T, log *callLog, gone []window) {
	lost, example := 0, ""
	for _, c := range log.all() {
		if c.outcome != refused || !strings.Contains(c.detail, "session not found") {
			continue
		}
		during := false
		for _, w := range gone {
			if c.during(w) {
				during = true
			}
		}
		if !during {
			lost++
			example = c.id + ": " + firstLine(c.detail)
		}
	}
	if lost > 0 {
		t.Errorf("%d session calls found their session lost while every replica was up (a request reaching another replica than the session's owner must be forwarded to it); e.g. %s", lost, example)
	}
}

// checkSessionlessKept checks that sessionless (2026-07-28) requests lost
// nothing but the calls in flight on the replica killed with SIGKILL:
// none refused (not at the SIGTERM, which drains, nor while PostgreSQL
// restarts, when replicas serve what they hold), none cut at another
// time.
func checkSessionlessKept(t *testing.T, log *callLog, killedAt time.Time) {
	for _, c := range log.all() {
		if !strings.HasPrefix(c.client, "modern-") || c.outcome == succeeded {
			continue
		}
		atKill := !c.at.Before(killedAt.Add(-time.Second)) && c.at.Before(killedAt.Add(time.Second))
		switch {
		case c.outcome == cut && (atKill || strings.Contains(c.detail, "context canceled")):
		default:
			t.Errorf("sessionless call %s %s at %s, %s after the kill -9: %s", c.id, c.outcome, c.at.Format("15:04:05.000"), c.at.Sub(killedAt).Round(time.Millisecond), firstLine(c.detail))
		}
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	s = sessionIDs.ReplaceAllString(s, "(session ID: …)")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

// checkPrincipals checks that each write carried the login its caller's
// calls must use: the operator's through the shared login, each person's
// through their own, never another's.
func (tm *team) checkPrincipals(log *callLog, shared string, logins, relogins map[string]string) {
	t := tm.t
	all := map[string]string{} // lineage -> principal
	for _, m := range []map[string]string{logins, relogins} {
		for p, l := range m {
			if l == shared {
				t.Errorf("%s's login is the shared one", p)
			}
			if q, ok := all[l]; ok && q != p {
				t.Errorf("%s and %s got the same login", p, q)
			}
			all[l] = p
		}
	}
	for _, c := range log.all() {
		if c.outcome != succeeded || strings.HasPrefix(c.id, "session-") || strings.HasPrefix(c.id, "modern-") {
			continue // ledger takes no login
		}
		_, lineage := tm.up.count(c.id)
		want := shared
		if c.principal != "operator" {
			want = logins[c.principal]
			if l, ok := relogins[c.principal]; ok && lineage == l {
				want = l // the login made again after the kill took the first
			}
		}
		if lineage != want {
			t.Errorf("%s's call %s carried the token of %s, want %s (%s)", c.principal, c.id, lineage, want, c.detail)
		}
	}
}

// checkRefreshes checks that each login's token was refreshed as it
// expired, once per expiry across the cluster: never refused (a refresh
// token another replica already spent) unless a replica killed at one of
// kills spent it and died before storing the answer, never twice within
// a quarter of a token's life, no more often than every half life.
func (tm *team) checkRefreshes(from, to time.Time, kills []time.Time) {
	t := tm.t
	byLogin, refused := tm.up.auth.refreshStats()
	for _, f := range refused {
		if tm.up.auth.lostToKill(f, kills) {
			t.Logf("%s's refresh token was spent by the replica killed with SIGKILL before it stored the answer; refused at %s when another replica spent it again", f.lineage, f.at.Format("15:04:05.000"))
			continue
		}
		t.Errorf("the authorization server refused a refresh of %s at %s: a retired refresh token was spent (a racing refresh)", f.lineage, f.at.Format("15:04:05.000"))
	}
	most := int(to.Sub(from)/(teamTokenTTL/2)) + 2
	for l, times := range byLogin {
		t.Logf("%s: refreshed %d times in %s", l, len(times), to.Sub(from).Round(time.Second))
		if len(times) > most {
			t.Errorf("%s was refreshed %d times in %s, more than once per half-life (%d)", l, len(times), to.Sub(from).Round(time.Second), most)
		}
		for i := 1; i < len(times); i++ {
			if gap := times[i].Sub(times[i-1]); gap < teamTokenTTL/4 {
				t.Errorf("%s was refreshed twice within %s", l, gap.Round(time.Millisecond))
			}
		}
	}
	if len(byLogin) == 0 {
		t.Error("no token was refreshed: the run did not outlast a token")
	}
}
