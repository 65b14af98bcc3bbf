//go:build team && linux

package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/toolsearch/toolsearch/examples/servers/authserver"
)

// teamUpstream is what the replicas front, served by the test itself on
// loopback so that it can count: "ledger", a server without a login whose
// record tool counts every write it receives by the caller's id, and
// whose note tool the test changes to have it approved; and "shared" and
// "mine", the same counting tool behind the example OAuth server
// (examples/servers/authserver, with short-lived tokens), logged in to
// once for everyone and once per person.
type teamUpstream struct {
	base   string
	auth   *teamAuth
	ledger *mcp.Server

	mu     sync.Mutex
	writes map[string]int    // id -> writes received
	tokens map[string]string // id -> the access token's lineage that carried it ("" without a login)
}

// recordArgs is the record and stamp tools' input: an id the client made
// up for this one call.
type recordArgs struct {
	ID string `json:"id"`
}

func startTeamUpstream(t *testing.T, tokenTTL time.Duration) *teamUpstream {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := &teamUpstream{base: "http://" + ln.Addr().String(), writes: map[string]int{}, tokens: map[string]string{}}
	// The authorization server at a root of its own, where clients look
	// for its metadata.
	u.auth = newTeamAuth(tokenTTL)
	as := httptest.NewServer(u.auth)
	t.Cleanup(as.Close)
	u.auth.as.SetIssuer(as.URL)
	mux := http.NewServeMux()

	u.ledger = u.newServer("ledger")
	u.setNote("v1")
	mux.Handle("/ledger/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return u.ledger }, nil))
	for _, name := range []string{"shared", "mine"} {
		u.protect(mux, name, u.newServer(name))
	}
	srv := httptest.NewUnstartedServer(mux)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return u
}

// newServer is an upstream whose write tool counts each call by its id.
func (u *teamUpstream) newServer(name string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: name, Version: "1"}, nil)
	tool := "record"
	if name != "ledger" {
		tool = "stamp"
	}
	notDestructive := false
	mcp.AddTool(s, &mcp.Tool{
		Name:        tool,
		Description: "Records one entry in the team's " + name + " ledger, once per id.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: &notDestructive},
	}, func(_ context.Context, req *mcp.CallToolRequest, in recordArgs) (*mcp.CallToolResult, any, error) {
		lineage := ""
		if ti := req.Extra.TokenInfo; ti != nil && ti.Extra != nil {
			lineage, _ = ti.Extra["lineage"].(string)
		}
		u.mu.Lock()
		u.writes[in.ID]++
		u.tokens[in.ID] = lineage
		u.mu.Unlock()
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "recorded " + in.ID}}}, nil, nil
	})
	return s
}

// setNote gives ledger's note tool a new definition, which the replicas
// hold for a person's approval (ledger is quarantine: changed).
func (u *teamUpstream) setNote(version string) {
	u.ledger.AddTool(&mcp.Tool{
		Name:        "note",
		Description: "Reads the team's pinned note, edition " + version + ".",
		InputSchema: json.RawMessage(`{"type":"object","properties":{}}`),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "note " + version}}}, nil
	})
}

// protect serves s at /NAME/mcp behind the authorization server, as
// examples/servers/tasks serves its tools.
func (u *teamUpstream) protect(mux *http.ServeMux, name string, s *mcp.Server) {
	resource := u.base + "/" + name + "/mcp"
	prm := "/.well-known/oauth-protected-resource/" + name + "/mcp"
	mux.Handle(prm, auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource:             resource,
		AuthorizationServers: []string{u.auth.as.Issuer()},
		ScopesSupported:      []string{"team"},
	}))
	verify := u.auth.as.Verifier(resource)
	withLineage := func(ctx context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
		ti, err := verify(ctx, token, r)
		if err == nil {
			ti.Extra = map[string]any{"lineage": u.auth.lineageOf(token)}
		}
		return ti, err
	}
	require := auth.RequireBearerToken(withLineage, &auth.RequireBearerTokenOptions{ResourceMetadataURL: u.base + prm, Scopes: []string{"team"}})
	mux.Handle("/"+name+"/mcp", require(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)))
}

// count returns how many writes of id the upstream received, and the
// token lineage of the last.
func (u *teamUpstream) count(id string) (int, string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.writes[id], u.tokens[id]
}

// received lists every id the upstream received a write of.
func (u *teamUpstream) received() map[string]int {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := make(map[string]int, len(u.writes))
	for id, n := range u.writes {
		out[id] = n
	}
	return out
}

// teamAuth is the example authorization server with its token endpoint
// watched: each login starts a lineage (the tokens an authorization code
// and its refreshes issued), so that the test can tell whose login a call
// carried and count refreshes per login, and a refresh the server refused
// (a retired refresh token spent again) is kept apart, with what became
// of the tokens its first spending issued: a refresh is lost, not raced,
// when a replica killed with SIGKILL spent the refresh token and died
// before it stored what the server answered, so that nobody ever used it.
type teamAuth struct {
	as *authserver.Server

	mu        sync.Mutex
	lineages  int
	byToken   map[string]string // access or refresh token -> lineage
	refreshes map[string][]time.Time
	spent     map[string]spending // refresh token -> its answered refresh
	used      map[string]bool     // tokens presented since they were issued
	refused   []refusal

	// onRefresh, when set, runs after the server answered a refresh of
	// the lineage and before the answer is sent: a test kills the replica
	// that asked, as SIGKILL may between the two.
	onRefresh func(lineage string)
}

// spending is a refresh token's answered refresh: when, and the tokens it
// issued.
type spending struct {
	at              time.Time
	access, refresh string
}

// refusal is a refresh the server refused, with the spending of the same
// refresh token it answered before, if any.
type refusal struct {
	lineage string
	at      time.Time
	first   *spending
}

func newTeamAuth(ttl time.Duration) *teamAuth {
	return &teamAuth{
		as:        authserver.New(authserver.Options{Scopes: []string{"team"}, AccessTTL: ttl}),
		byToken:   map[string]string{},
		refreshes: map[string][]time.Time{},
		spent:     map[string]spending{},
		used:      map[string]bool{},
	}
}

func (a *teamAuth) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/token" {
		a.as.ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	form, _ := url.ParseQuery(string(body))
	r.Body = io.NopCloser(bytes.NewReader(body))
	rec := httptest.NewRecorder()
	a.as.ServeHTTP(rec, r)
	var tok struct {
		Access  string `json:"access_token"`
		Refresh string `json:"refresh_token"`
	}
	json.Unmarshal(rec.Body.Bytes(), &tok)
	a.mu.Lock()
	var hook func()
	switch form.Get("grant_type") {
	case "authorization_code":
		if tok.Access != "" {
			a.lineages++
			l := fmt.Sprintf("login-%d", a.lineages)
			a.byToken[tok.Access], a.byToken[tok.Refresh] = l, l
		}
	case "refresh_token":
		rt := form.Get("refresh_token")
		l := a.byToken[rt]
		a.used[rt] = true
		if tok.Access == "" {
			f := refusal{lineage: l, at: time.Now()}
			if s, ok := a.spent[rt]; ok {
				f.first = &s
			}
			a.refused = append(a.refused, f)
		} else {
			a.byToken[tok.Access], a.byToken[tok.Refresh] = l, l
			a.refreshes[l] = append(a.refreshes[l], time.Now())
			a.spent[rt] = spending{at: time.Now(), access: tok.Access, refresh: tok.Refresh}
			if a.onRefresh != nil {
				on := a.onRefresh
				hook = func() { on(l) }
			}
		}
	}
	a.mu.Unlock()
	if hook != nil {
		hook()
	}
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	w.Write(rec.Body.Bytes())
}

// lineageOf names the lineage of a token an upstream received, and marks
// it used.
func (a *teamAuth) lineageOf(token string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.used[token] = true
	if l := a.byToken[token]; l != "" {
		return l
	}
	sum := sha256.Sum256([]byte(token))
	return "unknown-" + hex.EncodeToString(sum[:4])
}

// refreshStats returns the refreshes answered per lineage and the ones
// the server refused.
func (a *teamAuth) refreshStats() (map[string][]time.Time, []refusal) {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := map[string][]time.Time{}
	for l, ts := range a.refreshes {
		out[l] = append([]time.Time(nil), ts...)
	}
	return out, append([]refusal(nil), a.refused...)
}

// lostToKill reports whether f spent a refresh token whose first refresh
// was answered about when one of kills came (a replica killed with
// SIGKILL: the time is taken before the signal, which a refresh may
// still beat) and whose tokens nobody ever used: the killed replica
// asked, and died before it stored the answer, so the database still
// held the retired token. With refresh tokens the server rotates, no
// client can keep that login; the person logs in again.
func (a *teamAuth) lostToKill(f refusal, kills []time.Time) bool {
	if f.first == nil {
		return false
	}
	a.mu.Lock()
	unused := !a.used[f.first.access] && !a.used[f.first.refresh]
	a.mu.Unlock()
	for _, k := range kills {
		if d := k.Sub(f.first.at); unused && d > -killSlack && d < killSlack {
			return true
		}
	}
	return false
}

// killSlack is how far apart a kill and the refresh it cut may be timed
// on a loaded machine.
const killSlack = 2 * time.Second

// setOnRefresh sets the hook run between a refresh's answer and its
// sending (nil: none).
func (a *teamAuth) setOnRefresh(fn func(lineage string)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.onRefresh = fn
}

// lostLineage reports whether the server refused a refresh of lineage l
// that a replica killed at one of kills had spent (lostToKill).
func (a *teamAuth) lostLineage(l string, kills []time.Time) bool {
	_, refused := a.refreshStats()
	for _, f := range refused {
		if f.lineage == l && a.lostToKill(f, kills) {
			return true
		}
	}
	return false
}

// lineagesIssued is how many logins the server completed.
func (a *teamAuth) lineagesIssued() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.lineages
}
