package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/server"
)

// TestStatusMeasuresOneAtATime changes the catalog twenty times while the
// page keeps asking for figures and every measurement takes long: one
// measurement runs at a time, a newer catalog cancels the one running, and
// the figures shown in the end are the latest catalog's.
func TestStatusMeasuresOneAtATime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cat := testCatalog(t)
		s, _ := server.New(cat, server.Options{})
		defer s.Close()
		v := newStatusView(s, nil)
		defer v.close()
		var running, peak, finished atomic.Int32
		release := make(chan struct{})
		v.measure = func(ctx context.Context, snap *catalog.Snapshot) (*server.Report, error) {
			n := running.Add(1)
			defer running.Add(-1)
			if n > peak.Load() {
				peak.Store(n)
			}
			select {
			case <-release:
				finished.Add(1)
				return &server.Report{Queries: int(snap.Version)}, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		for i := range 20 {
			tool := &mcp.Tool{Name: "t", Description: fmt.Sprintf("Version %d.", i), InputSchema: json.RawMessage(`{"type":"object"}`)}
			cat.Put(&catalog.Source{Name: "more", Kind: catalog.SourceTools, Entries: []*catalog.Entry{catalog.NewToolEntry("more", "more__t", tool)}})
			v.tokens()
			synctest.Wait()
		}
		if p := peak.Load(); p != 1 {
			t.Errorf("%d measurements ran at once, want 1", p)
		}
		close(release)
		synctest.Wait()
		rep := v.tokens()
		if want := int(s.Snapshot().Version); rep == nil || rep.Queries != want {
			t.Errorf("figures shown are of version %v, want the latest, %d", rep, want)
		}
		if n := finished.Load(); n != 1 {
			t.Errorf("%d measurements ran to the end, want only the latest", n)
		}
	})
}

func TestFilterEntries(t *testing.T) {
	entries := []EntryReport{
		{Name: "srv__echo", Source: "srv", Summary: "Echo a message back."},
		{Name: "static_tool", Source: "Dump", Summary: "A static tool."},
		{Name: "pdf", Source: "skills", Summary: "Fill PDF forms."},
	}
	tests := []struct{ q, want string }{
		{"ECHO", "srv__echo"},          // name, any case
		{"dump", "static_tool"},        // source
		{"pdf FORMS", "pdf"},           // summary
		{"a", "srv__echo static_tool"}, // several
		{"nothing", ""},
	}
	for _, tt := range tests {
		var got []string
		for _, e := range filterEntries(entries, tt.q) {
			got = append(got, e.Name)
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("filter %q: %q, want %s", tt.q, got, tt.want)
		}
	}
}

// The status page may be opened with the token in its address: it tells
// the browser never to pass that address on as a referrer.
func TestStatusPageSendsNoReferrer(t *testing.T) {
	s, _ := server.New(testCatalog(t), server.Options{ListingBudget: server.DefaultListingBudget})
	defer s.Close()
	url, _ := startHTTP(t, s, Options{Token: "secret"})
	resp, err := http.Get(url + "/?token=secret")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("GET /: %s, Referrer-Policy %q; want 200 and no-referrer", resp.Status, resp.Header.Get("Referrer-Policy"))
	}
}

// TestStatusListsEverythingQuarantined: the Quarantined list holds held
// tools and what else servers hold, which is in no entries table: their
// instructions (from the approvals, or from the catalog without them),
// prompts and resources; each once, a withheld skill not among them.
func TestStatusListsEverythingQuarantined(t *testing.T) {
	c := testCatalog(t)
	fresh := catalog.NewToolEntry("srv", "srv__fresh", &mcp.Tool{Name: "fresh", Description: "New.", InputSchema: json.RawMessage(`{"type":"object"}`)})
	fresh.Hold(&catalog.Quarantine{Reason: "new", Summary: "a new tool", Review: "toolsearch review srv__fresh"})
	c.Put(&catalog.Source{Name: "srv", Kind: catalog.SourceServer, State: catalog.StateActive, InstructionsHeld: "changed", Entries: []*catalog.Entry{fresh}})
	c.Put(&catalog.Source{Name: "other", Kind: catalog.SourceServer, State: catalog.StateActive, InstructionsHeld: "new"})
	s, _ := server.New(c, server.Options{})
	defer s.Close()
	approvals := &fakeApprovals{pending: []Pending{
		{Name: "srv__fresh", Kind: "tool", Digest: "d1", Reason: "new"},
		{Name: "srv:instructions", Kind: "instructions", Digest: "d2", Reason: "changed", Change: "instructions changed"},
		{Name: "srv:prompt:greet", Kind: "prompt", Digest: "d3", Reason: "new", Change: "a new prompt"},
		{Name: "srv:resource:file:///notes", Kind: "resource", Digest: "d4", Reason: "changed"},
		{Name: "skills/odd", Kind: "skill", Digest: "d5", Reason: "flagged"},
	}}
	v := newStatusView(s, approvals)
	defer v.close()
	v.measure = func(context.Context, *catalog.Snapshot) (*server.Report, error) { return &server.Report{}, nil }
	rec := httptest.NewRecorder()
	v.serveStatus(rec, httptest.NewRequest("GET", "/status.json?filter=echo", nil))
	var st Status
	if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range st.Quarantined {
		got = append(got, h.Name+" "+h.Kind+" "+h.Review)
	}
	want := []string{
		"srv__fresh tool toolsearch review srv__fresh",
		"srv:instructions instructions ",
		"srv:prompt:greet prompt ",
		"srv:resource:file:///notes resource ",
		"other:instructions instructions ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("quarantined:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The page draws the list, each linked to its approval.
	for _, part := range []string{`id="quarantined-section"`, "renderQuarantined(st.quarantined, st.pending)", `id: "review-" + p.name`} {
		if !strings.Contains(string(statusPage), part) {
			t.Errorf("the status page lacks %s", part)
		}
	}
}
