package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/toolsearch/toolsearch/server"
)

const (
	flaggedDigest = "9f2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c0b2d4f6e8a1c3e5b7d9f1a3c5e7b9d1f"
	otherDigest   = "1111111111111111111111111111111111111111111111111111111111111111"
)

// flaggedApprovals hold one flagged tool (srv__echo), one other flagged
// tool (srv__ping) and one that is only new (static_tool).
func flaggedApprovals() *fakeApprovals {
	return &fakeApprovals{pending: []Pending{
		{Name: "srv__echo", Kind: "tool", Digest: flaggedDigest, Reason: "flagged by the scanner",
			Findings: []string{`description[18:38]: model-directive: an instruction to keep something from the user: "Do not tell the user"`},
			Diff:     "--- approved\n+++ pending\n-old\n+new\n"},
		{Name: "srv__ping", Kind: "tool", Digest: otherDigest, Reason: "flagged by the scanner", Findings: []string{"secret-path"}},
		{Name: "static_tool", Kind: "tool", Digest: otherDigest, Reason: "new"},
	}}
}

// approveOnce posts one approval as the status page would and returns the
// status and the body decoded.
func approveOnce(t *testing.T, h http.Handler, req approveRequest) (int, map[string]any) {
	t.Helper()
	body, _ := json.Marshal(req)
	r := httptest.NewRequest("POST", "/approve", strings.NewReader(string(body)))
	r.Host = "127.0.0.1:7777"
	r.Header.Set("Origin", "http://127.0.0.1:7777")
	r.Header.Set("Sec-Fetch-Site", "same-origin")
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	var got map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		t.Fatalf("%d: not JSON: %s", w.Code, w.Body)
	}
	return w.Code, got
}

// TestApproveFlaggedTakesTwoSteps: the request the Approve button sent,
// however often it comes, does not approve a definition the scanner
// flagged: it gets the findings, the diff and a confirmation; only the
// second step, with that confirmation and the name typed out, approves,
// once. A definition only new approves in one step, as before.
func TestApproveFlaggedTakesTwoSteps(t *testing.T) {
	s, _ := server.New(testCatalog(t), server.Options{})
	defer s.Close()
	appr := flaggedApprovals()
	h := NewHandler(s, Options{Approvals: appr})
	defer h.Close()
	first := approveRequest{Name: "srv__echo", Digest: flaggedDigest}

	var confirm string
	for i := range 3 { // a click, and the same request replayed
		code, body := approveOnce(t, h, first)
		if code != http.StatusPreconditionRequired || len(appr.approved) > 0 {
			t.Fatalf("the first step, #%d: %d %v, approved %v; want 428 and nothing approved", i, code, body, appr.approved)
		}
		if body["diff"] != appr.pending[0].Diff || fmt.Sprint(body["findings"]) != fmt.Sprint(appr.pending[0].Findings) || body["confirm"] == "" {
			t.Errorf("the first step shows %v, want the findings, the diff and a confirmation", body)
		}
		if c, _ := body["confirm"].(string); c == confirm {
			t.Errorf("the same confirmation twice: %q", c)
		} else {
			confirm = c
		}
	}

	for _, tc := range []struct {
		name string
		req  approveRequest
		want int
	}{
		{"nothing typed", approveRequest{Name: "srv__echo", Digest: flaggedDigest, Confirm: confirm}, http.StatusBadRequest},
		{"another name typed", approveRequest{Name: "srv__echo", Digest: flaggedDigest, Confirm: confirm, Typed: "srv__ping"}, http.StatusBadRequest},
		{"a confirmation never given", approveRequest{Name: "srv__echo", Digest: flaggedDigest, Confirm: strings.Repeat("0", 32), Typed: "srv__echo"}, http.StatusForbidden},
		{"another definition's confirmation", approveRequest{Name: "srv__ping", Digest: otherDigest, Confirm: confirm, Typed: "srv__ping"}, http.StatusForbidden},
	} {
		if code, body := approveOnce(t, h, tc.req); code != tc.want || len(appr.approved) > 0 {
			t.Errorf("%s: %d %v, approved %v; want %d and nothing approved", tc.name, code, body, appr.approved, tc.want)
		}
	}
	// Used on srv__ping, the confirmation is gone: start again.
	_, body := approveOnce(t, h, first)
	confirm = body["confirm"].(string)
	second := approveRequest{Name: "srv__echo", Digest: flaggedDigest, Confirm: confirm, Typed: "srv__echo"}
	if code, body := approveOnce(t, h, second); code != http.StatusOK || len(appr.approved) != 1 {
		t.Fatalf("the second step: %d %v, approved %v", code, body, appr.approved)
	}
	if code, _ := approveOnce(t, h, second); code != http.StatusForbidden || len(appr.approved) != 1 {
		t.Errorf("the second step replayed: %d, approved %v; want 403 and nothing more", code, appr.approved)
	}

	if code, body := approveOnce(t, h, approveRequest{Name: "static_tool", Digest: otherDigest}); code != http.StatusOK {
		t.Errorf("a definition not flagged: %d %v, want approved at once", code, body)
	}
}

// TestApproveConfirmationGoesStale: a confirmation is bound to the digest
// it was given for, and goes stale.
func TestApproveConfirmationGoesStale(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, _ := server.New(testCatalog(t), server.Options{})
		defer s.Close()
		appr := flaggedApprovals()
		h := NewHandler(s, Options{Approvals: appr})
		defer h.Close()
		_, body := approveOnce(t, h, approveRequest{Name: "srv__echo", Digest: flaggedDigest})
		stale := approveRequest{Name: "srv__echo", Digest: flaggedDigest, Confirm: body["confirm"].(string), Typed: "srv__echo"}
		time.Sleep(confirmTTL)
		if code, _ := approveOnce(t, h, stale); code != http.StatusForbidden || len(appr.approved) > 0 {
			t.Errorf("a stale confirmation: %d, approved %v", code, appr.approved)
		}

		_, body = approveOnce(t, h, approveRequest{Name: "srv__echo", Digest: flaggedDigest})
		appr.pending[0].Digest = otherDigest // the server changed it meanwhile
		changed := approveRequest{Name: "srv__echo", Digest: flaggedDigest, Confirm: body["confirm"].(string), Typed: "srv__echo"}
		if code, _ := approveOnce(t, h, changed); code != http.StatusConflict || len(appr.approved) > 0 {
			t.Errorf("a definition changed between the steps: %d, approved %v", code, appr.approved)
		}
	})
}

// TestConfirmationsAreBounded: a script asking for confirmations keeps at
// most maxConfirmations, dropping the oldest.
func TestConfirmationsAreBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var c confirmations
		first := c.issue("a", "d")
		var last string
		for range 3 * maxConfirmations {
			time.Sleep(time.Millisecond)
			last = c.issue("a", "d")
		}
		if n := len(c.byToken); n != maxConfirmations {
			t.Errorf("%d kept, want %d", n, maxConfirmations)
		}
		if c.redeem(first, "a", "d") || !c.redeem(last, "a", "d") {
			t.Error("the oldest kept, or the newest dropped")
		}
	})
}
