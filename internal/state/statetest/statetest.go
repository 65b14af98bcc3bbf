// Package statetest is the one conformance suite of toolsearch's shared
// state: every behaviour the approvals, the OAuth grants and the last known
// catalogs promise, run against each implementation (the files, always;
// PostgreSQL when a test has one, package internal/state/pgstate).
package statetest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/loader/trust"
	"github.com/toolsearch/toolsearch/loader/upstream"
	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
	"golang.org/x/oauth2"
)

// A Process is one process's view of a state: two from the same state
// stand for two replicas (or a replica and the CLI) over one database, or
// two toolsearch processes of one user over one folder.
type Process struct {
	Approvals trust.Backend
	Grants    oauth.Grants
	Catalogs  upstream.Catalogs
	Logins    oauth.Logins
}

// A State opens processes over one state.
type State func(t *testing.T) Process

// Run runs every behaviour; newState makes an empty state for each.
func Run(t *testing.T, newState func(t *testing.T) State) {
	for _, b := range behaviours {
		t.Run(b.name, func(t *testing.T) {
			b.run(t, newState(t))
		})
	}
}

var behaviours = []struct {
	name string
	run  func(t *testing.T, open State)
}{
	{"ApprovalSeenByAnotherProcess", approvalSeenByAnother},
	{"ApprovalReachesAWatchingProcess", approvalReachesWatcher},
	{"FirstListingRecordedOnce", firstListingOnce},
	{"ForgetMakesTheNextListingFirst", forgetMakesFirst},
	{"GrantsKeyedByPrincipal", grantsByPrincipal},
	{"GrantStampChangesWithTheGrant", grantStamp},
	{"PrincipalGrantsListedAtOnce", principalGrantsListed},
	{"PrincipalGrantForgottenAlone", principalGrantForgotten},
	{"RefreshOnceAcrossProcesses", func(t *testing.T, open State) { refreshOnce(t, open, "") }},
	{"PersonsRefreshOnceAndAlone", func(t *testing.T, open State) { refreshOnce(t, open, "alice") }},
	{"PendingLoginTakenOnceByAnyProcess", loginTakenOnce},
	{"PendingLoginKeepsWhatCompletingNeeds", loginRoundTrip},
	{"ExpiredLoginIsNone", loginExpired},
	{"CatalogSavedAndRead", catalogRoundTrip},
}

// store opens a trust.Store over p's approvals and waits for its first read.
func store(t *testing.T, p Process) *trust.Store {
	t.Helper()
	s := trust.OpenBackend(p.Approvals, nil)
	<-s.Loaded()
	if err := s.Err(); err != nil {
		t.Fatalf("opening the approvals: %v", err)
	}
	return s
}

func approve(t *testing.T, s *trust.Store, key, entry, digest, by string) {
	t.Helper()
	if err := s.Approve(context.Background(), key, key, []trust.Item{{Entry: entry, Digest: digest, By: by}}); err != nil {
		t.Fatalf("approving %s %s: %v", key, entry, err)
	}
}

func approvalSeenByAnother(t *testing.T, open State) {
	a, b := store(t, open(t)), store(t, open(t))
	approve(t, a, "srv", "tool", "d1", "cli")
	approve(t, b, "srv", "other", "d2", "http") // b's write keeps a's
	c := store(t, open(t))
	for _, want := range [][2]string{{"tool", "d1"}, {"other", "d2"}} {
		if !c.Approved("srv", want[0], want[1]) {
			t.Errorf("a third process does not see %s approved", want)
		}
	}
	if !c.Known("srv") || c.Known("nothing") {
		t.Errorf("Known: srv %v, nothing %v; want true, false", c.Known("srv"), c.Known("nothing"))
	}
}

// waitFor waits until cond holds or a generous bound passes; it returns
// how long that took. The bound is not the promise (a second), which the
// logs show; it only keeps a failing test from hanging.
func waitFor(t *testing.T, what string, changed <-chan struct{}, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	bound := time.After(15 * time.Second)
	for !cond() {
		select {
		case <-changed:
		case <-time.After(50 * time.Millisecond):
		case <-bound:
			t.Fatalf("%s: not within 15 s", what)
		}
	}
	return time.Since(start)
}

func approvalReachesWatcher(t *testing.T, open State) {
	watcher, writer := store(t, open(t)), store(t, open(t))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	changed := make(chan struct{}, 1)
	defer watcher.Subscribe(func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})()
	go watcher.Watch(ctx)
	approve(t, writer, "srv", "tool", "d1", "cli")
	took := waitFor(t, "the watching process seeing the approval", changed, func() bool { return watcher.Approved("srv", "tool", "d1") })
	t.Logf("the approval reached the watching process in %v", took)
}

func firstListingOnce(t *testing.T, open State) {
	const racers = 4
	stores := make([]*trust.Store, racers)
	for i := range stores {
		stores[i] = store(t, open(t))
	}
	// Every racer takes its listing for the first one, each with another
	// definition of the tool.
	for i, s := range stores {
		if v := s.Decide(trust.ModeChanged, "srv", "tool", fmt.Sprintf("d%d", i), false); v.Trust != trust.ByFirstListing {
			t.Fatalf("racer %d: verdict %+v, want a first listing", i, v)
		}
	}
	var wg sync.WaitGroup
	for i, s := range stores {
		wg.Go(func() { approve(t, s, "srv", "tool", fmt.Sprintf("d%d", i), trust.ByFirstListing) })
	}
	wg.Wait()
	judge := store(t, open(t))
	winners := 0
	for i := range stores {
		if judge.Approved("srv", "tool", fmt.Sprintf("d%d", i)) {
			winners++
		}
	}
	if winners != 1 {
		t.Fatalf("%d first listings trusted, want exactly one: %+v", winners, judge.Approvals("srv", "tool"))
	}
	// Each racer now holds the winner's, and holds its own definition
	// when it lost.
	winner := judge.Approvals("srv", "tool")[0].Digest
	for i, s := range stores {
		d := fmt.Sprintf("d%d", i)
		v := s.Decide(trust.ModeChanged, "srv", "tool", d, false)
		if held := d != winner; v.Held != held {
			t.Errorf("racer %d after the race: %+v, want held %v (the winner's is %s)", i, v, held, winner)
		}
	}
}

func forgetMakesFirst(t *testing.T, open State) {
	a := store(t, open(t))
	approve(t, a, "srv", "tool", "d1", trust.ByFirstListing)
	forgot, err := a.Forget(context.Background(), "srv")
	if err != nil || !forgot {
		t.Fatalf("Forget: %v, %v", forgot, err)
	}
	b := store(t, open(t))
	if b.Known("srv") {
		t.Fatal("a forgotten source is still known to another process")
	}
	if v := b.Decide(trust.ModeChanged, "srv", "tool", "d2", false); v.Trust != trust.ByFirstListing {
		t.Errorf("after Forget: %+v, want a first listing", v)
	}
}

func grant(server, resource, access string) *oauth.Grant {
	return &oauth.Grant{Server: server, Resource: resource, ClientID: "client", AuthURL: resource + "/authorize", TokenURL: resource + "/token",
		Token: &oauth2.Token{AccessToken: access, RefreshToken: "rt-" + access, Expiry: time.Now().Add(time.Hour)}, Obtained: time.Now()}
}

func grantsByPrincipal(t *testing.T, open State) {
	ctx := context.Background()
	p := open(t)
	const res = "https://mcp.example.com/mcp"
	shared := oauth.GrantKey{Server: "srv", Resource: res}
	alice := oauth.GrantKey{Principal: "alice", Server: "srv", Resource: res}
	if _, err := p.Grants.SaveGrant(ctx, shared, grant("srv", res, "shared-token")); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Grants.SaveGrant(ctx, alice, grant("srv", res, "alice-token")); err != nil {
		t.Fatal(err)
	}
	other := open(t)
	for k, want := range map[oauth.GrantKey]string{shared: "shared-token", alice: "alice-token",
		{Principal: "bob", Server: "srv", Resource: res}:               "",
		{Server: "srv", Resource: "https://elsewhere.example.com/mcp"}: ""} {
		g, _, err := other.Grants.LoadGrant(ctx, k)
		got := ""
		if g != nil {
			got = g.Token.AccessToken
		}
		if err != nil || got != want {
			t.Errorf("LoadGrant(%+v) = %q, %v; want %q", k, got, err, want)
		}
	}
	if err := other.Grants.DeleteGrant(ctx, alice); err != nil {
		t.Fatal(err)
	}
	if g, _, _ := p.Grants.LoadGrant(ctx, alice); g != nil {
		t.Error("a deleted grant is still read")
	}
	if g, _, _ := p.Grants.LoadGrant(ctx, shared); g == nil {
		t.Error("deleting alice's grant deleted the shared one")
	}
	if err := other.Grants.DeleteGrant(ctx, alice); err != nil {
		t.Errorf("deleting a grant that is gone: %v", err)
	}
}

// principalGrantsListed: a store that lists the people's grants of a
// server (oauth.GrantLister, what a replica reads before it is ready)
// gives each principal's own, with the stamp another process reads, and
// neither the shared grant nor another server's or URL's (a server whose
// name begins with this one's included). Every store lists them: `auth
// status` shows the operator who has logged in.
func principalGrantsListed(t *testing.T, open State) {
	ctx := context.Background()
	p := open(t)
	lister(t, p)
	const res = "https://mcp.example.com/mcp"
	for k, access := range map[oauth.GrantKey]string{
		{Server: "srv", Resource: res}:                                    "shared-token",
		{Principal: "alice", Server: "srv", Resource: res}:                "alice-token",
		{Principal: "bob", Server: "srv", Resource: res}:                  "bob-token",
		{Principal: "alice", Server: "other", Resource: res}:              "alice-other",
		{Principal: "carol", Server: "srv", Resource: res + "/elsewhere"}: "carol-elsewhere",
		{Principal: "dave", Server: "srv-2", Resource: res}:               "dave-srv-2",
	} {
		if _, err := p.Grants.SaveGrant(ctx, k, grant(k.Server, k.Resource, access)); err != nil {
			t.Fatal(err)
		}
	}
	other := open(t)
	got, err := lister(t, other).PrincipalGrants(ctx, "srv", res)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, sg := range got {
		if sg.Err != nil || sg.Grant == nil {
			t.Errorf("%s's grant listed as not opening: %v", sg.Key.Principal, sg.Err)
			continue
		}
		seen[sg.Key.Principal] = sg.Grant.Token.AccessToken
		stamp, err := p.Grants.GrantStamp(ctx, sg.Key)
		if err != nil || !stamp.Same(sg.Stamp) {
			t.Errorf("%s's grant listed with a stamp other than GrantStamp's (%v)", sg.Key.Principal, err)
		}
	}
	if len(seen) != 2 || seen["alice"] != "alice-token" || seen["bob"] != "bob-token" {
		t.Errorf("PrincipalGrants(srv) = %v; want alice's and bob's own alone", seen)
	}
}

// lister is p's grants as a GrantLister, which every store is.
func lister(t *testing.T, p Process) oauth.GrantLister {
	t.Helper()
	l, ok := p.Grants.(oauth.GrantLister)
	if !ok {
		t.Fatalf("%T does not list the grants people hold (oauth.GrantLister)", p.Grants)
	}
	return l
}

// principalGrantForgotten: one person's grant deleted (`auth logout SERVER
// --principal NAME`) is gone for every process, listed no more, and
// nobody else's goes with it: not another person's, not the shared login,
// not the same person's grant of another server. A grant refreshed under
// the lock is listed as before.
func principalGrantForgotten(t *testing.T, open State) {
	ctx := context.Background()
	p, other := open(t), open(t)
	const res = "https://mcp.example.com/mcp"
	keys := []oauth.GrantKey{
		{Server: "srv", Resource: res},
		{Principal: "alice", Server: "srv", Resource: res},
		{Principal: "bob", Server: "srv", Resource: res},
		{Principal: "alice", Server: "other", Resource: res},
	}
	for _, k := range keys {
		if _, err := p.Grants.SaveGrant(ctx, k, grant(k.Server, k.Resource, k.Principal+"-"+k.Server)); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := p.Grants.UpdateGrant(ctx, keys[2], func(g *oauth.Grant) (*oauth.Grant, error) {
		n := *g
		n.Token = &oauth2.Token{AccessToken: "bob-refreshed", Expiry: time.Now().Add(time.Hour)}
		return &n, nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := other.Grants.DeleteGrant(ctx, keys[1]); err != nil {
		t.Fatalf("deleting alice's grant: %v", err)
	}
	if g, _, err := p.Grants.LoadGrant(ctx, keys[1]); err != nil || g != nil {
		t.Errorf("alice's grant after it was deleted: %v, %v; want none", g, err)
	}
	for _, k := range []oauth.GrantKey{keys[0], keys[2], keys[3]} {
		if g, _, err := p.Grants.LoadGrant(ctx, k); err != nil || g == nil {
			t.Errorf("%q's grant of %s went with alice's: %v", k.Principal, k.Server, err)
		}
	}
	got, err := lister(t, p).PrincipalGrants(ctx, "srv", res)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Key.Principal != "bob" || got[0].Grant == nil || got[0].Grant.Token.AccessToken != "bob-refreshed" {
		t.Errorf("PrincipalGrants(srv) after alice's was deleted = %+v; want bob's refreshed grant alone", got)
	}
}

func grantStamp(t *testing.T, open State) {
	ctx := context.Background()
	a, b := open(t), open(t)
	k := oauth.GrantKey{Server: "srv", Resource: "https://mcp.example.com/mcp"}
	none, err := b.Grants.GrantStamp(ctx, k)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Grants.SaveGrant(ctx, k, grant(k.Server, k.Resource, "one")); err != nil {
		t.Fatal(err)
	}
	first, _ := b.Grants.GrantStamp(ctx, k)
	if first.Same(none) {
		t.Error("the stamp did not change when a grant was stored")
	}
	// Stored again at once: a new version all the same.
	if _, err := a.Grants.SaveGrant(ctx, k, grant(k.Server, k.Resource, "two")); err != nil {
		t.Fatal(err)
	}
	second, _ := b.Grants.GrantStamp(ctx, k)
	if second.Same(first) {
		t.Error("the stamp did not change when the grant was replaced")
	}
	again, _ := b.Grants.GrantStamp(ctx, k)
	if !again.Same(second) {
		t.Error("the stamp changed with nothing stored")
	}
}

// refreshOnce: every process finds the access token expiring at once and
// refreshes it; the authorization server (which rotates refresh tokens,
// refusing a spent one) sees one refresh, and every process gets its
// token. With a principal, the grant is that person's, and another
// person's grant of the same server is left as it was.
func refreshOnce(t *testing.T, open State, principal string) {
	var refreshes atomic.Int32
	var mu sync.Mutex
	spent := map[string]bool{}
	as := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		rt := r.PostForm.Get("refresh_token")
		mu.Lock()
		reused := spent[rt]
		spent[rt] = true
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if reused {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":"invalid_grant"}`)
			return
		}
		n := refreshes.Add(1)
		time.Sleep(50 * time.Millisecond) // a window for racers
		json.NewEncoder(w).Encode(map[string]any{"access_token": fmt.Sprintf("at-%d", n), "refresh_token": fmt.Sprintf("rt-%d", n), "token_type": "Bearer", "expires_in": 3600})
	}))
	defer as.Close()
	resource := as.URL + "/mcp"
	k := oauth.GrantKey{Principal: principal, Server: "srv", Resource: resource}
	g := grant("srv", resource, "old")
	g.TokenURL = as.URL + "/token"
	g.Token.Expiry = time.Now().Add(-time.Minute)
	if _, err := open(t).Grants.SaveGrant(context.Background(), k, g); err != nil {
		t.Fatal(err)
	}
	bob := oauth.GrantKey{Principal: "bob", Server: "srv", Resource: resource}
	if principal != "" {
		if _, err := open(t).Grants.SaveGrant(context.Background(), bob, grant("srv", resource, "bobs")); err != nil {
			t.Fatal(err)
		}
		defer func() {
			if g, _, err := open(t).Grants.LoadGrant(context.Background(), bob); err != nil || g == nil || g.Token.AccessToken != "bobs" {
				t.Errorf("another person's grant after %s's refresh: %+v, %v", principal, g, err)
			}
		}()
	}
	const processes = 4
	got := make([]string, processes)
	var wg sync.WaitGroup
	for i := range processes {
		tokens := oauth.NewTokensFor(open(t).Grants, k, as.Client(), nil)
		wg.Go(func() {
			tok, err := tokens.Token()
			if err != nil {
				t.Errorf("process %d: %v", i, err)
				return
			}
			got[i] = tok.AccessToken
		})
	}
	wg.Wait()
	if n := refreshes.Load(); n != 1 {
		t.Errorf("%d refreshes, want 1", n)
	}
	for i, tok := range got {
		if tok != "at-1" {
			t.Errorf("process %d got %q, want the one refreshed token at-1", i, tok)
		}
	}
}

func catalogRoundTrip(t *testing.T, open State) {
	ctx := context.Background()
	a, b := open(t), open(t)
	const name = "srv-0123456789abcdef.json"
	if rc, err := b.Catalogs.OpenCatalog(ctx, name); rc != nil || err != nil {
		t.Fatalf("a catalog never saved: %v, %v; want none", rc, err)
	}
	for _, body := range []string{`{"version":1}`, `{"version":1,"server":"srv"}`} {
		if err := a.Catalogs.SaveCatalog(ctx, name, func(w io.Writer) error { _, err := io.WriteString(w, body); return err }); err != nil {
			t.Fatal(err)
		}
		rc, err := b.Catalogs.OpenCatalog(ctx, name)
		if err != nil || rc == nil {
			t.Fatalf("OpenCatalog: %v, %v", rc, err)
		}
		got, _ := io.ReadAll(rc)
		rc.Close()
		if strings.TrimSpace(string(got)) != body {
			t.Errorf("read %q, want %q", got, body)
		}
	}
}

// pendingLogin is a login begun by who, expiring in life.
func pendingLogin(state, who string, life time.Duration) *oauth.PendingLogin {
	return &oauth.PendingLogin{
		State: state, Principal: who, Server: "srv", Resource: "https://mcp.example.com/mcp", Indicator: "https://mcp.example.com/mcp",
		Expires: time.Now().Add(life), Verifier: "verifier-" + state, RedirectURL: "https://toolsearch.example.com/oauth/callback",
		ClientID: "client", ClientSecret: "client-secret", AuthStyle: oauth2.AuthStyleInParams,
		AuthURL: "https://as.example.com/authorize", TokenURL: "https://as.example.com/token", Issuer: "https://as.example.com",
		Scopes: []string{"tasks", "offline_access"}, IssRequired: true, Binding: "binding-" + state,
	}
}

// loginTakenOnce: a login begun in one process is completed by whichever
// process its redirect reaches, once, however many race for it.
func loginTakenOnce(t *testing.T, open State) {
	ctx := context.Background()
	if err := open(t).Logins.PutLogin(ctx, pendingLogin("st-1", "alice", time.Minute)); err != nil {
		t.Fatal(err)
	}
	const racers = 4
	var wg sync.WaitGroup
	var taken atomic.Int32
	for range racers {
		p := open(t)
		wg.Go(func() {
			l, err := p.Logins.TakeLogin(ctx, "st-1")
			if err != nil {
				t.Error(err)
			}
			if l != nil {
				taken.Add(1)
			}
		})
	}
	wg.Wait()
	if n := taken.Load(); n != 1 {
		t.Errorf("the pending login was taken %d times, want once", n)
	}
	for _, state := range []string{"st-1", "never-begun", ""} {
		if l, err := open(t).Logins.TakeLogin(ctx, state); l != nil || err != nil {
			t.Errorf("TakeLogin(%q) = %+v, %v; want none", state, l, err)
		}
	}
}

func loginRoundTrip(t *testing.T, open State) {
	ctx := context.Background()
	want := pendingLogin("st-2", "bob", time.Minute)
	if err := open(t).Logins.PutLogin(ctx, want); err != nil {
		t.Fatal(err)
	}
	got, err := open(t).Logins.TakeLogin(ctx, "st-2")
	if err != nil || got == nil {
		t.Fatalf("TakeLogin = %v, %v", got, err)
	}
	if !got.Expires.Equal(want.Expires) {
		t.Errorf("expires %v, want %v", got.Expires, want.Expires)
	}
	got.Expires = want.Expires
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	if string(a) != string(b) {
		t.Errorf("taken:\n%s\nwant:\n%s", a, b)
	}
}

func loginExpired(t *testing.T, open State) {
	ctx := context.Background()
	if err := open(t).Logins.PutLogin(ctx, pendingLogin("st-3", "carol", -time.Second)); err != nil {
		t.Fatal(err)
	}
	if l, err := open(t).Logins.TakeLogin(ctx, "st-3"); l != nil || err != nil {
		t.Errorf("an expired login was taken: %+v, %v", l, err)
	}
}
